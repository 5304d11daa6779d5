import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import express, { Router, type RequestHandler } from 'express';
import type { OpenAPIObject } from '@svc/openapi';

/** Swagger UI's files come from the installed `swagger-ui-dist` package: the page loads nothing from elsewhere. */
const SWAGGER_UI_DIR = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
export const DOCS_ASSETS_PATH = '/docs/assets';
/** Only what the page uses; the package's own index and initializer (which point at a demo API) stay private. */
const ASSETS = new Set(['swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-32x32.png']);

/** The page's one script of its own, served as a file so that its policy allows no inline script. */
const INIT_SCRIPT = 'docs-init.js';
// `validatorUrl: null`: Swagger UI would otherwise send the document to an online validator.
const INIT_JS = "window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui', deepLinking: true, validatorUrl: null });\n";

/**
 * What the page may do: run and style itself from this origin (Swagger UI sets inline styles),
 * show images and fonts from here or inlined, and fetch from here only (the document, and the
 * "Try it out" calls); nobody may frame it.
 */
export const DOCS_POLICY = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

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
<script src="${DOCS_ASSETS_PATH}/${INIT_SCRIPT}"></script>
</body>
</html>
`;

function swaggerUiAssets(): RequestHandler {
  const serve = express.static(SWAGGER_UI_DIR, { index: false, maxAge: '1d' });
  return (req, res, next) => {
    const name = req.path.slice(1);
    if (name === INIT_SCRIPT && (req.method === 'GET' || req.method === 'HEAD')) return void res.type('text/javascript').send(INIT_JS);
    // Anything else falls through to the route table, which answers a JSON 404.
    return ASSETS.has(name) ? serve(req, res, next) : next();
  };
}

/** `GET /openapi.json` (the document) and `GET /docs` (Swagger UI rendering it); public, like `/health`. */
export function docsRoutes(document: OpenAPIObject): Router {
  const router = Router();
  const json = JSON.stringify(document);
  router.get('/openapi.json', (_req, res) => {
    res.type('application/json').send(json);
  });
  router.get('/docs', (_req, res) => {
    res.set('Content-Security-Policy', DOCS_POLICY).type('html').send(DOCS_HTML);
  });
  router.use(DOCS_ASSETS_PATH, swaggerUiAssets());
  return router;
}
