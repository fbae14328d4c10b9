import type { Ctx } from '../../context.js';
import { AuthError, EXIT, NotFoundError, UsageError } from '../../errors.js';
import type { Rec } from '../../json/record.js';
import { col, localTime } from '../../output/columns.js';
import { present } from '../../output/present.js';
import { enc, type Opts, withClient } from '../shared.js';

const SNAPSHOT_COLUMNS = [
  ['name', 'NAME'],
  ['createdAt', 'CREATED'],
  ['measures', 'MEASURES'],
  ['coverages', 'COVERAGES'],
  ['notifications', 'NOTIFICATIONS'],
];
const REQUEST_COLUMNS = [
  ['time', 'TIME'],
  ['method', 'METHOD'],
  ['path', 'PATH'],
  ['query', 'QUERY'],
  ['status', 'STATUS'],
  ['account', 'ACCOUNT'],
  ['durationMs', 'MS'],
];

/** One sandbox verb: the request, then the answer through present(); the exit code. */
export async function sandboxAction(
  ctx: Ctx,
  verb: 'snapshot' | 'reset' | 'snapshots' | 'requests',
  opts: Opts & { method?: string; path?: string; status?: string; expect?: number },
  name?: string,
): Promise<number> {
  const expect = opts.expect;
  if (opts.status !== undefined && !/^\d{3}$/.test(opts.status))
    throw new UsageError(`--status must be an HTTP status such as 201 (got "${opts.status}")`);
  const data = await withClient(ctx, opts, async ({ client }) => {
    try {
      if (verb === 'snapshot') return await client.request<Rec>('POST', `/_admin/snapshots/${enc(name!)}`);
      if (verb === 'reset')
        return await client.request<Rec>('POST', '/_admin/reset', name === undefined ? undefined : { snapshot: name });
      if (verb === 'snapshots') return await client.request<Rec[]>('GET', '/_admin/snapshots');
      const q = new URLSearchParams();
      for (const k of ['method', 'path', 'status'] as const) if (opts[k] !== undefined) q.set(k, opts[k]!);
      return await client.request<Rec[]>('GET', `/_admin/requests${q.size > 0 ? `?${q}` : ''}`);
    } catch (err) {
      if (err instanceof NotFoundError && verb === 'reset' && name !== undefined)
        throw new NotFoundError(`the server has no snapshot named ${name}`, 'list them: clinadmin sandbox snapshots');
      if (err instanceof NotFoundError)
        throw new NotFoundError("the server has no sandbox endpoints (/_admin/…): they are clinadmin serve's");
      // The token is valid but not an admin's: only serve's command line can make it one.
      if (err instanceof AuthError && err.message.includes('(403)'))
        throw new AuthError(
          err.message,
          'the sandbox needs a token marked admin when serve starts: --token TOKEN:ACCOUNT:admin ' +
            '(the same in CLINADMIN_SERVE_TOKENS or --token-file)',
        );
      throw err;
    }
  });
  const time = (key: string, header: string) => ({ ...col(key, header, true), value: (r: Rec) => localTime(r[key]) });
  const columns = (verb === 'requests' ? REQUEST_COLUMNS : SNAPSHOT_COLUMNS).map(([key, header]) =>
    key === 'time' || key === 'createdAt' ? time(key, header) : col(key, header, true),
  );
  if (verb === 'requests' && expect !== undefined) {
    const found = (data as Rec[]).length;
    if (found !== expect) {
      const which = [opts.method, opts.path, opts.status].filter(Boolean).join(' ') || 'any';
      ctx.stderr.write(
        `expected ${expect} ${expect === 1 ? 'request' : 'requests'} matching ${which}, found ${found}\n`,
      );
      await present(ctx, data, { ...opts, columns });
      return EXIT.failure;
    }
  }
  if (verb === 'snapshot' || verb === 'reset') {
    const d = data as Rec;
    const held = `${d.measures} measures, ${d.coverages} coverages, ${d.notifications} notifications`;
    const what = d.snapshot === null ? 'the state the server started with' : `snapshot ${String(d.snapshot)}`;
    ctx.stderr.write(
      verb === 'snapshot' ? `saved snapshot ${String(d.name)}: ${held}\n` : `reset to ${what}: ${held}\n`,
    );
  }
  await present(ctx, data, { ...opts, columns });
  return EXIT.ok;
}
