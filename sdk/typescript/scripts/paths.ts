import { fileURLToPath } from 'node:url';

/** Where the generated sources of both SDKs are committed. */
export const GENERATED_PATHS = {
  typescript: fileURLToPath(new URL('../src/generated/openapi.ts', import.meta.url)),
  python: fileURLToPath(new URL('../../python/svc_client/_operations.py', import.meta.url)),
  pythonTypes: fileURLToPath(new URL('../../python/svc_client/schemas.py', import.meta.url)),
};
