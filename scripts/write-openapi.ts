// Writes the public OpenAPI document, assembled as the gateway serves it, to a file (or stdout).
import { writeFileSync } from 'node:fs';
import { buildOpenApiDocument } from '../gateway/src/openapi/document.js';

const json = `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
const out = process.argv[2];
if (out) writeFileSync(out, json);
else process.stdout.write(json);
