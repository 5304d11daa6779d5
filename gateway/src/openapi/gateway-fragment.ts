import { dateTime, enumOf, freeObject, jsonResponse, object, ref, string, type OpenApiFragment } from '@svc/openapi';

const componentStatus = enumOf(['healthy', 'degraded', 'unhealthy']);

/** What the gateway answers itself: health and this document. */
export const gatewayOpenApi: OpenApiFragment = {
  service: 'gateway',
  tags: [
    { name: 'Health', description: 'Whether the fleet can serve.' },
    { name: 'Documentation', description: 'This document and its interactive view.' },
  ],
  schemas: {
    Health: object(
      {
        status: componentStatus,
        version: string({ description: 'The platform version.' }),
        services: object({ database: componentStatus, cache: componentStatus, worker: componentStatus }),
        timestamp: dateTime,
      },
      { description: 'A bare object, without the envelope.' },
    ),
  },
  paths: {
    '/health': {
      get: {
        operationId: 'getHealth',
        summary: 'Fleet health',
        description: 'Each check is bounded by 2 s. Without the cache the fleet still serves on local fallbacks (`degraded`).',
        tags: ['Health'],
        responses: {
          200: jsonResponse('`healthy` or `degraded`.', ref('Health')),
          503: jsonResponse('`unhealthy`: the database or the workers are unreachable.', ref('Health')),
        },
      },
    },
    '/openapi.json': {
      get: {
        operationId: 'getOpenApiDocument',
        summary: 'This OpenAPI document',
        tags: ['Documentation'],
        responses: { 200: jsonResponse('The OpenAPI 3.0 document of every public endpoint.', freeObject('An OpenAPI 3.0 document.')) },
      },
    },
    '/docs': {
      get: {
        operationId: 'getDocs',
        summary: 'Interactive documentation (Swagger UI)',
        description: 'Served with its assets from the gateway itself (`/docs/assets/…`); nothing is loaded from elsewhere.',
        tags: ['Documentation'],
        responses: { 200: { description: 'An HTML page rendering `/openapi.json`.', content: { 'text/html': { schema: string() } } } },
      },
    },
  },
};
