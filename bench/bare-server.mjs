// The baseline: node:http answering a constant JSON body, in its own process (`@FILE`: the file's text).
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const given = process.argv[2] ?? '{}';
const body = given.startsWith('@') ? readFileSync(given.slice(1), 'utf8') : given;
const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${server.address().port}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
