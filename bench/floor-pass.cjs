// The least `measures list -o ndjson` could cost through undici, as a reference for the list figure: the
// answer's bytes passed to stdout as they arrive, with nothing done per record, through undici's public entry.
const { Pool } = require('undici');
const url = new URL(process.env.CLINADMIN_BASE_URL);
new Pool(url.origin).dispatch(
  {
    path: '/diagnostic-measures',
    method: 'GET',
    headers: { authorization: `Bearer ${process.env.CLINADMIN_TOKEN}` },
  },
  {
    onRequestStart() {},
    onResponseStart() {},
    onResponseData(controller, chunk) {
      if (!process.stdout.write(chunk)) {
        controller.pause();
        process.stdout.once('drain', () => controller.resume());
      }
    },
    onResponseEnd: () => process.exit(0),
    onResponseError: (_c, err) => {
      console.error(err);
      process.exit(1);
    },
  },
);
