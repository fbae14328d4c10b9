import type { ConfigData } from './file.js';

/** The global flags that choose the profile and the server. */
export interface GlobalFlags {
  profile?: string;
  baseUrl?: string;
}

export interface Settings {
  profile: string;
  baseUrl?: string;
  token?: string;
  account?: string;
  /** Where each value came from, for whoami. */
  from: { baseUrl?: string; token?: string; account?: string };
  /**
   * Set when the profile holds a token but the base URL in use names another origin: the token was
   * withheld, and this is the origin it belongs to.
   */
  withheldFor?: string;
}

/** Which profile is in use: --profile, then CLINADMIN_PROFILE, then the stored current one. */
export function profileName(
  flag: string | undefined,
  env: Record<string, string | undefined>,
  data: ConfigData,
): string {
  return flag || env.CLINADMIN_PROFILE || data.currentProfile || 'default';
}

/** Flag, then environment, then the stored profile: the only place that decides precedence. */
export function resolveSettings(
  flags: GlobalFlags,
  env: Record<string, string | undefined>,
  data: ConfigData,
): Settings {
  const profile = profileName(flags.profile, env, data);
  const stored = data.profiles?.[profile] ?? {};
  const pick = (
    flag: string | undefined,
    envName: string,
    value: string | undefined,
  ): [string | undefined, string | undefined] => {
    if (flag) return [flag, 'flag'];
    if (env[envName]) return [env[envName], `env ${envName}`];
    if (value) return [value, `profile ${profile}`];
    return [undefined, undefined];
  };
  const [baseUrl, fromBase] = pick(flags.baseUrl, 'CLINADMIN_BASE_URL', stored.baseUrl);
  let [token, fromToken] = pick(undefined, 'CLINADMIN_TOKEN', stored.token);
  const [account, fromAccount] = pick(undefined, 'CLINADMIN_ACCOUNT', stored.account);
  // A stored token belongs to the origin it was stored with, as gh keys tokens by host: a --base-url or
  // CLINADMIN_BASE_URL naming another origin (a repository's .envrc, a copied command) never receives it.
  let withheldFor: string | undefined;
  if (fromToken === `profile ${profile}` && baseUrl !== undefined && originOf(baseUrl) !== originOf(stored.baseUrl)) {
    withheldFor = originOf(stored.baseUrl) ?? '(no base URL)';
    token = undefined;
    fromToken = undefined;
  }
  return {
    profile,
    baseUrl,
    token,
    account,
    from: { baseUrl: fromBase, token: fromToken, account: fromAccount },
    ...(withheldFor ? { withheldFor } : {}),
  };
}

/**
 * Scheme, host and port as the URL standard gives them: `localhost` and `127.0.0.1` differ, a default port
 * written out or a trailing `/` does not. Undefined for no URL or one that does not parse.
 */
export function originOf(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/** `abcd…wxyz`: enough to tell tokens apart, never enough to use one. */
export function maskToken(token: string | undefined): string {
  if (!token) return '(none)';
  if (token.length <= 12) return '****';
  return `${token.slice(0, 4)}…${token.slice(-4)}`;
}

/** The one rule for a base URL, wherever it is given: http or https, nothing else. */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
