// The least a request command does, as a reference for the start-up figures: one GET with node:http, then
// the list printed as indented JSON. No CLI, no config, no undici; `node -e 0` plus this is the floor.
const url = new URL('/diagnostic-measures', process.env.CLINADMIN_BASE_URL);
require('node:http').get(url, { headers: { authorization: `Bearer ${process.env.CLINADMIN_TOKEN}` } }, (res) => {
  const chunks = [];
  res.on('data', (c) => chunks.push(c));
  res.on('end', () => process.stdout.write(`${JSON.stringify(JSON.parse(Buffer.concat(chunks)), null, 2)}\n`));
});
