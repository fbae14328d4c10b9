// Covers: src/config/resolve.ts
import { describe, expect, it } from 'vitest';
import { maskToken, resolveSettings } from '../../src/config/resolve.js';

const file = {
  currentProfile: 'lab',
  profiles: {
    lab: { baseUrl: 'http://file-lab', token: 'file-lab-token', account: 'acc_file' },
    staging: { baseUrl: 'http://file-staging', token: 'file-staging-token' },
  },
};

describe('resolveSettings', () => {
  it('takes the stored current profile when nothing else is given', () => {
    expect(resolveSettings({}, {}, file)).toMatchObject({
      profile: 'lab',
      baseUrl: 'http://file-lab',
      token: 'file-lab-token',
      account: 'acc_file',
    });
  });

  it('prefers the environment over the profile, and the flag over both', () => {
    const env = {
      CLINADMIN_BASE_URL: 'http://env',
      CLINADMIN_TOKEN: 'env-token',
      CLINADMIN_ACCOUNT: 'acc_env',
      CLINADMIN_PROFILE: 'staging',
    };
    const fromEnv = resolveSettings({}, env, file);
    expect(fromEnv).toMatchObject({
      profile: 'staging',
      baseUrl: 'http://env',
      token: 'env-token',
      account: 'acc_env',
    });
    expect(fromEnv.from).toEqual({
      baseUrl: 'env CLINADMIN_BASE_URL',
      token: 'env CLINADMIN_TOKEN',
      account: 'env CLINADMIN_ACCOUNT',
    });
    const fromFlag = resolveSettings({ baseUrl: 'http://flag', profile: 'lab' }, env, file);
    expect(fromFlag).toMatchObject({ profile: 'lab', baseUrl: 'http://flag', token: 'env-token' });
  });

  it('falls back to the default profile', () => {
    expect(resolveSettings({}, {}, {})).toMatchObject({ profile: 'default', baseUrl: undefined, token: undefined });
  });
});

describe('maskToken', () => {
  it('shows only the ends of a token', () => {
    expect(maskToken('abcd1234567890wxyz')).toBe('abcd…wxyz');
    expect(maskToken('short')).toBe('****');
    expect(maskToken(undefined)).toBe('(none)');
  });
});

describe('a stored token goes only to the origin it was stored for (issue 37)', () => {
  const stored = (baseUrl?: string) => ({
    currentProfile: 'p',
    profiles: { p: { ...(baseUrl ? { baseUrl } : {}), token: 'stored-token-1234' } },
  });
  const resolve = (flag: string | undefined, env: Record<string, string> = {}, base = 'http://127.0.0.1:4010') =>
    resolveSettings({ baseUrl: flag }, env, stored(base));

  it('sends it to the same scheme, host and port, whatever the path or a trailing slash', () => {
    for (const url of [
      undefined,
      'http://127.0.0.1:4010',
      'http://127.0.0.1:4010/',
      'http://127.0.0.1:4010/api/v2',
      'HTTP://127.0.0.1:4010',
    ]) {
      const s = resolve(url);
      expect(s.token, url).toBe('stored-token-1234');
      expect(s.withheldFor, url).toBeUndefined();
    }
    // A default port written out is the same origin (the URL standard drops it).
    expect(resolve('https://api.example/', {}, 'https://api.example:443').token).toBe('stored-token-1234');
  });

  it('withholds it from another host, port or scheme, by flag or by CLINADMIN_BASE_URL', () => {
    for (const url of [
      'http://localhost:4010',
      'http://127.0.0.1:4011',
      'https://127.0.0.1:4010',
      'http://127.0.0.2:4010',
      'http://127.0.0.1.evil.example:4010',
    ]) {
      for (const s of [resolve(url), resolve(undefined, { CLINADMIN_BASE_URL: url })]) {
        expect(s.token, url).toBeUndefined();
        expect(s.from.token, url).toBeUndefined();
        expect(s.withheldFor, url).toBe('http://127.0.0.1:4010');
        expect(s.baseUrl, url).toBe(url);
      }
    }
  });

  it('withholds it when the profile names no base URL, and uses a token given for the other origin', () => {
    const none = resolveSettings({ baseUrl: 'http://127.0.0.1:4010' }, {}, stored(undefined));
    expect(none.token).toBeUndefined();
    expect(none.withheldFor).toBe('(no base URL)');
    const given = resolve('http://localhost:9', { CLINADMIN_TOKEN: 'given-for-it' });
    expect(given.token).toBe('given-for-it');
    expect(given.from.token).toBe('env CLINADMIN_TOKEN');
    expect(given.withheldFor).toBeUndefined();
  });
});
