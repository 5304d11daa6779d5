import { dataOf } from '@svc/client';
import { svc } from '../app/svc.js';
import { CONSOLE_PATHS } from '../paths.js';

/** Where the processor sends the person back: the page that waits for the upgrade, or billing saying nothing was charged. */
export const UPGRADED_PATH = `${CONSOLE_PATHS.billing}/upgraded`;
const back = (path: string) => `${window.location.origin}${path}`;

/** Pays for Pro: the processor's checkout page, which comes back to `UPGRADED_PATH` (or billing, canceled). */
export async function startCheckout(): Promise<void> {
  const body = { success_url: back(UPGRADED_PATH), cancel_url: back(`${CONSOLE_PATHS.billing}?checkout=canceled`) };
  const { checkout_url } = await dataOf(svc.api.POST('/api/v1/billing/checkout', { body }));
  window.location.assign(checkout_url);
}

/** The processor's customer portal (payment methods, invoices, cancellation), which comes back to billing. */
export async function openPortal(): Promise<void> {
  const { portal_url } = await dataOf(svc.api.POST('/api/v1/billing/portal', { body: { return_url: back(CONSOLE_PATHS.billing) } }));
  window.location.assign(portal_url);
}
