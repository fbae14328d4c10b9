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
