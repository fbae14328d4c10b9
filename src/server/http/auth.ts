import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const DEFAULT_ACCOUNT = 'local-admin';

export interface TokenEntry {
  token: string;
  account: string;
  /** May use `/_admin/…` (snapshots, reset, the request log): marked when serve starts, never by a request. */
  admin?: boolean;
}

/** Who a valid token belongs to. */
interface Caller {
  account: string;
  admin: boolean;
}

/** `TOKEN[:ACCOUNT[:admin]]`, as given to --token, in --token-file or in CLINADMIN_SERVE_TOKENS. */
export function parseTokenSpec(spec: string): TokenEntry {
  const [rawToken, rawAccount = '', role, ...rest] = spec.split(':');
  const token = rawToken.trim();
  if (token === '') throw new Error(`a token must not be empty (got "${redact(spec, token)}")`);
  if (rest.length > 0 || (role !== undefined && role.trim() !== 'admin')) {
    throw new Error(`a token is TOKEN, TOKEN:ACCOUNT or TOKEN:ACCOUNT:admin (got "${redact(spec, token)}")`);
  }
  const account = rawAccount.trim() || DEFAULT_ACCOUNT;
  return { token, account, admin: role !== undefined };
}

/** The spec with its token hidden: an error message may reach a CI log. */
const redact = (spec: string, token: string) => (token === '' ? spec : `…${spec.slice(spec.indexOf(':'))}`);

export function generateToken(): string {
  return `cla_${randomBytes(24).toString('base64url')}`;
}

const digest = (s: string) => createHash('sha256').update(s).digest();

/** Finds the account of a bearer header, comparing every token in constant time. */
export function createAuthenticator(entries: TokenEntry[]) {
  const known = entries.map((e) => ({ hash: digest(e.token), caller: { account: e.account, admin: !!e.admin } }));
  // Tokens already proven valid skip the hashing; a refused one always takes the constant-time path. Keyed
  // by the token, not the header, whose every spelling (spaces, case) would be a key of its own: the keys
  // are at most the tokens serve was given.
  const accepted = new Map<string, Caller>();
  return (header: string | undefined): Caller | undefined => {
    const token = /^Bearer[ ]+(\S+)\s*$/i.exec(header ?? '')?.[1];
    const hit = token === undefined ? undefined : accepted.get(token);
    if (hit !== undefined) return hit;
    const given = digest(token ?? '');
    let caller: Caller | undefined;
    for (const k of known) {
      if (timingSafeEqual(k.hash, given) && caller === undefined) caller = k.caller;
    }
    if (token === undefined || caller === undefined) return undefined;
    accepted.set(token, caller);
    return caller;
  };
}
