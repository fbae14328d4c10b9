import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const DEFAULT_ACCOUNT = 'local-admin';

export interface TokenEntry {
  token: string;
  account: string;
}

/** `TOKEN[:ACCOUNT]`, as given to --token or in CLINADMIN_SERVE_TOKENS. */
export function parseTokenSpec(spec: string): TokenEntry {
  const i = spec.indexOf(':');
  const token = (i === -1 ? spec : spec.slice(0, i)).trim();
  const account = (i === -1 ? '' : spec.slice(i + 1)).trim() || DEFAULT_ACCOUNT;
  if (token === '') throw new Error(`a token must not be empty (got "${spec}")`);
  return { token, account };
}

export function generateToken(): string {
  return `cla_${randomBytes(24).toString('base64url')}`;
}

const digest = (s: string) => createHash('sha256').update(s).digest();

/** Finds the account of a bearer header, comparing every token in constant time. */
export function createAuthenticator(entries: TokenEntry[]) {
  const known = entries.map((e) => ({ hash: digest(e.token), account: e.account }));
  // Headers already proven valid skip the hashing; a refused one always takes the constant-time path.
  const accepted = new Map<string, string>();
  return (header: string | undefined): string | undefined => {
    const hit = header === undefined ? undefined : accepted.get(header);
    if (hit !== undefined) return hit;
    const m = /^Bearer[ ]+(\S+)\s*$/i.exec(header ?? '');
    const given = digest(m ? m[1] : '');
    let account: string | undefined;
    for (const k of known) {
      if (timingSafeEqual(k.hash, given) && account === undefined) account = k.account;
    }
    if (!m || account === undefined) return undefined;
    if (accepted.size < 1000) accepted.set(header!, account);
    return account;
  };
}
