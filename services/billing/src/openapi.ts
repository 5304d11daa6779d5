import { z } from 'zod';
import {
  BillingStatus,
  CheckoutBody,
  CheckoutSessionId,
  CheckoutStarted,
  Plan,
  PortalBody,
  PortalOpened,
  ProcessorEventReceived,
  RegistrationCheckoutBody,
  RegistrationCheckoutStarted,
  RegistrationSession,
} from '@svc/contracts';
import { componentSchemas, dataResponse, errorResponse, freeObject, fromZod, headerParameter, jsonBody, pathParameter, string, type OpenApiFragment } from '@svc/openapi';

const notConfigured = errorResponse('`SERVICE_UNAVAILABLE`: billing is not configured on this platform (`details.missing` names the setting).');
const processorFailed = errorResponse('`INTEGRATION_ERROR`: the payment processor refused or could not be reached.');
const signature = headerParameter('Payment-Signature', string({ pattern: '^t=\\d+,v1=[0-9a-f]+' }), 'The processor\'s signature of the raw body: `t=<unix seconds>,v1=<hex HMAC>`; at most 300 s old.');
const badSignature = errorResponse('`AUTHENTICATION_FAILED`: the signature is missing, does not verify with this endpoint\'s secret, or is older than 300 s.');
const processorEvent = jsonBody(freeObject('A processor event (`id`, `type`, `created`, `data.object`), exactly as signed.'));

/** Plans, subscriptions through the payment processor, and paid registration. */
export const billingOpenApi: OpenApiFragment = {
  service: 'billing',
  tags: [
    { name: 'Billing', description: 'Plans, the caller\'s subscription, checkout and the processor\'s customer portal.' },
    { name: 'Registration', description: 'Paying for an access code to register with (public).' },
  ],
  schemas: componentSchemas(Plan, BillingStatus, RegistrationSession),
  paths: {
    '/api/v1/billing/plans': {
      get: { operationId: 'listPlans', summary: 'Plans with their prices and the limits the platform enforces', tags: ['Billing'], responses: { 200: dataResponse('The plans.', z.array(Plan)) } },
    },
    '/api/v1/billing/status': {
      get: { operationId: 'getBillingStatus', summary: 'The caller\'s tier and processor customer', tags: ['Billing'], responses: { 200: dataResponse('The status.', BillingStatus) } },
    },
    '/api/v1/billing/checkout': {
      post: {
        operationId: 'startCheckout',
        summary: 'Start paying for Pro: a processor-hosted checkout page',
        tags: ['Billing'],
        requestBody: jsonBody(fromZod(CheckoutBody)),
        responses: {
          200: dataResponse('Redirect the user to `checkout_url`.', CheckoutStarted),
          400: errorResponse('`VALIDATION_FAILED`: a missing or non-http(s) URL (`details.field`).'),
          409: errorResponse('`CONFLICT`: the caller already has an active or past-due subscription.'),
          502: processorFailed,
          503: notConfigured,
        },
      },
    },
    '/api/v1/billing/portal': {
      post: {
        operationId: 'openBillingPortal',
        summary: 'The processor\'s customer portal (payment methods, invoices, cancellation)',
        tags: ['Billing'],
        requestBody: jsonBody(fromZod(PortalBody)),
        responses: {
          200: dataResponse('Redirect the user to `portal_url`.', PortalOpened),
          400: errorResponse('`VALIDATION_FAILED`: a missing or non-http(s) `return_url`.'),
          409: errorResponse('`CONFLICT`: the caller has no processor customer yet (never checked out).'),
          502: processorFailed,
          503: notConfigured,
        },
      },
    },
    '/api/v1/billing/webhook': {
      post: {
        operationId: 'receiveBillingEvent',
        summary: 'Subscription events from the payment processor',
        description: 'Each event id is applied once; unhandled event types are acknowledged and ignored.',
        tags: ['Billing'],
        parameters: [signature],
        requestBody: processorEvent,
        responses: { 200: dataResponse('Received (also for a duplicate).', ProcessorEventReceived), 401: badSignature, 503: notConfigured },
      },
    },
    '/api/v1/registration/checkout': {
      post: {
        operationId: 'startRegistrationCheckout',
        summary: 'Start paying for an access code',
        description: '`ref` keeps only letters, digits and dashes, at most 64. Limited to 5 requests a minute per client address.',
        tags: ['Registration'],
        requestBody: jsonBody(fromZod(RegistrationCheckoutBody)),
        responses: {
          200: dataResponse('Redirect the buyer to `checkout_url`; poll the session with `session_id`.', RegistrationCheckoutStarted),
          400: errorResponse('`VALIDATION_FAILED`: `ref` is not a string.'),
          502: processorFailed,
          503: notConfigured,
        },
      },
    },
    '/api/v1/registration/session/{session_id}': {
      get: {
        operationId: 'getRegistrationSession',
        summary: 'Whether a paid registration\'s code is ready',
        tags: ['Registration'],
        parameters: [pathParameter('session_id', fromZod(CheckoutSessionId), 'The `session_id` the checkout answered.')],
        responses: {
          200: dataResponse('pending until the payment arrives; then ready with the code and the e-mail it was sent to; expired when the checkout was abandoned; disputed when the payment was disputed (the code no longer works).', RegistrationSession),
          400: errorResponse('`VALIDATION_FAILED`: not a checkout session id.'),
          404: errorResponse('`NOT_FOUND`: no such session.'),
        },
      },
    },
    '/api/v1/registration/webhook': {
      post: {
        operationId: 'receiveRegistrationEvent',
        summary: 'Paid-registration events from the payment processor',
        tags: ['Registration'],
        parameters: [signature],
        requestBody: processorEvent,
        responses: { 200: dataResponse('Received (also for a duplicate).', ProcessorEventReceived), 401: badSignature, 503: notConfigured },
      },
    },
  },
};
