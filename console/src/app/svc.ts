import { createClient } from '@svc/client';
import { onRetry } from './rate-limit.js';

/**
 * The one client of the console. Same origin as the API, so the HttpOnly `svc_refresh` cookie
 * renews the access token, which stays in this module's memory and nowhere else (no storage a
 * dashboard or an extension could read, gone when the tab closes). A rate limit it waits out is
 * shown on the page (`RateLimitNote`).
 */
export const svc = createClient({ baseUrl: window.location.origin, cookies: true, onRetry });
