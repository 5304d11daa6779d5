import { TelemetryRecord } from '@svc/contracts';
import { constant, dataResponse, errorResponse, fromZod, jsonBody, object, type OpenApiFragment } from '@svc/openapi';

/** The admin area: for now the CLI's anonymous telemetry. */
export const adminOpenApi: OpenApiFragment = {
  service: 'admin',
  tags: [{ name: 'Telemetry', description: 'Anonymous, opt-in usage reports of the command-line client.' }],
  paths: {
    '/api/v1/telemetry': {
      post: {
        operationId: 'recordTelemetry',
        summary: 'Report one CLI run (anonymous)',
        description: 'Nothing about the sender is kept, even when the request carries credentials.',
        tags: ['Telemetry'],
        requestBody: jsonBody(fromZod(TelemetryRecord)),
        responses: {
          200: dataResponse('Recorded.', object({ received: constant(true) })),
          400: errorResponse('`VALIDATION_FAILED`: a missing, malformed or unknown field (`details.field`).'),
        },
      },
    },
  },
};
