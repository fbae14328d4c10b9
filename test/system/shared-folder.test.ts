// Covers: src/server/store/data-file-lock.ts src/lock/lock.ts
import { lchown, lstat, mkdir, readdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { clinadmin } from '../helpers/bin.js';
import { tempDir } from '../helpers/tmp.js';

// serve keeps files beside its data file. In a folder another user may write, each of those names may be
// theirs before serve makes it: a link to a file of root's, a dangling link, a FIFO, or their own file.
// serve (here run as root, the worst case) must open none of them, wait on none, change nothing outside
// the folder, and say in one line which file it cannot use. Two folders: group-writable without the sticky
// bit (the kernel's protected_symlinks does not apply there) and 1777, as /tmp is. Needs root (useradd,
// chown), as CI has; as any other user it fails.

const MALLORY = 'clinadmin-mallory';
let mallory = { uid: 0, gid: 0 };

beforeAll(async () => {
  const found = await execa('id', ['-u', MALLORY], { reject: false });
  if (found.exitCode !== 0) {
    const made = await execa('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', MALLORY], {
      reject: false,
    });
    // 9: made meanwhile by another run.
    if (made.exitCode !== 0 && made.exitCode !== 9) throw new Error(made.stderr);
  }
  const ids = async (flag: string) => Number((await execa('id', [flag, MALLORY])).stdout);
  mallory = { uid: await ids('-u'), gid: await ids('-g') };
});

/** Files outside the folder, as they are: name, content and modification time; a new one shows too. */
async function outsideState(outside: string): Promise<string[]> {
  const names = (await readdir(outside, { recursive: true })).sort();
  return Promise.all(
    names.map(async (n) => {
      const p = join(outside, n);
      const st = await stat(p);
      return `${n} ${st.mtimeMs} ${st.isFile() ? await readFile(p, 'utf8') : 'folder'}`;
    }),
  );
}

type Plant = 'root-file link' | 'dangling link' | 'FIFO' | "mallory's own";

/** Plants `name` in the folder as Mallory would: every planted name is hers. */
async function plant(path: string, how: Plant, outside: string, folder: boolean): Promise<void> {
  if (how === 'root-file link') await symlink(join(outside, folder ? 'root-folder' : 'root-file'), path);
  else if (how === 'dangling link') await symlink(join(outside, 'made-through-a-link'), path);
  else if (how === 'FIFO') await execa('mkfifo', [path]);
  else if (folder) await mkdir(path, { mode: 0o755 });
  // Her own file: a forged lock naming a live process (pid 1), a forged journal line, or any text.
  else if (path.endsWith('.lock'))
    await writeFile(path, `${JSON.stringify({ pid: 1, host: hostname(), since: Date.now() })}\n`);
  else await writeFile(path, '{"c":"diagnosticMeasures","id":"msr_forged","v":null}\n');
  await lchown(path, mallory.uid, mallory.gid);
}

/**
 * Runs serve until it either prints its URL or exits: the start is bounded by that line, never by a sleep
 * (a start that hung on a FIFO would hold the test until its timeout). A server that started has written
 * the seed through its journal; it takes a snapshot too, so whatever it does with its side files is done.
 */
async function start(data: string, env: Record<string, string | undefined> = {}) {
  const token = 'adm1n';
  const proc = clinadmin(['serve', '--port', '0', '--seed', '--data', data, '--token', `${token}:acc_t:admin`], {
    env,
    buffer: true,
  });
  const url = await new Promise<string | undefined>((resolve) => {
    let out = '';
    proc.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    void proc.then(() => resolve(undefined));
  });
  if (url) {
    const snap = await fetch(`${url}/_admin/snapshots/before`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    await snap.text();
    proc.kill('SIGTERM');
  }
  const r = await proc;
  return { started: url !== undefined, exitCode: r.exitCode, stderr: String(r.stderr) };
}

/** A folder others may write (group-writable, or 1777), a data file of root's in it, and a folder outside. */
async function scene(mode: number) {
  const root = await tempDir('clinadmin-shared-');
  const outside = join(root, 'outside');
  await mkdir(join(outside, 'root-folder'), { recursive: true });
  // No newline at its end: read as a journal, its one line looks torn, the kind a start cuts off.
  await writeFile(join(outside, 'root-file'), 'root keeps this', { mode: 0o600 });
  const shared = join(root, 'shared');
  await mkdir(shared);
  await execa('chmod', [mode.toString(8), shared]);
  await execa('chgrp', [String(mallory.gid), shared]);
  const data = join(shared, 'data.json');
  // A data file of the current format, so the start says nothing of converting it.
  await writeFile(data, '{"formatVersion":2}\n', { mode: 0o600 });
  const { dev, ino } = await stat(data);
  return { root, outside, shared, data, inodeLock: join(shared, `.clinadmin-${dev}-${ino}.lock`) };
}

const FOLDERS: [string, number][] = [
  ['a group-writable folder without the sticky bit', 0o2775],
  ['a 1777 folder, as /tmp', 0o1777],
];
const PLANTS: Plant[] = ['root-file link', 'dangling link', 'FIFO', "mallory's own"];
/**
 * The names serve keeps beside data.json; the folder is the snapshots'. journal.next, a name serve only ever
 * makes afresh, is one too: serve removes only a file of its own user there (issue 59), so another's is refused.
 */
const SIDE = ['journal', 'journal.cut', 'journal.old', 'journal.next', 'lock', 'snapshots', 'inode lock'];

/** What one start did, beside a planted name: a row of the table each test compares whole. */
async function attempt(
  mode: number,
  how: Plant,
  place: (s: Awaited<ReturnType<typeof scene>>) => string,
  folder = false,
) {
  const s = await scene(mode);
  const path = place(s);
  await plant(path, how, s.outside, folder);
  const before = await outsideState(s.outside);
  const runtime = path.endsWith(`clinadmin-${process.getuid?.()}`);
  const r = await start(s.data, runtime ? { TMPDIR: s.shared, XDG_RUNTIME_DIR: undefined } : {});
  const lines = r.stderr.trim().split('\n');
  return {
    how,
    outsideUnchanged: JSON.stringify(await outsideState(s.outside)) === JSON.stringify(before),
    started: r.started,
    exitCode: r.exitCode,
    /** The one line that names the file, when serve refused it; a warning naming it, when it went on. */
    said: r.started
      ? lines.some((l) => l.startsWith(`warning: not using ${path} for locks: `))
      : lines.length === 1 && lines[0].startsWith(`error: cannot use ${path}: `),
    planted: await lstat(path).then(
      () => 'there',
      () => 'gone',
    ),
  };
}

describe.each(FOLDERS)('serve in %s', (_, mode) => {
  it.each(SIDE)('refuses a planted %s in one line naming it, and changes nothing outside', async (side) => {
    const rows = [];
    for (const how of PLANTS) {
      const place = (s: Awaited<ReturnType<typeof scene>>) =>
        side === 'inode lock' ? s.inodeLock : `${s.data}.${side}`;
      rows.push(await attempt(mode, how, place, side === 'snapshots'));
    }
    const refused = { outsideUnchanged: true, started: false, exitCode: 2, said: true, planted: 'there' };
    expect(rows).toEqual(PLANTS.map((how) => ({ how, ...refused })));
  });

  it('passes over a planted runtime folder of locks, warning by name, and changes nothing outside', async () => {
    // Without XDG_RUNTIME_DIR, the locks by inode meet in <temp folder>/clinadmin-<uid>.
    const rows = [];
    for (const how of PLANTS)
      rows.push(await attempt(mode, how, (s) => join(s.shared, `clinadmin-${process.getuid?.()}`), true));
    const passedOver = { outsideUnchanged: true, started: true, exitCode: 0, said: true, planted: 'there' };
    expect(rows).toEqual(PLANTS.map((how) => ({ how, ...passedOver })));
  });
});
