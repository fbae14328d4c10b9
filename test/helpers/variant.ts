import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// A server that answers the way a real service plausibly does where the seed says "not shown":
// lists in a wrapper and in pages (Link: rel="next"), errors that are not problem+json, 403 for an
// accepted token, createdAt in seconds, and fields and values this CLI does not know. Not shipped.

type Rec = Record<string, unknown>;

export interface Variant {
  url: string;
  env: Record<string, string>;
  measures: Rec[];
  coverages: Rec[];
  notifications: Rec[];
  close: () => Promise<void>;
}

const PAGE = 2;
const nowSeconds = () => Math.floor(Date.now() / 1000);

export async function variantServer(): Promise<Variant> {
  const measures: Rec[] = [
    // Seconds, a field this CLI does not know, and a type value a newer server added.
    { id: 'm1', test: 'tst_bmp', name: 'Sodium', unit: 'mmol/L', createdAt: nowSeconds() - 3600, labCode: 'NA' },
    { id: 'm2', test: 'tst_bmp', name: 'Potassium', unit: 'mmol/L', createdAt: nowSeconds() - 7200 },
    { id: 'm3', test: 'tst_ua', name: 'Ratio', type: 'ratio', createdAt: nowSeconds() - 60 },
  ];
  const coverages: Rec[] = [
    // insured and insurer, set by the service from the contract (the seed API's coverage fields).
    {
      id: 'c1',
      contract: 'ctr_1',
      name: 'CBC copay',
      type: 'deduction',
      amount: 15,
      createdAt: nowSeconds(),
      insured: 'org_lab',
      insurer: 'org_insurer',
    },
  ];
  const notifications: Rec[] = [
    { id: 'n1', code: 'old', type: 'system', title: 'Three days old', body: '', createdAt: nowSeconds() - 3 * 86_400 },
    { id: 'n2', code: 'new', type: 'system', title: 'One hour old', body: '', createdAt: nowSeconds() - 3600 },
  ];
  let next = 10;
  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));

  /** A list in pages of two, each wrapped in `wrapper`, linked by rel="next". */
  const page = (res: ServerResponse, url: URL, records: Rec[], wrapper: string) => {
    const from = Number(url.searchParams.get('offset') ?? '0');
    const slice = records.slice(from, from + PAGE);
    const more = from + PAGE < records.length;
    const link: Record<string, string> = more ? { link: `<${url.pathname}?offset=${from + PAGE}>; rel="next"` } : {};
    send(res, 200, { [wrapper]: slice, total: records.length }, link);
  };

  const body = async (req: IncomingMessage): Promise<Rec> => {
    let text = '';
    for await (const chunk of req) text += chunk;
    return JSON.parse(text) as Rec;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (req.headers.authorization !== 'Bearer variant-token') {
      return send(res, 401, { error: { message: 'token expired', code: 'TOKEN_EXPIRED' } });
    }
    const url = new URL(req.url ?? '/', 'http://x');
    const [, collection, id] = url.pathname.split('/');
    const lists: Record<string, [Rec[], string]> = {
      'diagnostic-measures': [measures, 'diagnosticAnalyzers'],
      'insurance-coverages': [coverages, 'items'],
      notifications: [notifications, 'data'],
    };
    const entry = lists[collection];
    if (!entry) return res.writeHead(404, { 'content-type': 'text/plain' }).end('no route');
    const [records, wrapper] = entry;
    const found = records.find((r) => r.id === id);
    if (req.method === 'GET' && id === undefined) return page(res, url, records, wrapper);
    if (req.method === 'GET') return found ? send(res, 200, found) : send(res, 404, { message: `no record ${id}` });
    if (req.method === 'DELETE') {
      return send(res, 403, { error: `forbidden: account acc_variant may not delete ${collection}` });
    }
    const input = await body(req);
    const keyField = collection === 'insurance-coverages' ? 'contract' : 'test';
    const clash = (r: Rec) =>
      r.id !== id && r[keyField] === (input[keyField] ?? found?.[keyField]) && r.name === input.name;
    if (input.name !== undefined && records.some(clash)) {
      return send(res, 400, { message: `name must be unique within the ${keyField}`, code: 'DUPLICATE_NAME' });
    }
    if (req.method === 'POST') {
      const rec = { id: `v${next++}`, ...input, createdAt: nowSeconds(), createdBy: 'acc_variant' };
      records.push(rec);
      return send(res, 201, rec);
    }
    if (req.method === 'PATCH' && found) {
      Object.assign(found, input);
      return send(res, 200, found);
    }
    return res.writeHead(405, { 'content-type': 'text/plain' }).end('method not allowed');
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.writeHead(500, { 'content-type': 'text/plain' }).end('variant failed'));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    env: { CLINADMIN_BASE_URL: url, CLINADMIN_TOKEN: 'variant-token', CLINADMIN_ACCOUNT: 'acc_variant' },
    measures,
    coverages,
    notifications,
    close: () => new Promise((r) => server.close(() => r())),
  };
}
