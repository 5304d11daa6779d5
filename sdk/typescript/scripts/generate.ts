// Writes the SDKs' generated sources from the platform's OpenAPI document: the one the gateway
// serves at /openapi.json, built in process, or the one at the URL given as the first argument
// (a running platform's `http://localhost:8080/openapi.json`).
import { writeFile } from 'node:fs/promises';
import { buildOpenApiDocument } from '@svc/gateway/openapi';
import { generateSources } from './sources.js';
import { GENERATED_PATHS } from './paths.js';

const from = process.argv[2];
const doc = from ? await (await fetch(from)).json() : buildOpenApiDocument();
const sources = await generateSources(doc);
await writeFile(GENERATED_PATHS.typescript, sources.typescript);
await writeFile(GENERATED_PATHS.python, sources.python);
await writeFile(GENERATED_PATHS.pythonTypes, sources.pythonTypes);
console.log(`wrote ${Object.values(GENERATED_PATHS).join(', ')}`);
