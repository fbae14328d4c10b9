import type { ApiClient } from '../api/client.js';
import { readConfig } from '../config/file.js';
import { type GlobalFlags, originOf, profileName, resolveSettings, type Settings } from '../config/resolve.js';
import type { Ctx } from '../context.js';
import type { DeadlineAt } from '../deadline.js';
import { AuthError } from '../errors.js';
import { visible } from '../output/text.js';
import { checkProfile } from './suggest.js';

export interface Connection {
  client: ApiClient;
  settings: Settings;
}

const LOCAL = /^(localhost|127(\.\d+){3}|\[::1\])$/i;

/** Resolves where and how to connect, refusing early when the CLI is not configured. */
export async function connect(
  ctx: Ctx,
  flags: GlobalFlags & { timeoutMs: number; deadline?: DeadlineAt; verbose?: boolean; connections?: number },
  given?: Settings,
): Promise<Connection> {
  let settings = given;
  if (!settings) {
    const data = await readConfig(ctx.env, (m) => ctx.stderr.write(`warning: ${m}\n`));
    checkProfile(profileName(flags.profile, ctx.env, data), data.profiles);
    settings = resolveSettings(flags, ctx.env, data);
  }
  if (!settings.baseUrl) {
    throw new AuthError(
      `no base URL is configured for profile ${settings.profile}`,
      'run `clinadmin login --base-url URL`, or set CLINADMIN_BASE_URL',
    );
  }
  if (!settings.token && settings.withheldFor) {
    const origin = originOf(settings.baseUrl) ?? settings.baseUrl;
    throw new AuthError(
      `the token of profile ${settings.profile} is for ${settings.withheldFor}, not ${origin}, so it was not sent`,
      `give a token for that origin with CLINADMIN_TOKEN, or run \`clinadmin login --base-url ${settings.baseUrl}\``,
    );
  }
  if (!settings.token) {
    throw new AuthError(
      `no token is configured for profile ${settings.profile}`,
      'run `clinadmin login`, or set CLINADMIN_TOKEN',
    );
  }
  warnIfPlainText(ctx, settings.baseUrl);
  const ApiClient = await loadClient();
  const client = new ApiClient({
    baseUrl: settings.baseUrl,
    token: settings.token,
    timeoutMs: flags.timeoutMs,
    deadline: ctx.clock.deadline(flags.deadline),
    connections: flags.connections,
    trace: flags.verbose ? traceTo(ctx) : undefined,
  });
  return { client, settings };
}

/** --verbose's trace lines on stderr; a body they quote is the server's text, shown and never obeyed. */
export function traceTo(ctx: Ctx): (line: string) => void {
  return (line) => ctx.stderr.write(`${visible(line)}\n`);
}

/** Loads the HTTP client, and with it undici, only once a command has something to ask the server. */
export async function loadClient(): Promise<typeof import('../api/client.js').ApiClient> {
  return (await import('../api/client.js')).ApiClient;
}

export function warnIfPlainText(ctx: Ctx, baseUrl: string): void {
  try {
    const url = new URL(baseUrl);
    if (url.protocol === 'http:' && !LOCAL.test(url.hostname)) {
      ctx.stderr.write(`warning: ${url.origin} uses plain http, so the token travels unencrypted; use https\n`);
    }
  } catch {
    // An invalid URL is reported by the client with a clearer sentence.
  }
}
