// B0: the least an HTTP server on this machine can do, a small JSON body from Node's own
// `http`, as the measure of what the machine allows. Prints its URL once listening.
import { Buffer } from 'node:buffer';
import { createServer } from 'node:http';

const body = JSON.stringify({ success: true, data: { result: { echoed: { text: 'bench' } } } });
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
