import { ServiceUnavailableError } from '@svc/core';

/** What an endpoint that needs the payment processor answers when its settings are missing. */
export const billingNotConfigured = (missing: string) =>
  new ServiceUnavailableError(`Billing is not configured on this platform (${missing} is not set)`, { reason: 'billing_not_configured', missing });
