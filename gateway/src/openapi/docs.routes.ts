import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import express, { Router, type RequestHandler } from 'express';
import type { OpenAPIObject } from '@svc/openapi';

/** Swagger UI's files come from the installed `swagger-ui-dist` package: the page loads nothing from elsewhere. */
const SWAGGER_UI_DIR = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
export const DOCS_ASSETS_PATH = '/docs/assets';
/** Only what the page uses; the package's own index and initializer (which point at a demo API) stay private. */
const ASSETS = new Set(['swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-32x32.png']);

// `validatorUrl: null`: Swagger UI would otherwise send the document to an online validator.
const DOCS_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>svc API</title>
<link rel="icon" type="image/png" href="${DOCS_ASSETS_PATH}/favicon-32x32.png">
<link rel="stylesheet" href="${DOCS_ASSETS_PATH}/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${DOCS_ASSETS_PATH}/swagger-ui-bundle.js"></script>
<script>
window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui', deepLinking: true, validatorUrl: null });
</script>
</body>
</html>
`;

function swaggerUiAssets(): RequestHandler {
  const serve = express.static(SWAGGER_UI_DIR, { index: false, maxAge: '1d' });
  // Anything else falls through to the route table, which answers a JSON 404.
  return (req, res, next) => (ASSETS.has(req.path.slice(1)) ? serve(req, res, next) : next());
}

/** `GET /openapi.json` (the document) and `GET /docs` (Swagger UI rendering it); public, like `/health`. */
export function docsRoutes(document: OpenAPIObject): Router {
  const router = Router();
  const json = JSON.stringify(document);
  router.get('/openapi.json', (_req, res) => {
    res.type('application/json').send(json);
  });
  router.get('/docs', (_req, res) => {
    res.type('html').send(DOCS_HTML);
  });
  router.use(DOCS_ASSETS_PATH, swaggerUiAssets());
  return router;
}
