import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const entry = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

/** Every file the entry loads before any command runs: its static imports, followed transitively. */
async function eagerCode(): Promise<{ files: string[]; text: string }> {
  const seen = new Set<string>();
  let text = '';
  const walk = async (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const code = await readFile(file, 'utf8');
    text += code;
    for (const m of code.matchAll(/(?:^|[;}\s])import\s*(?:[^'"()]*?from\s*)?["']([^"']+)["']/g)) {
      if (m[1].startsWith('.')) await walk(resolve(dirname(file), m[1]));
    }
  };
  await walk(entry);
  return { files: [...seen], text };
}

describe('start-up', () => {
  it('loads neither undici, zod, conf, @inquirer/prompts, cli-table3 nor jmespath for --version and --help', async () => {
    const { text, files } = await eagerCode();
    expect(files.length).toBeGreaterThan(0);
    // Markers each package's own code carries, present in the bundle only where the package is.
    const markers = { undici: 'UND_ERR_', zod: '$ZodType', conf: 'clearInvalidConfig', inquirer: 'ExitPromptError', 'cli-table3': 'wordWrap', jmespath: 'Unknown character:' };
    for (const [pkg, marker] of Object.entries(markers)) expect(text.includes(marker), `${pkg} is loaded at start-up`).toBe(false);
  });

  it('has the markers it looks for somewhere in the build, so the check above can fail', async () => {
    const { readdir } = await import('node:fs/promises');
    const dir = resolve(dirname(entry), 'chunks');
    const chunks = await Promise.all((await readdir(dir)).map((f) => readFile(resolve(dir, f), 'utf8')));
    const bundle = chunks.join('');
    for (const marker of ['UND_ERR_', '$ZodType', 'clearInvalidConfig', 'ExitPromptError', 'Unknown character:', 'wordWrap']) expect(bundle.includes(marker), marker).toBe(true);
  });
});
