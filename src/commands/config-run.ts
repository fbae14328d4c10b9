import { type ConfigData, KEYS, type Key, readConfig } from '../config/file.js';
import { configFile } from '../config/paths.js';
import { isHttpUrl, maskToken, profileName } from '../config/resolve.js';
import { profileOf, setProfile, updateConfig } from '../config/update.js';
import type { Ctx } from '../context.js';
import { UsageError } from '../errors.js';
import { readStream } from '../formats/input.js';
import { textColumns } from '../output/columns.js';
import { present } from '../output/present.js';
import { writeLines } from '../output/text-out.js';
import type { Opts } from './shared.js';
import { checkProfile } from './suggest.js';

function keyOf(key: string): Key {
  if (!(key in KEYS)) throw new UsageError(`unknown config key ${key}`, `use one of: ${Object.keys(KEYS).join(', ')}`);
  return key as Key;
}

function profileOfRun(ctx: Ctx, opts: Opts, data: ConfigData): string {
  const name = profileName(opts.profile, ctx.env, data);
  checkProfile(name, data.profiles);
  return name;
}

export async function get(ctx: Ctx, opts: Opts, key: string): Promise<void> {
  const k = keyOf(key);
  const data = await readConfig(ctx.env);
  const profile = profileOfRun(ctx, opts, data);
  const value = profileOf(data, profile)[KEYS[k]];
  if (value === undefined) throw new UsageError(`${key} is not set in profile ${profile}`);
  await writeLines(ctx, [k === 'token' && !opts.showSecret ? maskToken(value) : value]);
}

export async function set(ctx: Ctx, opts: Opts, key: string, given: string): Promise<void> {
  const k = keyOf(key);
  let value = given;
  // "-" reads the value from standard input, as everywhere else; a token given on the command line is
  // in shell history and the process list by now, so say so.
  if (given === '-') {
    value = (await readStream(ctx.stdin)).trim();
    if (value === '') throw new UsageError(`${key}: standard input was empty; nothing was set`);
  } else if (k === 'token') {
    ctx.stderr.write(
      'warning: a token on the command line ends up in shell history and the process list; ' +
        'use `clinadmin config set token -` (reads standard input) or `clinadmin login`\n',
    );
  }
  if (k === 'base-url' && !isHttpUrl(value)) {
    throw new UsageError(`base-url must be an http:// or https:// URL (got ${value})`);
  }
  const profile = profileOfRun(ctx, opts, await readConfig(ctx.env));
  await updateConfig(ctx.env, (d) => {
    setProfile(d, profile, { ...profileOf(d, profile), [KEYS[k]]: value });
    d.currentProfile ??= profile;
  });
  ctx.stderr.write(`set ${key} in profile ${profile}\n`);
}

export async function unset(ctx: Ctx, opts: Opts, key: string): Promise<void> {
  const k = keyOf(key);
  const profile = profileOfRun(ctx, opts, await readConfig(ctx.env));
  await updateConfig(ctx.env, (d) => {
    const p = { ...profileOf(d, profile) };
    delete p[KEYS[k]];
    setProfile(d, profile, p);
  });
  ctx.stderr.write(`unset ${key} in profile ${profile}\n`);
}

export async function list(ctx: Ctx, opts: Opts): Promise<void> {
  const data = await readConfig(ctx.env);
  const current = data.currentProfile ?? 'default';
  const rows = Object.entries(data.profiles ?? {}).map(([name, p]) => ({
    profile: name,
    current: name === current,
    'base-url': p.baseUrl,
    token: maskToken(p.token),
    account: p.account,
  }));
  await present(ctx, rows, {
    ...opts,
    columns: textColumns(['profile', 'current', 'base-url', 'token', 'account']),
    empty: 'no profiles yet; run `clinadmin login`',
  });
}

export async function path(ctx: Ctx): Promise<void> {
  await writeLines(ctx, [configFile(ctx.env)]);
}

export async function useProfile(ctx: Ctx, _opts: Opts, name: string): Promise<void> {
  checkProfile(name, (await readConfig(ctx.env)).profiles);
  await updateConfig(ctx.env, (d) => {
    d.currentProfile = name;
    d.profiles = { ...d.profiles, [name]: d.profiles?.[name] ?? {} };
  });
  ctx.stderr.write(`now using profile ${name}\n`);
}
