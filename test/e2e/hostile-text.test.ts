// Covers: src/output/terminal.ts src/commands/notifications/watch-run.ts
import { describe, expect, it } from 'vitest';
import { clinadmin } from '../helpers/bin.js';
import { hostileApi, hostileServer, raw } from '../helpers/hostile.js';

// Issue 38: what a server sends reaches a terminal escaped, here where it takes a process: watch until
// Ctrl-C, and the bytes as written. Every other view is in test/cli/hostile-text.test.ts, in process.

const TOKEN = 'tok-hostile-text-1234';

describe('hostile text from a server reaches no terminal raw (issue 38)', () => {
  it('watch prints a hostile notification escaped, as lines and as NDJSON', async () => {
    for (const output of ['table', 'ndjson']) {
      const server = await hostileServer(hostileApi(true));
      const proc = clinadmin(['notifications', 'watch', '--interval', '0.05', '-o', output], {
        env: { CLINADMIN_BASE_URL: server.url, CLINADMIN_TOKEN: TOKEN, COLUMNS: '100' },
        buffer: true,
      });
      // Wait for the notification's line, then stop as a person would.
      let out = '';
      await new Promise<void>((resolve) => {
        proc.stdout?.on('data', (d: Buffer) => {
          out += d.toString();
          if (out.includes('\n')) resolve();
        });
      });
      proc.kill('SIGINT');
      const r = await proc;
      expect(r.stdout).toContain('\\u001b]52;c;');
      expect(raw(r.stdout)).toBeUndefined();
      expect(raw(r.stderr)).toBeUndefined();
    }
  });

  it('passes no byte that is not UTF-8 (a lone 0x9b is CSI to an 8-bit terminal), in any format', async () => {
    const body = Buffer.concat([
      Buffer.from('[{"id":"msr_b","test":"t","name":"x'),
      Buffer.from([0x9b, 0x32, 0x4a, 0xc2, 0x9b]),
      Buffer.from('y"}]'),
    ]);
    const server = await hostileServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(body),
    );
    for (const output of ['ndjson', 'json', 'table', 'wide']) {
      const r = await clinadmin(['measures', 'list', '-o', output], {
        env: { CLINADMIN_BASE_URL: server.url, CLINADMIN_TOKEN: TOKEN },
        encoding: 'buffer',
      });
      const out = Buffer.from(r.stdout as unknown as Uint8Array);
      expect(out.includes(0x9b), output).toBe(false);
      expect(out.includes(0x1b), output).toBe(false);
      expect(out.toString('utf8')).toContain('msr_b');
    }
  });
});
