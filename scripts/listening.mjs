// Waits for a spawned `clinadmin serve` to print "listening on URL", and rejects if it exits first.
export function listening(proc, name = 'serve') {
  let err = '';
  proc.stderr.on('data', (d) => (err += d));
  return new Promise((resolve, reject) => {
    let out = '';
    proc.stdout.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    proc.on('exit', (code) => reject(new Error(`${name} exited ${code}: ${err}`)));
  });
}
