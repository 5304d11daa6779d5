import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '@svc/gateway/openapi';
import { GENERATED_PATHS } from '../scripts/paths.js';
import { EXCLUDED_OPERATIONS, generateSources, operationsOf } from '../scripts/sources.js';

describe('the SDKs against /openapi.json', () => {
  it('have their generated sources regenerated from the document the gateway serves (npm run generate)', async () => {
    const expected = await generateSources(buildOpenApiDocument());
    expect(await readFile(GENERATED_PATHS.typescript, 'utf8'), 'sdk/typescript/src/generated/openapi.ts is stale: run `npm run generate` in sdk/typescript').toBe(expected.typescript);
    expect(await readFile(GENERATED_PATHS.python, 'utf8'), 'sdk/python/svc_client/_operations.py is stale: run `npm run generate` in sdk/typescript').toBe(expected.python);
    expect(await readFile(GENERATED_PATHS.pythonTypes, 'utf8'), 'sdk/python/svc_client/schemas.py is stale: run `npm run generate` in sdk/typescript').toBe(expected.pythonTypes);
  });

  it('leave out only operations that exist and that are not JSON or not for clients', () => {
    const doc = buildOpenApiDocument();
    const all = Object.values(doc.paths ?? {}).flatMap((item: any) => Object.values(item).map((op: any) => op?.operationId).filter(Boolean));
    for (const id of EXCLUDED_OPERATIONS) expect(all, id).toContain(id);
    expect(operationsOf(doc).length + EXCLUDED_OPERATIONS.size).toBe(all.length);
  });
});
