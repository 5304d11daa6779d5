import { useRateLimitWait } from './rate-limit.js';

/**
 * Shown on every page while a request waits out a rate limit: which limit, the tier, and when it
 * goes again. The live region is always there, so that a screen reader hears the note when it
 * appears; it is not a `status` role, which names each page's own result, and the countdown is
 * hidden from it, so that it is not read out every second.
 */
export function RateLimitNote() {
  const waiting = useRateLimitWait();
  return (
    <div aria-live="polite" aria-atomic="true">
      {waiting && (
        <div className="notice" data-testid="rate-limit">
          <strong>Rate limit reached.</strong> {waiting.wait.limit}. The console sends the request again at{' '}
          <time dateTime={new Date(waiting.wait.until).toISOString()}>{new Date(waiting.wait.until).toLocaleTimeString()}</time>
          <span aria-hidden="true"> (in {waiting.seconds} s)</span>; this page carries on by itself.
        </div>
      )}
    </div>
  );
}
