import { createClient } from '@svc/client';

/**
 * The one client of the console. Same origin as the API, so the HttpOnly `svc_refresh` cookie
 * renews the access token, which stays in this module's memory and nowhere else (no storage a
 * dashboard or an extension could read, gone when the tab closes).
 */
export const svc = createClient({ baseUrl: window.location.origin, cookies: true });
