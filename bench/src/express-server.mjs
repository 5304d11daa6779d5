// The floor of the stack every service stands on: the B0 request answered by an express app
// whose one route parses the JSON body (`express.json()`) and sends it back. Nothing of ours
// runs here; what it costs over B0 is express's own share of every request the fleet answers.
import { createServer } from 'node:http';
import express from 'express';

const app = express();
app.disable('x-powered-by');
app.post('/', express.json(), (req, res) => {
  res.json({ success: true, data: { result: { echoed: req.body } } });
});
const server = createServer(app);
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
