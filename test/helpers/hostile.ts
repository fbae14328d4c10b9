import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEveryTest, ORDER } from './cleanup.js';

/** What a hostile server did: every request it saw, with the Authorization header it was sent. */
export interface Seen {
  method: string;
  url: string;
  authorization?: string;
  /** When it arrived (performance.now()), for tests of the waits between requests. */
  at: number;
}

export interface Hostile {
  url: string;
  seen: Seen[];
  close: () => Promise<void>;
}

const open: Hostile[] = [];
afterEveryTest(ORDER.hostileServers, async () => {
  for (const h of open.splice(0)) await h.close();
});

/**
 * A server on 127.0.0.1, port 0, that answers as `handle` says: a peer we do not control, the oracle for
 * what the CLI must survive. Closed after each test.
 */
export async function hostileServer(handle: (req: IncomingMessage, res: ServerResponse) => void): Promise<Hostile> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    seen.push({
      method: req.method ?? '',
      url: req.url ?? '',
      authorization: req.headers.authorization,
      at: performance.now(),
    });
    handle(req, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  const h: Hostile = {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
  open.push(h);
  return h;
}

/** A list of records with these ids, as any server may send them, at every list path. */
export function listOfIds(ids: string[]) {
  return (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(ids.map((id) => ({ id, name: 'x', test: 't' }))));
  };
}

/**
 * Writes `total` bytes of filler after `head`, as fast as the reader takes them, and never closes
 * what it opened: a list element that never ends, or an object far larger than any record.
 */
export function endless(head: string, total: number) {
  return (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write(head);
    const piece = Buffer.alloc(1024 * 1024, 'a');
    let sent = 0;
    const more = () => {
      while (sent < total && !res.destroyed) {
        sent += piece.length;
        if (!res.write(piece)) return void res.once('drain', more);
      }
      if (!res.destroyed) res.end('"}');
    };
    res.on('error', () => undefined);
    more();
  };
}

/** Ids a server may hold that a shell would run or a terminal would obey, beside two plain ones. */
export const HOSTILE_IDS = [
  'msr_ok1',
  'msr_x$(touch OWNED_SUBST)',
  'msr_x`touch OWNED_TICK`',
  'msr_x;touch OWNED_SEMI',
  'msr_x\ntouch OWNED_NL',
  'msr_x\u001b]0;pwned\u0007\u001b[2J',
  'msr_ok2',
];

/**
 * Text a server may hold that a terminal would obey: C0 and C1 controls, OSC 52 (writes the clipboard),
 * OSC 8 (a hidden link), CSI (clears the screen, colors), a raw 8-bit CSI (U+009B), bidi overrides and
 * isolates, and zero-width characters that make two names look the same.
 */
export const HOSTILE_TEXT =
  'A\u0000\u0007\u0008\r\u001b[2J\u001b]52;c;dG91Y2ggL3RtcC9wd25lZA==\u0007' +
  '\u001b]8;;https://evil.example/\u001b\\link\u001b]8;;\u001b\\\u001b[31m\u009b2J\u0085\u009d0;t\u009c' +
  '\u202eevil\u202c\u2066iso\u2069\u200bZ\u2060W\u00adS\ufeff\u007fz';

/** Any character of HOSTILE_TEXT's kinds, raw: what must never reach a terminal. */
export const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\p{Cf}]/u;

/** What a person would find in the output: a raw control, format or bidi character, and where. */
export function raw(text: string): string | undefined {
  const m = RAW_CONTROL.exec(text);
  if (!m) return undefined;
  const around = JSON.stringify(text.slice(Math.max(0, m.index - 30), m.index + 10));
  return `U+${m[0].codePointAt(0)?.toString(16).padStart(4, '0')} in ${around}`;
}

const h = (s: string) => `${s}${HOSTILE_TEXT}`;

/** A measure, a coverage and a notification whose every value and the names of extra fields are hostile. */
export function hostileRecords() {
  const extra = { [h('field')]: h('value'), '\u001b]52;c;QQ==\u0007key': [h('a'), h('b')] };
  const measure = {
    id: 'msr_h',
    account: h('acc'),
    facility: h('fac'),
    test: h('tst'),
    name: h('Potassium'),
    type: 'numeric',
    choices: [h('one'), h('two')],
    description: h('about'),
    set: h('set'),
    sets: [h('s1')],
    unit: h('mmol/L'),
    siunit: h('mmol/L'),
    hl7IdentifierCod: h('2823-3'),
    hl7IdentifierSys: h('LN'),
    referenceRanges: [{ id: h('rr'), min: 3.5, max: 5.1, simin: 3.5, simax: 5.1, sex: 'all' }],
    panicRanges: [{ min: 2.5, max: 6.5, sex: 'all' }],
    section: h('sec'),
    createdBy: h('by'),
    createdAt: 1_700_000_000_000,
    ...extra,
  };
  const coverage = {
    id: 'cov_h',
    contract: h('ctr'),
    insured: h('org'),
    insurer: h('ins'),
    insurerType: h('private'),
    insurerSubtype: h('hmo'),
    name: h('Coverage'),
    type: h('deduction'),
    paymentMethod: h('postpaid'),
    amount: 15,
    ref: h('svc'),
    refType: h('services'),
    createdBy: h('by'),
    createdAt: 1_700_000_000_000,
    ...extra,
  };
  const notification = {
    id: 'ntf_h',
    createdAt: 1_700_000_000_000,
    code: h('code'),
    type: h('warehouse'),
    title: h('Title'),
    body: h('Body\nline two'),
    meta: { [h('k')]: h('v') },
    seenBy: [h('acc')],
    ...extra,
  };
  return { measure, coverage, notification };
}

/**
 * An API whose every record, list and refusal is hostile text (a peer serve would refuse to store it):
 * `missing` ids get a problem+json whose title, detail and field errors are hostile. With `arriving`,
 * notifications are listed only from the second request on, so `watch` sees one arrive.
 */
export function hostileApi(arriving = false) {
  const { measure, coverage, notification } = hostileRecords();
  const byPath: Record<string, Record<string, unknown>> = {
    '/diagnostic-measures': measure,
    '/insurance-coverages': coverage,
    '/notifications': notification,
  };
  let notificationLists = 0;
  return (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '').split('?')[0];
    const collection = `/${path.split('/')[1]}`;
    const rec = byPath[collection];
    const json = (status: number, body: unknown, type = 'application/json') => {
      res.writeHead(status, { 'content-type': type });
      res.end(JSON.stringify(body));
    };
    if (!rec || path.endsWith('/missing') || req.method !== 'GET') {
      return json(
        rec && req.method === 'GET' ? 404 : 422,
        {
          type: 'about:blank',
          title: h('Refused'),
          detail: h('detail'),
          code: h('code'),
          errors: [{ path: h('name'), message: h('message') }],
        },
        'application/problem+json',
      );
    }
    if (path === collection) {
      if (arriving && collection === '/notifications' && notificationLists++ === 0) return json(200, []);
      return json(200, [rec]);
    }
    json(200, rec);
  };
}
