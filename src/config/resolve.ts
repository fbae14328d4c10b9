import { type ConfigData, readConfig } from './file.js';

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
  data: ConfigData = readConfig(env),
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
  const [token, fromToken] = pick(undefined, 'CLINADMIN_TOKEN', stored.token);
  const [account, fromAccount] = pick(undefined, 'CLINADMIN_ACCOUNT', stored.account);
  return { profile, baseUrl, token, account, from: { baseUrl: fromBase, token: fromToken, account: fromAccount } };
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
