import { useRateLimitWait } from './rate-limit.js';

/** Shown on every page while a request waits out a rate limit: which limit, the tier, and when it goes again. */
export function RateLimitNote() {
  const waiting = useRateLimitWait();
  if (!waiting) return <div role="status" className="visually-hidden" />;
  const { wait, seconds } = waiting;
  return (
    <div role="status" className="notice" data-testid="rate-limit">
      <strong>Rate limit reached.</strong> {wait.limit}. The console sends the request again at{' '}
      <time dateTime={new Date(wait.until).toISOString()}>{new Date(wait.until).toLocaleTimeString()}</time> (in {seconds} s); this page carries on by itself.
    </div>
  );
}
