import { z } from 'zod';
import { Health } from '@svc/contracts';
import { componentSchemas, errorResponse, integer, jsonResponse, string, type OpenApiFragment } from '@svc/openapi';
import { CLI_LOGIN_MIN_PORT, CLI_LOGIN_STATE_PATTERN } from '../http/cli-login.routes.js';

/** What the gateway answers itself: health and this document. */
export const gatewayOpenApi: OpenApiFragment = {
  service: 'gateway',
  tags: [
    { name: 'Health', description: 'Whether the fleet can serve.' },
    { name: 'Documentation', description: 'This document and its interactive view.' },
    { name: 'Command-line client', description: 'Pages the `svc` client opens in a browser.' },
  ],
  schemas: componentSchemas(Health),
  paths: {
    '/health': {
      get: {
        operationId: 'getHealth',
        summary: 'Fleet health',
        description: 'Each check is bounded by 2 s. Without the cache the fleet still serves on local fallbacks (`degraded`).',
        tags: ['Health'],
        responses: {
          200: jsonResponse('`healthy` or `degraded`.', Health),
          503: jsonResponse('`unhealthy`: the database or the workers are unreachable.', Health),
        },
      },
    },
    '/openapi.json': {
      get: {
        operationId: 'getOpenApiDocument',
        summary: 'This OpenAPI document',
        tags: ['Documentation'],
        responses: { 200: jsonResponse('The OpenAPI 3.0 document of every public endpoint.', z.record(z.string(), z.unknown()).meta({ description: 'An OpenAPI 3.0 document.' })) },
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
    '/cli/svc-cli.tgz': {
      get: {
        operationId: 'getCliPackage',
        summary: 'The `svc` command-line client this platform was built with',
        description: 'An npm package (`npm pack` of `cli/`): `npm install -g <platform>/cli/svc-cli.tgz` installs `svc`, whose `--version` is the platform\'s. Its dependencies come from the npm registry. Answers carry an ETag and `Cache-Control: no-cache`.',
        tags: ['Command-line client'],
        responses: {
          200: { description: 'The package.', content: { 'application/gzip': { schema: string({ format: 'binary' }) } } },
          404: errorResponse('`NOT_FOUND`: this platform was deployed without the CLI package.'),
        },
      },
    },
    '/cli/login': {
      get: {
        operationId: 'getCliLoginPage',
        summary: 'Sign-in page of `svc login`',
        description:
          'The person signs in with `POST /api/v1/auth/login`; the page then posts `state`, `access_token` and `refresh_token` as a form to `http://127.0.0.1:{port}/callback`, where the CLI waits and checks `state`. A Content-Security-Policy allows only the page\'s own script, requests to this origin and that one form target.',
        tags: ['Command-line client'],
        parameters: [
          { name: 'port', in: 'query', required: true, description: 'The CLI\'s loopback port.', schema: integer({ minimum: CLI_LOGIN_MIN_PORT, maximum: 65535 }) },
          { name: 'state', in: 'query', required: true, description: 'A one-time value the CLI made; handed back unchanged.', schema: string({ pattern: CLI_LOGIN_STATE_PATTERN.source }) },
        ],
        responses: {
          200: { description: 'The sign-in page.', content: { 'text/html': { schema: string() } } },
          400: errorResponse('`VALIDATION_FAILED`: `port` or `state` missing or malformed (`details.field`).'),
        },
      },
    },
  },
};
