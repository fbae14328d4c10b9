import { readConfig } from '../config/file.js';
import { isHttpUrl, maskToken, profileName, resolveSettings } from '../config/resolve.js';
import { profileOf, setProfile, updateConfig } from '../config/update.js';
import type { Ctx } from '../context.js';
import { AuthError, CliError, EXIT, UsageError } from '../errors.js';
import { readStream } from '../formats/input.js';
import { col } from '../output/columns.js';
import { chooseFormat, present } from '../output/present.js';
import { prompter } from '../output/prompts.js';
import { loadClient, traceTo, warnIfPlainText } from './connect.js';
import type { Opts } from './shared.js';
import { checkProfile } from './suggest.js';

/** An id no record has: GET of it proves the token (401 versus 404) without reading any data. */
const PROBE = '/notifications/clinadmin-login-check';

async function check(ctx: Ctx, opts: Opts, baseUrl: string, token: string): Promise<void> {
  const ApiClient = await loadClient();
  const client = new ApiClient({
    baseUrl,
    token,
    timeoutMs: opts.timeoutMs,
    deadline: ctx.clock.deadline(opts.deadline),
    retries: 1,
    trace: opts.verbose ? traceTo(ctx) : undefined,
  });
  try {
    await client.request('GET', PROBE);
  } catch (err) {
    // Refused at login itself: "run clinadmin login" is what was just done; the token is what to check.
    if (err instanceof AuthError && err.exitCode === EXIT.auth && /\(401\)/.test(err.message))
      throw new AuthError(
        err.message,
        'check the token for this base URL (a copy may have lost characters); nothing was saved',
      );
    if (!(err instanceof CliError) || err.exitCode !== EXIT.notFound) throw err;
  } finally {
    await client.close();
  }
}

export async function login(ctx: Ctx, opts: Opts): Promise<void> {
  if (opts.token !== undefined && opts.tokenStdin)
    throw new UsageError('give either --token or --token-stdin, not both');
  const data = await readConfig(ctx.env);
  const profile = profileName(opts.profile, ctx.env, data);
  const stored = profileOf(data, profile);
  let baseUrl = opts.baseUrl || ctx.env.CLINADMIN_BASE_URL;
  let token = opts.tokenStdin ? (await readStream(ctx.stdin)).trim() : (opts.token as string | undefined);
  if (opts.tokenStdin && !token) throw new UsageError('--token-stdin read an empty token');
  if (!baseUrl || !token) {
    if (!ctx.isInteractive) {
      const missing = [!baseUrl && '--base-url', !token && '--token or --token-stdin'].filter(Boolean).join(' and ');
      throw new UsageError(
        `missing ${missing}: no terminal to ask at`,
        'for example: clinadmin login --base-url URL --token-stdin < token.txt',
      );
    }
    const ask = await prompter(ctx);
    if (!baseUrl)
      baseUrl = await ask.text('API base URL:', { required: true, default: stored.baseUrl ?? 'http://127.0.0.1:4010' });
    if (!token) token = await ask.secret('API token:');
  }
  if (!isHttpUrl(baseUrl)) throw new UsageError(`the base URL must be an http:// or https:// URL (got ${baseUrl})`);
  warnIfPlainText(ctx, baseUrl);
  await check(ctx, opts, baseUrl, token);
  const account = (opts.account as string | undefined) ?? stored.account;
  await updateConfig(ctx.env, (d) => {
    setProfile(d, profile, { ...profileOf(d, profile), baseUrl, token, ...(account ? { account } : {}) });
    // Logging in to another profile stores it; it becomes the current one only when asked (--use).
    if (!d.currentProfile || opts.use) d.currentProfile = profile;
  });
  const created = data.profiles?.[profile] === undefined;
  const current = !data.currentProfile || Boolean(opts.use) || data.currentProfile === profile;
  const which = `${created ? 'created ' : ''}profile ${profile}${account ? `, account ${account}` : ''}`;
  ctx.stderr.write(`Logged in to ${baseUrl} (${which}); token ${maskToken(token)} stored.\n`);
  if (!current) {
    ctx.stderr.write(
      `The current profile is still ${data.currentProfile}: use --profile ${profile}, ` +
        `or \`clinadmin config use-profile ${profile}\`.\n`,
    );
  }
}

export async function logout(ctx: Ctx, opts: Opts): Promise<void> {
  const data = await readConfig(ctx.env);
  const profile = profileName(opts.profile, ctx.env, data);
  checkProfile(profile, data.profiles);
  if (!profileOf(data, profile).token) {
    ctx.stderr.write(`profile ${profile} holds no token; nothing to remove\n`);
    return;
  }
  await updateConfig(ctx.env, (d) => {
    const { token: _drop, ...rest } = profileOf(d, profile);
    setProfile(d, profile, rest);
  });
  ctx.stderr.write(`Removed the token of profile ${profile}.\n`);
}

export async function whoami(ctx: Ctx, opts: Opts): Promise<number> {
  const data = await readConfig(ctx.env);
  checkProfile(profileName(opts.profile, ctx.env, data), data.profiles);
  const s = resolveSettings(opts, ctx.env, data);
  let server = s.withheldFor
    ? `not checked: the profile's token is for ${s.withheldFor}, not this base URL`
    : 'not checked: no base URL or token';
  let code: number = s.baseUrl && s.token ? EXIT.ok : EXIT.auth;
  if (s.baseUrl && s.token) {
    const started = performance.now();
    try {
      await check(ctx, opts, s.baseUrl, s.token);
      server = `answers, token accepted (${Math.round(performance.now() - started)} ms)`;
    } catch (err) {
      server =
        err instanceof AuthError ? 'answers, but refuses the token' : `does not answer: ${(err as Error).message}`;
      code = err instanceof CliError ? err.exitCode : EXIT.failure;
    }
  }
  const info = {
    profile: s.profile,
    baseUrl: s.baseUrl ?? '(not set)',
    token: maskToken(s.token),
    account: s.account ?? '(not set)',
    server,
    sources: s.from,
  };
  if (!['table', 'wide'].includes(chooseFormat(ctx, opts.output)) || opts.fields || opts.query) {
    await present(ctx, info, opts);
    return code;
  }
  // At a terminal, a describe view: where each value came from beside it, not as JSON in a cell.
  const from = (key: keyof typeof s.from) => (s.from[key] ? ` (from ${s.from[key]})` : '');
  const view = {
    profile: info.profile,
    baseUrl: `${info.baseUrl}${from('baseUrl')}`,
    token: `${info.token}${from('token')}`,
    account: `${info.account}${from('account')}`,
    server,
  };
  const columns = [
    col('profile', 'PROFILE'),
    col('baseUrl', 'BASE URL'),
    col('token', 'TOKEN'),
    col('account', 'ACCOUNT'),
    col('server', 'SERVER'),
  ];
  await present(ctx, view, { ...opts, columns });
  return code;
}
