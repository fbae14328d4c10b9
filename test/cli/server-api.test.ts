// Covers: src/server/http/app.ts src/server/http/problem.ts src/server/http/read-body.ts src/server/service/service.ts
// Covers: src/schemas/notifications.ts
import { readFile, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/server/http/app.js';
import type { Service } from '../../src/server/service/service.js';
import { ACCOUNT, TOKEN, testServer } from '../helpers/server.js';
import { tempDir } from '../helpers/tmp.js';

const contract = { id: 'ctr_1', insured: 'org_lab', insurer: 'org_ins', insurerType: 'private', insurerSubtype: 'hmo' };

async function withContract() {
  const dir = await tempDir();
  const dataFile = join(dir, 'data.json');
  await writeFile(dataFile, JSON.stringify({ contracts: [contract] }));
  return testServer({ dataFile });
}

const potassium = {
  test: 'tst_bmp',
  name: 'Potassium',
  type: 'numeric',
  unit: 'mEq/L',
  referenceRanges: [
    { min: 3.5, max: 5.1, sex: 'male', ageMin: 18, ageMax: 65 },
    { min: 3.4, max: 5 },
  ],
  panicRanges: [{ max: 2.5 }],
};

describe('diagnostic measures over HTTP', () => {
  it('creates, reads, lists, patches and deletes a measure', async () => {
    const s = await testServer();
    const before = Date.now();
    const created = await s.call('POST', '/diagnostic-measures', potassium);
    expect(created.status).toBe(200);
    expect(created.headers.get('content-type')).toMatch(/^application\/json/);
    const m = created.body;
    expect(m.id).toMatch(/^msr_/);
    expect(m.createdBy).toBe(ACCOUNT);
    expect(m.createdAt).toBeGreaterThanOrEqual(before);
    expect(m.createdAt).toBeLessThanOrEqual(Date.now());
    expect(m.referenceRanges[0]).toMatchObject({ min: 3.5, max: 5.1, sex: 'male' });
    expect(m.referenceRanges[0].id).toMatch(/^rr_/);
    expect(m.referenceRanges[1].sex).toBe('all');
    expect(m.referenceRanges[0].id).not.toBe(m.referenceRanges[1].id);
    expect(m.panicRanges).toEqual([{ max: 2.5, sex: 'all' }]);

    expect((await s.call('GET', `/diagnostic-measures/${m.id}`)).body).toEqual(m);
    const list = await s.call('GET', '/diagnostic-measures');
    expect(list.body).toEqual([m]);

    const patched = await s.call('PATCH', `/diagnostic-measures/${m.id}`, { unit: 'mmol/L', createdAt: 1700000000000 });
    expect(patched.status).toBe(200);
    expect(patched.body).toEqual({ ...m, unit: 'mmol/L', createdAt: 1700000000000 });

    const deleted = await s.call('DELETE', `/diagnostic-measures/${m.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual(patched.body);
    expect((await s.call('GET', `/diagnostic-measures/${m.id}`)).status).toBe(404);
    expect((await s.call('GET', '/diagnostic-measures')).body).toEqual([]);
  });

  it('writes nothing for a PATCH that changes nothing: no journal line, no notification', async () => {
    const s = await testServer();
    const m = (await s.call('POST', '/diagnostic-measures', { test: 't', name: 'n', unit: 'mg/dL' })).body;
    const journal = `${s.dataFile}.journal`;
    const before = (await stat(journal)).size;
    const notifications = (await s.call('GET', '/notifications')).body.length;
    for (const body of [{}, { unit: 'mg/dL' }, { name: 'n', unit: 'mg/dL' }]) {
      const r = await s.call('PATCH', `/diagnostic-measures/${m.id}`, body);
      expect(r.status).toBe(200);
      expect(r.body).toEqual(m);
    }
    expect((await stat(journal)).size).toBe(before);
    expect((await s.call('GET', '/notifications')).body).toHaveLength(notifications);
    // A real change still writes.
    await s.call('PATCH', `/diagnostic-measures/${m.id}`, { unit: 'mmol/L' });
    expect((await stat(journal)).size).toBeGreaterThan(before);
  });

  it('keeps a supplied createdAt and reference range ids', async () => {
    const s = await testServer();
    const r = await s.call('POST', '/diagnostic-measures', {
      test: 't',
      name: 'n',
      createdAt: 1600000000000,
      referenceRanges: [{ id: 'mine', min: 1 }],
    });
    expect(r.body.createdAt).toBe(1600000000000);
    expect(r.body.referenceRanges[0].id).toBe('mine');
    // An id names one range: a second range with it is refused, on POST and on PATCH, by its path.
    const twice = [
      { id: 'mine', min: 1, sex: 'male' },
      { id: 'mine', min: 2, sex: 'female' },
    ];
    const posted = await s.call('POST', '/diagnostic-measures', { test: 't', name: 'm', referenceRanges: twice });
    expect(posted.status).toBe(400);
    expect(JSON.stringify(posted.body)).toContain("referenceRanges[1].id: is referenceRanges[0]'s id too");
    const patched = await s.call('PATCH', `/diagnostic-measures/${r.body.id}`, { referenceRanges: twice });
    expect(patched.status).toBe(400);
    expect((await s.call('GET', `/diagnostic-measures/${r.body.id}`)).body.referenceRanges).toHaveLength(1);
  });

  it('refuses create-only, service-set and unknown fields on PATCH by name', async () => {
    const s = await testServer();
    const { body: m } = await s.call('POST', '/diagnostic-measures', potassium);
    const r = await s.call('PATCH', `/diagnostic-measures/${m.id}`, { test: 'other', id: 'x', colour: 'red' });
    expect(r.status).toBe(400);
    expect(r.headers.get('content-type')).toBe('application/problem+json');
    expect(r.body.errors).toEqual(
      expect.arrayContaining([
        { path: 'test', message: 'test is create-only; it cannot be changed by update' },
        { path: 'id', message: 'id is set by the service and cannot be sent' },
        { path: 'colour', message: 'unknown field colour' },
      ]),
    );
    expect((await s.call('GET', `/diagnostic-measures/${m.id}`)).body).toEqual(m);
  });

  it('checks rules across fields on the merged record when patching', async () => {
    const s = await testServer();
    const { body: m } = await s.call('POST', '/diagnostic-measures', { test: 't', name: 'n', numericBreakdownMin: 1 });
    const choices = await s.call('PATCH', `/diagnostic-measures/${m.id}`, { type: 'checklist' });
    expect(choices.status).toBe(400);
    expect(choices.body.errors).toEqual([
      { path: 'choices', message: 'a checklist measure needs at least one choice' },
    ]);
    const breakdown = await s.call('PATCH', `/diagnostic-measures/${m.id}`, { numericBreakdownMax: 0 });
    expect(breakdown.body.errors[0].path).toBe('numericBreakdownMax');
  });

  it('names the field path of an invalid range', async () => {
    const s = await testServer();
    const r = await s.call('POST', '/diagnostic-measures', {
      ...potassium,
      referenceRanges: [
        { min: 1, max: 2 },
        { min: 3, max: 2 },
      ],
    });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({
      type: 'urn:clinadmin:problem:invalid-body',
      title: 'Invalid request body',
      status: 400,
    });
    expect(r.body.detail).toContain('referenceRanges[1].max');
    expect(r.body.errors).toEqual([
      { path: 'referenceRanges[1].max', message: 'min (3) must not be greater than max (2)' },
    ]);
  });

  it('never loses an update among concurrent patches', async () => {
    const s = await testServer();
    const { body: m } = await s.call('POST', '/diagnostic-measures', { test: 't', name: 'n' });
    // Each concurrent PATCH sets a field of its own: a lost update would lose that field.
    const fields = { description: 'd', unit: 'mg/dL', siunit: 'mmol/L', set: 'Panel', hl7IdentifierCod: '2345-7' };
    const patches = await Promise.all(
      Object.entries(fields).map(([field, value]) =>
        s.call('PATCH', `/diagnostic-measures/${m.id}`, { [field]: value }),
      ),
    );
    for (const p of patches) expect(p.status).toBe(200);
    expect((await s.call('GET', `/diagnostic-measures/${m.id}`)).body).toMatchObject(fields);
    const created = await Promise.all(
      Array.from({ length: 40 }, (_, i) => s.call('POST', '/diagnostic-measures', { test: 't', name: `c${i}` })),
    );
    expect(new Set(created.map((r) => r.body.id)).size).toBe(40);
    expect((await s.call('GET', '/diagnostic-measures')).body).toHaveLength(41);
    await s.close();
    const saved = JSON.parse(await readFile(s.dataFile, 'utf8')).diagnosticMeasures;
    expect(saved).toHaveLength(41);
    expect(saved.find((r: { id: string }) => r.id === m.id)).toMatchObject(fields);
  });
});

describe('natural keys over HTTP', () => {
  it('refuses a second measure with the same (test, name) with 409 naming the first, on POST and PATCH', async () => {
    const s = await testServer();
    const first = await s.call('POST', '/diagnostic-measures', { test: 'tst_dup', name: 'Dup' });
    const again = await s.call('POST', '/diagnostic-measures', { test: 'tst_dup', name: 'Dup', unit: 'g/L' });
    expect(again.status).toBe(409);
    expect(again.headers.get('content-type')).toBe('application/problem+json');
    expect(again.body).toMatchObject({
      type: 'urn:clinadmin:problem:conflict',
      status: 409,
      detail: `a measure with test tst_dup and name Dup already exists as ${first.body.id}`,
      errors: [{ path: 'name', message: `already used by ${first.body.id} (test tst_dup and name Dup)` }],
    });
    // The same name in another test is another measure; renaming onto a taken key is refused too.
    const other = await s.call('POST', '/diagnostic-measures', { test: 'tst_other', name: 'Dup' });
    expect(other.status).toBe(200);
    const second = await s.call('POST', '/diagnostic-measures', { test: 'tst_dup', name: 'Second' });
    const rename = await s.call('PATCH', `/diagnostic-measures/${second.body.id}`, { name: 'Dup' });
    expect(rename.status).toBe(409);
    expect((await s.call('PATCH', `/diagnostic-measures/${second.body.id}`, { name: 'Renamed' })).status).toBe(200);
    // The old name is free again, and so is a deleted record's key.
    expect((await s.call('POST', '/diagnostic-measures', { test: 'tst_dup', name: 'Second' })).status).toBe(200);
    await s.call('DELETE', `/diagnostic-measures/${first.body.id}`);
    expect((await s.call('POST', '/diagnostic-measures', { test: 'tst_dup', name: 'Dup' })).status).toBe(200);
    await s.close();
  });

  it('lets exactly one of many simultaneous creates of one key through', async () => {
    const s = await testServer();
    const all = await Promise.all(
      Array.from({ length: 20 }, () => s.call('POST', '/diagnostic-measures', { test: 't', name: 'Race' })),
    );
    expect(all.filter((r) => r.status === 200)).toHaveLength(1);
    expect(all.filter((r) => r.status === 409)).toHaveLength(19);
    expect((await s.call('GET', '/diagnostic-measures')).body).toHaveLength(1);
    await s.close();
  });

  it('refuses a second coverage with the same (contract, name)', async () => {
    const s = await withContract();
    await s.call('POST', '/insurance-coverages', { contract: 'ctr_1', name: 'Copay', type: 'deduction' });
    const again = await s.call('POST', '/insurance-coverages', { contract: 'ctr_1', name: 'Copay', type: 'override' });
    expect(again.status).toBe(409);
    expect(again.body.detail).toMatch(/^a coverage with contract ctr_1 and name Copay already exists as cov_/);
    await s.close();
  });
});

describe('insurance coverages over HTTP', () => {
  it('creates a coverage with the parties of its contract, patches and deletes it', async () => {
    const s = await withContract();
    const c = await s.call('POST', '/insurance-coverages', {
      contract: 'ctr_1',
      name: 'CBC copay',
      type: 'deduction',
      paymentMethod: 'prepaid',
      amount: 15,
      ref: 'svc_cbc',
      refType: 'services',
    });
    expect(c.status).toBe(200);
    expect(c.body).toMatchObject({
      contract: 'ctr_1',
      insured: 'org_lab',
      insurer: 'org_ins',
      insurerType: 'private',
      insurerSubtype: 'hmo',
      createdBy: ACCOUNT,
    });
    expect(c.body.id).toMatch(/^cov_/);
    const p = await s.call('PATCH', `/insurance-coverages/${c.body.id}`, { name: 'CBC copay 2026', percentage: 20 });
    expect(p.body).toEqual({ ...c.body, name: 'CBC copay 2026', percentage: 20 });
    expect((await s.call('GET', '/insurance-coverages')).body).toEqual([p.body]);
    expect((await s.call('GET', `/insurance-coverages/${c.body.id}`)).body).toEqual(p.body);
    expect((await s.call('DELETE', `/insurance-coverages/${c.body.id}`)).body).toEqual(p.body);
    expect((await s.call('GET', '/insurance-coverages')).body).toEqual([]);
  });

  it('refuses an unknown contract with 422 and says how to add it', async () => {
    const s = await testServer();
    const r = await s.call('POST', '/insurance-coverages', { contract: 'ctr_nope', name: 'n', type: 'override' });
    expect(r.status).toBe(422);
    expect(r.body.detail).toMatch(/contract ctr_nope is not on file; add it with clinadmin sandbox contracts add /);
    expect(r.body.detail).toMatch(/, or to the "contracts" collection of the server's data file/);
    expect((await s.call('GET', '/insurance-coverages')).body).toEqual([]);
  });

  it('lists its contracts read-only at /contracts (a serve extension), behind the token', async () => {
    const s = await withContract();
    const r = await s.call('GET', '/contracts');
    expect(r.status).toBe(200);
    expect(r.body).toEqual([contract]);
    expect((await s.call('POST', '/contracts', contract)).status).toBe(405);
    expect((await s.call('GET', '/contracts', undefined, { authorization: 'Bearer nope' })).status).toBe(401);
    await s.close();
  });

  it('refuses contract on PATCH and insured on input', async () => {
    const s = await withContract();
    const { body } = await s.call('POST', '/insurance-coverages', { contract: 'ctr_1', name: 'n', type: 'unknown' });
    const r = await s.call('PATCH', `/insurance-coverages/${body.id}`, { contract: 'ctr_2', insured: 'x' });
    expect(r.status).toBe(400);
    expect(r.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['contract', 'insured']);
  });
});

describe('notifications over HTTP', () => {
  it('records one for each create, update and delete', async () => {
    const s = await testServer();
    const { body: m } = await s.call('POST', '/diagnostic-measures', potassium);
    await s.call('PATCH', `/diagnostic-measures/${m.id}`, { unit: 'mmol/L' });
    await s.call('DELETE', `/diagnostic-measures/${m.id}`);
    const list = (await s.call('GET', '/notifications')).body;
    expect(list.map((n: { code: string }) => n.code)).toEqual([
      'measure-created',
      'measure-updated',
      'measure-deleted',
    ]);
    expect(list[0]).toMatchObject({
      type: 'diagnostic-measure',
      title: 'Measure created: Potassium',
      meta: { resource: 'diagnostic-measures', id: m.id, action: 'created' },
      seenBy: [],
    });
    expect(list[0].body).toContain(ACCOUNT);
  });

  it('records none when events are off', async () => {
    const s = await testServer({ events: false });
    await s.call('POST', '/diagnostic-measures', potassium);
    expect((await s.call('GET', '/notifications')).body).toEqual([]);
  });

  it('marks a notification seen by the reader on GET one, once, and not on list', async () => {
    const s = await testServer({ seed: true });
    const id = 'ntf_queue_1';
    expect((await s.call('GET', '/notifications')).body.find((n: { id: string }) => n.id === id).seenBy).toEqual([]);
    expect((await s.call('GET', `/notifications/${id}`)).body.seenBy).toEqual([ACCOUNT]);
    expect((await s.call('GET', `/notifications/${id}`)).body.seenBy).toEqual([ACCOUNT]);
    expect(
      (await s.call('GET', `/notifications/${id}`, undefined, { authorization: 'Bearer other-token' })).body.seenBy,
    ).toEqual([ACCOUNT, 'acc_other']);
    expect((await s.call('GET', '/notifications')).body.find((n: { id: string }) => n.id === id).seenBy).toEqual([
      ACCOUNT,
      'acc_other',
    ]);
  });

  it('is read-only: writes get 405 with Allow', async () => {
    const s = await testServer({ seed: true });
    const post = await s.call('POST', '/notifications', { code: 'x' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    expect((await s.call('DELETE', '/notifications/ntf_queue_1')).status).toBe(405);
  });
});

describe('errors', () => {
  it('answers 401 with WWW-Authenticate on every path without a valid token, leaking nothing', async () => {
    const s = await testServer({ seed: true });
    for (const [method, path] of [
      ['GET', '/diagnostic-measures'],
      ['GET', '/diagnostic-measures/msr_hgb'],
      ['DELETE', '/insurance-coverages/cov_acme_cbc'],
      ['GET', '/no/such/path'],
      ['PUT', '/'],
    ]) {
      for (const auth of [undefined, 'Bearer wrong', `Basic ${TOKEN}`, `Bearer ${TOKEN}x`, 'Bearer']) {
        const r = await s.call(
          method,
          path,
          undefined,
          auth === undefined ? { authorization: '' } : { authorization: auth },
        );
        expect(r.status, `${method} ${path} ${auth}`).toBe(401);
        expect(r.headers.get('www-authenticate')).toMatch(/^Bearer/);
        expect(r.body.title).toBe('Authentication required');
        expect(JSON.stringify(r.body)).not.toMatch(/msr_hgb|Hemoglobin|cov_acme/);
      }
    }
    expect((await s.call('DELETE', '/insurance-coverages/cov_acme_cbc')).status).toBe(200);
  });

  it('answers 404 for an unknown id and an unknown path', async () => {
    const s = await testServer();
    const id = await s.call('GET', '/diagnostic-measures/msr_nope');
    expect(id.status).toBe(404);
    expect(id.body).toMatchObject({
      type: 'urn:clinadmin:problem:not-found',
      status: 404,
      detail: 'no measure with id msr_nope',
    });
    expect((await s.call('PATCH', '/insurance-coverages/cov_nope', { name: 'x' })).status).toBe(404);
    expect((await s.call('DELETE', '/diagnostic-measures/msr_nope')).status).toBe(404);
    expect((await s.call('GET', '/nowhere')).status).toBe(404);
    expect((await s.call('GET', '/diagnostic-measures/a/b')).status).toBe(404);
  });

  it('answers 405 with Allow for a wrong method', async () => {
    const s = await testServer();
    const r = await s.call('PUT', '/diagnostic-measures/x', {});
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('GET, HEAD, PATCH, DELETE');
    expect((await s.call('DELETE', '/diagnostic-measures')).headers.get('allow')).toBe('GET, HEAD, POST');
  });

  it('answers 400 for malformed JSON, naming line and column, and for an empty or non-object body', async () => {
    const s = await testServer();
    const r = await s.call('POST', '/diagnostic-measures', '{\n  "test": "t",\n  "name": }');
    expect(r.status).toBe(400);
    expect(r.body.detail).toMatch(/not valid JSON \(line 3, column 11/);
    expect((await s.call('POST', '/diagnostic-measures', '')).body.detail).toMatch(/empty/);
    expect((await s.call('POST', '/diagnostic-measures', '[1]')).body.errors).toEqual([
      { path: '(body)', message: 'must be a JSON object' },
    ]);
  });

  it('answers 415 for a body that is not JSON', async () => {
    const s = await testServer();
    const r = await s.call('POST', '/diagnostic-measures', 'test=t', {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(r.status).toBe(415);
    expect(r.body.title).toBe('Unsupported media type');
  });

  it('answers 413 for a body over the limit', async () => {
    const s = await testServer({ maxBody: 1000 });
    const r = await s.call('POST', '/diagnostic-measures', { test: 't', name: 'x'.repeat(2000) });
    expect(r.status).toBe(413);
    expect(r.body.detail).toMatch(/limit of 1000 bytes/);
    expect((await s.call('GET', '/diagnostic-measures')).body).toEqual([]);
  });

  it('turns an unexpected fault into a 500 problem without internals, and keeps serving', async () => {
    const logged: string[] = [];
    const service = {
      list: () => {
        throw new Error('boom at /secret/path/store.ts');
      },
    } as unknown as Service;
    const server = createServer(
      createApp({ service, tokens: [{ token: 't', account: 'a' }], log: (l) => logged.push(l) }),
    );
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      for (let i = 0; i < 2; i++) {
        const res = await fetch(`${url}/diagnostic-measures`, { headers: { authorization: 'Bearer t' } });
        expect(res.status).toBe(500);
        const text = await res.text();
        expect(JSON.parse(text).title).toBe('Internal server error');
        expect(text).not.toMatch(/secret|boom|store\.ts/);
      }
      expect(logged.join('\n')).toMatch(/boom/);
    } finally {
      server.close();
    }
  });
});
