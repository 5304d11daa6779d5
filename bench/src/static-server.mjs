// The floor of B8: the dashboard bundle file served by `express.static` from a folder, with the
// same one-year immutable cache the dashboard service answers. Nothing of ours runs here.
import { createServer } from 'node:http';
import express from 'express';

const app = express();
app.disable('x-powered-by');
app.use(express.static(process.env.STATIC_DIR, { immutable: true, maxAge: '1y' }));
const server = createServer(app);
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
