// The licences of the npm packages a bundle holds, read from each package's own folder: the npm package
// ships them as dist/THIRD-PARTY-LICENSES.txt (build.mjs), the Debian package in its copyright file (deb.mjs).

import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Each package under node_modules that an esbuild metafile's inputs come from, sorted by name: its name,
 * version, licence as package.json gives it, author when it names one, and the text of its licence file.
 */
export async function bundledNotices(metafile, root = process.cwd()) {
  const packages = new Map();
  for (const input of Object.keys(metafile.inputs)) {
    const m = /node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/.exec(input);
    if (m) packages.set(m[1].replace(/\\/g, '/'), join(root, 'node_modules', m[1]));
  }
  const notices = [];
  for (const [name, dir] of [...packages].sort(([a], [b]) => a.localeCompare(b))) {
    const { version, license, author } = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8'));
    const file = (await readdir(dir)).find((f) => /^licen[cs]e/i.test(f));
    if (!file) throw new Error(`${name} ships no licence file: say in scripts/notices.mjs how its licence is met`);
    const text = (await readFile(join(dir, file), 'utf8')).trim();
    const by = typeof author === 'string' ? author : author?.name;
    notices.push({ name, version, license, author: by, text });
  }
  return notices;
}

/** The notices as one text file, a package after another. */
export const noticesText = (notices) =>
  notices.map((n) => `${n.name} ${n.version} (${n.license})\n\n${n.text}\n`).join(`\n${'-'.repeat(72)}\n\n`);
