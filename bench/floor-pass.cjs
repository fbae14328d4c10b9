// The least `measures list -o ndjson` could cost through undici, as a reference for the list figure: the
// answer's bytes passed to stdout as they arrive, with nothing done per record. Loads undici's pool alone.
const Pool = require('undici/lib/dispatcher/pool.js');
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
