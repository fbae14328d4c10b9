// Covers: docs/contributing.md
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = fileURLToPath(new URL('../../src', import.meta.url));

/**
 * Every import of the files under `root` (static, dynamic and type-only), as file → files, paths relative
 * to src/ (a file under test/ reads as `../test/…`).
 */
function importGraph(root = src): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));
  for (const file of files) {
    const text = readFileSync(join(root, file), 'utf8');
    const targets = [...text.matchAll(/(?:from\s+|import\(\s*|import\s+)'(\.[^']+)'/g)].map((m) =>
      relative(src, resolve(dirname(join(root, file)), m[1])).replace(/\.js$/, '.ts'),
    );
    graph.set(relative(src, join(root, file)), [...new Set(targets)]);
  }
  return graph;
}

/**
 * The room a file lives in: its sub-room where one is named (server/ holds three: HTTP over the service over
 * storage; formats/json sits below the schemas; core/sync, the import pipeline, above formats/), else its
 * folder under src/, or its own name for top-level files.
 */
const SUB_ROOMS = ['server/http', 'server/service', 'server/store', 'formats/json', 'core/sync'];
const room = (file: string) =>
  SUB_ROOMS.find((sub) => file.startsWith(`${sub}/`)) ??
  (file.includes('/') ? file.split('/')[0] : file.replace(/\.ts$/, ''));

/** Which rooms each room may import: downward only (docs/contributing.md, "The layers"). */
const ALLOWED: Record<string, string[]> = {
  errors: [],
  version: [],
  types: [],
  context: ['deadline'],
  deadline: [],
  strings: [],
  // The program's global options, read by bin/ before the CLI loads: a bundle entry of its own.
  globals: ['output'],
  'formats/json': [],
  schemas: ['formats/json', 'errors'],
  resources: ['schemas', 'errors'],
  api: ['formats/json', 'errors', 'deadline', 'strings'],
  // A lock file is opened as every kept file is, through files/own-file.ts.
  lock: ['files'],
  files: [],
  config: ['errors', 'context', 'lock'],
  // The clinical and catalog rules: ages, ranges, units, numbers, lint.
  core: ['resources', 'schemas', 'formats/json', 'errors', 'strings'],
  // Each format reads and writes records under core's rules.
  formats: ['core', 'resources', 'schemas', 'formats/json', 'errors', 'context', 'strings'],
  // The import pipeline: records in, the server's holdings fetched, a plan sent.
  'core/sync': [
    'core',
    'formats',
    'resources',
    'schemas',
    'formats/json',
    'api',
    'files',
    'errors',
    'context',
    'strings',
  ],
  output: [
    'core',
    'formats',
    'core/sync',
    'resources',
    'schemas',
    'formats/json',
    'files',
    'errors',
    'context',
    'deadline',
  ],
  // files/ (whole-file writes) is a leaf: the server's snapshots use it as exports and reports do.
  'server/store': ['resources', 'schemas', 'formats/json', 'lock', 'files', 'errors', 'version', 'strings'],
  // The service translates storage's errors into its own, so HTTP never meets the store.
  'server/service': ['server/store', 'resources', 'schemas', 'formats/json', 'errors', 'strings'],
  'server/http': ['server/service', 'resources', 'schemas', 'formats/json', 'errors', 'version', 'strings'],
  // serve's start: the one place that wires HTTP, the service and the store together.
  server: ['server/http', 'server/service', 'server/store', 'schemas', 'files', 'errors', 'strings'],
  commands: [
    'core',
    'core/sync',
    'formats',
    'formats/json',
    'output',
    'resources',
    'schemas',
    'files',
    'api',
    'config',
    'server',
    'server/http',
    'server/service',
    'server/store',
    'errors',
    'context',
    'version',
    'deadline',
    'strings',
  ],
  cli: ['commands', 'globals', 'output', 'errors', 'context', 'version'],
  // clinadmin/testing runs the built cli.cjs by its path (in the test's process, and in serve's child), so it
  // imports no room: its shipped types hold its own folder alone.
  testing: [],
};

describe('the house: layers and cycles under src/', () => {
  const graph = importGraph();

  it('is the table of layers docs/contributing.md gives', () => {
    const page = readFileSync(fileURLToPath(new URL('../../docs/contributing.md', import.meta.url)), 'utf8');
    const table = page.split('## The layers')[1] ?? '';
    const rows = [...table.matchAll(/^\| `([\w/]+)` \|[^|]+\|([^|]*)\|$/gm)].map(([, name, imports]) => [
      name,
      [...imports.matchAll(/`([\w/]+)`/g)].map((m) => m[1]).sort(),
    ]);
    expect(Object.fromEntries(rows)).toEqual(
      Object.fromEntries(Object.entries(ALLOWED).map(([name, rooms]) => [name, [...rooms].sort()])),
    );
  });

  it('sends data to stdout only through output/ (commander writes its own help)', () => {
    const direct = [...graph.keys()].filter(
      (f) => room(f) !== 'output' && /\bstdout\.write\(/.test(readFileSync(join(src, f), 'utf8')),
    );
    // cli.ts hands commander a writer for --help and usage text, wrapped to the terminal.
    expect(direct).toEqual(['cli.ts']);
    expect(readFileSync(join(src, 'cli.ts'), 'utf8').match(/\bstdout\.write\(/g)).toHaveLength(1);
  });

  it('writes to a terminal only through the one writer in output/ (issue 38)', () => {
    const text = (f: string) => readFileSync(join(src, f), 'utf8');
    // The process's own streams are reached only where the context is made; server/'s defaults are for
    // an app made in-process (serve passes the context's writers); testing/child.ts is a shim as bin/ is, and
    // passes on what run()'s writer has already escaped.
    const streams = [...graph.keys()].filter((f) => /\bprocess\.(stdout|stderr)\b|\bconsole\./.test(text(f)));
    const shims = ['context.ts', 'server/http/app.ts', 'server/store/store.ts', 'testing/child.ts'];
    expect(streams.filter((f) => !shims.includes(f))).toEqual([]);
    // No escape sequence is written anywhere but the writer, which holds the few fixed ones by name.
    const escapes = [...graph.keys()].filter((f) => /\\(u001b|x1b|u009b|x9b|u\{1b\})/i.test(text(f)));
    expect(escapes.sort()).toEqual(['output/terminal.ts', 'output/text.ts']);
    // run() guards the context every command is given, and only the prompter reaches the raw stream.
    expect(text('cli.ts')).toMatch(/const ctx = guardedContext\(defaultContext\(overrides\)/);
    const raw = [...graph.keys()].filter((f) => f !== 'output/terminal.ts' && /\bpromptStream\b/.test(text(f)));
    expect(raw).toEqual(['output/prompts.ts']);
  });

  it("reads and writes the config file only through conf (the team's answer on the house issue)", () => {
    const config = [...graph.keys()].filter((f) => f.startsWith('config/'));
    const text = config.map((f) => readFileSync(join(src, f), 'utf8')).join('\n');
    // Stat for the mode warning is allowed; reading or writing its bytes is conf's job alone.
    expect(text).not.toMatch(/\b(readFileSync|readFile|writeFile|writeFileSync|rename|renameSync|writeAtomic)\(/);
    expect(text).toMatch(/import\('conf'\)/);
  });

  it('knows every room', () => {
    const rooms = new Set([...graph.keys()].map(room));
    expect([...rooms].filter((r) => !(r in ALLOWED))).toEqual([]);
    expect(rooms.size).toBeGreaterThan(8);
  });

  it('imports downward only', () => {
    const upward: string[] = [];
    for (const [file, targets] of graph) {
      for (const t of targets) {
        if (room(t) !== room(file) && !ALLOWED[room(file)].includes(room(t))) upward.push(`${file} → ${t}`);
      }
    }
    expect(upward).toEqual([]);
  });

  it('keeps the tests off the commands: a test reaches a verb through the CLI, and its parts where they live', () => {
    const tests = importGraph(fileURLToPath(new URL('..', import.meta.url)));
    expect(tests.size).toBeGreaterThan(100);
    const intoCommands = [...tests].flatMap(([file, targets]) =>
      targets.filter((t) => t.startsWith('commands/')).map((t) => `${file} → ${t}`),
    );
    expect(intoCommands).toEqual([]);
  });

  it('has no import cycle', () => {
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const walk = (file: string, stack: string[]) => {
      state.set(file, 'open');
      for (const t of graph.get(file) ?? []) {
        if (state.get(t) === 'open') cycles.push([...stack.slice(stack.indexOf(t)), t].join(' → '));
        else if (!state.has(t)) walk(t, [...stack, t]);
      }
      state.set(file, 'done');
    };
    for (const file of graph.keys()) if (!state.has(file)) walk(file, [file]);
    expect(cycles).toEqual([]);
  });
});
