// Covers: src/server/http/openapi.ts src/server/http/openapi-sandbox.ts src/server/http/openapi-request-log.ts
// Covers: src/commands/openapi.ts src/server/http/faults.ts src/server/http/app.ts src/output/text-out.ts
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { validate } from '@readme/openapi-parser';
import type { ResultPromise } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { clinadmin, serveProcess } from '../helpers/bin.js';
import { tempDir } from '../helpers/tmp.js';

// `clinadmin serve` as a CI test double: its contract, its health check and its injected faults,
// all through the real binary as a pipeline starts it.

const TOKEN = 'ci-token-0123456789';
const procs: ResultPromise[] = [];
afterEach(async () => {
  for (const p of procs.splice(0)) {
    p.kill('SIGKILL');
    await p.catch(() => undefined);
  }
});

async function serve(args: string[], dir?: string) {
  const d = dir ?? (await tempDir());
  const s = await serveProcess(['--data', join(d, 'data.json'), '--token', TOKEN, ...args]);
  procs.push(s.proc);
  const call = async (method: string, path: string, body?: unknown, token: string | null = TOKEN) => {
    const res = await fetch(s.url + path, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text === '' ? undefined : JSON.parse(text) };
  };
  const env = { CLINADMIN_BASE_URL: s.url, CLINADMIN_TOKEN: TOKEN, CLINADMIN_CONFIG_DIR: join(d, 'config') };
  return { ...s, dir: d, call, env };
}

const ROOT = new URL('../../', import.meta.url);

describe('the contract: GET /openapi.json and clinadmin openapi', () => {
  it('serves the committed openapi.json without a token, the same as `clinadmin openapi` prints', async () => {
    const committed = await readFile(new URL('openapi.json', ROOT), 'utf8');
    const printed = await clinadmin(['openapi']);
    expect(printed.exitCode).toBe(0);
    expect(printed.stdout.trim()).toBe(committed.trim());
    const s = await serve([]);
    const served = await s.call('GET', '/openapi.json', undefined, null);
    expect(served.status).toBe(200);
    expect(served.body).toEqual(JSON.parse(committed));
    // Only the contract and the health check are public.
    expect((await s.call('GET', '/diagnostic-measures', undefined, null)).status).toBe(401);
  });

  it('passes an OpenAPI 3.1 validator and holds all twelve operations, each error as problem+json', async () => {
    const doc = JSON.parse(await readFile(new URL('openapi.json', ROOT), 'utf8'));
    expect(doc.openapi).toBe('3.1.0');
    const result = await validate(structuredClone(doc));
    expect(result).toMatchObject({ valid: true, warnings: [], specification: 'OpenAPI' });
    const ops: string[] = [];
    for (const [path, item] of Object.entries<Record<string, { operationId?: string; responses?: object }>>(doc.paths))
      for (const [method, op] of Object.entries(item))
        if (
          op.operationId &&
          !['/healthz', '/openapi.json', '/contracts'].includes(path) &&
          !path.startsWith('/_admin/')
        )
          ops.push(`${method.toUpperCase()} ${path}`);
    expect(ops.sort()).toEqual(
      [
        'GET /diagnostic-measures',
        'POST /diagnostic-measures',
        'GET /diagnostic-measures/{id}',
        'PATCH /diagnostic-measures/{id}',
        'DELETE /diagnostic-measures/{id}',
        'GET /insurance-coverages',
        'POST /insurance-coverages',
        'GET /insurance-coverages/{id}',
        'PATCH /insurance-coverages/{id}',
        'DELETE /insurance-coverages/{id}',
        'GET /notifications',
        'GET /notifications/{id}',
      ].sort(),
    );
    // serve's sandbox endpoints, under a tag of their own.
    const sandbox = Object.entries<Record<string, { tags?: string[] }>>(doc.paths)
      .filter(([path]) => path.startsWith('/_admin/'))
      .flatMap(([path, item]) =>
        Object.entries(item).map(([method, op]) => [`${method.toUpperCase()} ${path}`, op.tags]),
      );
    expect(Object.fromEntries(sandbox)).toEqual({
      'POST /_admin/snapshots/{name}': ['sandbox'],
      'GET /_admin/snapshots': ['sandbox'],
      'POST /_admin/reset': ['sandbox'],
      'GET /_admin/requests': ['sandbox'],
      'DELETE /_admin/requests': ['sandbox'],
      'POST /_admin/load': ['sandbox'],
      'POST /_admin/contracts': ['sandbox'],
      'GET /_admin/journal': ['sandbox'],
      'GET /_admin/faults': ['sandbox'],
      'PUT /_admin/faults': ['sandbox'],
      'DELETE /_admin/faults': ['sandbox'],
      'POST /_admin/marks/{name}': ['sandbox'],
    });
    const create = doc.paths['/insurance-coverages'].post;
    expect(create.responses['422'].content['application/problem+json'].schema).toEqual({
      $ref: '#/components/schemas/Problem',
    });
    expect(create.responses['429'].headers['Retry-After']).toBeDefined();
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    // The request schemas are the zod schemas' own: a required field, an enum, a service-set field refused.
    const cov = doc.components.schemas.CoverageCreate;
    expect(cov.required).toEqual(expect.arrayContaining(['type', 'name', 'contract']));
    expect(cov.properties.paymentMethod.enum).toEqual(['prepaid', 'postpaid']);
    expect(cov.properties.insurer).toEqual({ not: {} });
    expect(cov.additionalProperties).toBe(false);
  });
});

describe('GET /healthz', () => {
  it('answers 200 {"status":"ok"} without a token once the server listens', async () => {
    const s = await serve(['--seed']);
    const r = await s.call('GET', '/healthz', undefined, null);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ status: 'ok' });
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
  });
});

describe('injected faults', () => {
  it('--fail-on answers the matching requests with its status, changing nothing; others go through', async () => {
    const s = await serve([
      '--seed',
      '--fail-on',
      'POST:/insurance-coverages:500',
      '--fail-on',
      'delete:/diagnostic-*/*:503',
    ]);
    await expect.poll(s.stderr).toContain('injecting faults: --fail-on POST:/insurance-coverages:500');
    const before = (await s.call('GET', '/insurance-coverages')).body.length;
    const post = await s.call('POST', '/insurance-coverages', {
      contract: 'ctr_acme_2026',
      name: 'X',
      type: 'unknown',
    });
    expect(post.status).toBe(500);
    expect(post.headers.get('content-type')).toBe('application/problem+json');
    expect(post.body.detail).toMatch(/injected by --fail-on POST:\/insurance-coverages:500; nothing was changed/);
    expect((await s.call('GET', '/insurance-coverages')).body).toHaveLength(before);
    const del = await s.call('DELETE', '/diagnostic-measures/msr_k');
    expect(del.status).toBe(503);
    expect(del.headers.get('retry-after')).toBe('1');
    expect((await s.call('GET', '/diagnostic-measures/msr_k')).status).toBe(200);
    expect((await s.call('PATCH', '/diagnostic-measures/msr_k', { description: 'ok' })).status).toBe(200);
  });

  it('--fail-rate 1 answers every API request 503 with Retry-After; /healthz and /openapi.json stay up', async () => {
    const s = await serve(['--fail-rate', '1']);
    const r = await s.call('POST', '/diagnostic-measures', { test: 't', name: 'n' });
    expect(r.status).toBe(503);
    expect(r.headers.get('retry-after')).toBe('1');
    expect(r.body.detail).toMatch(/--fail-rate; nothing was changed/);
    expect((await s.call('GET', '/healthz', undefined, null)).status).toBe(200);
    expect((await s.call('GET', '/openapi.json', undefined, null)).status).toBe(200);
    // Authentication still comes first: a stranger learns nothing, not even that the server is failing.
    expect((await s.call('GET', '/diagnostic-measures', undefined, 'wrong')).status).toBe(401);
  });

  it('--rate-limit answers 429 with Retry-After past N requests in a second', async () => {
    const s = await serve(['--rate-limit', '3']);
    const answers = await Promise.all(Array.from({ length: 20 }, () => s.call('GET', '/diagnostic-measures')));
    const limited = answers.filter((a) => a.status === 429);
    // Twenty at once span one or two one-second windows: at most 3 in each go through.
    expect(answers.filter((a) => a.status === 200).length).toBeLessThanOrEqual(6);
    expect(limited.length).toBeGreaterThanOrEqual(14);
    expect(limited[0].headers.get('retry-after')).toBe('1');
    expect(limited[0].body.title).toBe('Too many requests');
  });

  it('--latency holds every answer at least that long', async () => {
    const s = await serve(['--latency', '300']);
    const started = performance.now();
    expect((await s.call('GET', '/healthz', undefined, null)).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('never breaks a promise: each write answered 200 is on disk after kill -9, each refused one is not', async () => {
    const dir = await tempDir();
    const s = await serve(['--fail-rate', '0.5', '--latency', '0-5'], dir);
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => s.call('POST', '/diagnostic-measures', { test: 't', name: `m${i}` })),
    );
    const ok = answers.filter((a) => a.status === 200).map((a) => a.body.name);
    expect(answers.every((a) => a.status === 200 || a.status === 503)).toBe(true);
    expect(ok.length).toBeGreaterThan(5);
    expect(ok.length).toBeLessThan(55);
    s.proc.kill('SIGKILL');
    await s.proc.catch(() => undefined);
    const again = await serve([], dir);
    const names = (await again.call('GET', '/diagnostic-measures')).body.map((m: { name: string }) => m.name);
    expect(names.sort()).toEqual([...ok].sort());
  });
});

describe('the CLI against a bad day', () => {
  const flaky = ['--fail-rate', '0.2', '--rate-limit', '200', '--latency', '5-50'];

  it('measures import and coverages apply finish with every record once, exit 0', async () => {
    const s = await serve(['--seed', ...flaky]);
    const measures = Array.from({ length: 300 }, (_, i) => ({ test: `tst_${i % 5}`, name: `M${i}`, type: 'text' }));
    await writeFile(join(s.dir, 'm.json'), JSON.stringify(measures));
    const imported = await clinadmin(['measures', 'import', 'm.json'], { cwd: s.dir, env: s.env });
    expect(imported.stderr).toBe('');
    expect(imported.exitCode).toBe(0);
    expect(JSON.parse(imported.stdout)).toMatchObject({ created: 300, failed: 0 });
    const coverages = Array.from({ length: 100 }, (_, i) => ({
      contract: i % 2 ? 'ctr_acme_2026' : 'ctr_state_2026',
      name: `C${i}`,
      type: 'deduction',
      amount: i,
    }));
    await writeFile(join(s.dir, 'c.json'), JSON.stringify(coverages));
    const applied = await clinadmin(['coverages', 'apply', 'c.json'], { cwd: s.dir, env: s.env });
    expect(applied.exitCode).toBe(0);
    expect(JSON.parse(applied.stdout)).toMatchObject({ created: 100, failed: 0 });
    // Read past the faults with the CLI itself, which retries what the server refused.
    const list = async (group: string) =>
      JSON.parse((await clinadmin([group, 'list', '-o', 'json'], { env: s.env })).stdout) as { name: string }[];
    const names = (await list('measures')).map((m) => m.name).filter((n) => /^M\d+$/.test(n));
    expect(names).toHaveLength(300);
    expect(new Set(names).size).toBe(300);
    const covs = (await list('coverages')).map((c) => c.name).filter((n) => /^C\d+$/.test(n));
    expect(covs).toHaveLength(100);
    expect(new Set(covs).size).toBe(100);
  });

  it('reports each record a scripted failure refused, and exits 1', async () => {
    const s = await serve(['--seed', '--fail-on', 'POST:/insurance-coverages:500']);
    const coverages = [
      { contract: 'ctr_acme_2026', name: 'New A', type: 'deduction' },
      { contract: 'ctr_acme_2026', name: 'CBC copay', type: 'deduction', amount: 99 },
      { contract: 'ctr_acme_2026', name: 'New B', type: 'override' },
    ];
    await writeFile(join(s.dir, 'c.json'), JSON.stringify(coverages));
    const r = await clinadmin(['coverages', 'apply', 'c.json', '-o', 'table'], { cwd: s.dir, env: s.env });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/failed: c\.json record 1 \(New A\): .*injected by --fail-on/);
    expect(r.stderr).toMatch(/failed: c\.json record 3 \(New B\): .*injected by --fail-on/);
    expect(r.stdout).toMatch(/^0 created, 1 updated, 0 unchanged, 2 failed in /);
  });

  it('measures import too: each refused record listed, the rest sent, exit 1', async () => {
    const s = await serve(['--seed', '--fail-on', 'POST:/diagnostic-measures:500']);
    const measures = [
      { test: 'tst_bmp', name: 'Potassium', type: 'numeric', unit: 'mEq/L', description: 'serum' },
      { test: 'tst_bmp', name: 'Sodium', type: 'numeric', unit: 'mmol/L' },
    ];
    await writeFile(join(s.dir, 'm.json'), JSON.stringify(measures));
    const r = await clinadmin(['measures', 'import', 'm.json', '--report', 'report.json'], {
      cwd: s.dir,
      env: s.env,
    });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/failed: m\.json record 2 \(Sodium\): .*\(500\): injected by --fail-on/);
    const report = JSON.parse(await readFile(join(s.dir, 'report.json'), 'utf8'));
    expect(report).toMatchObject({ created: 0, updated: 1, failed: 1 });
    expect(report.records[1]).toMatchObject({ name: 'Sodium', outcome: 'failed' });
  });
});
