import { chmod, mkdir } from 'node:fs/promises';
import { CliError, EXIT } from '../errors.js';
import { acquireLock } from '../lock/lock.js';
import type { ConfigData, Profile } from './file.js';
import { openConf, readConfig } from './file.js';
import { configDir, configFile } from './paths.js';

/**
 * Read, change, write under the config lock: two `login` runs at once each see the other's profile, so
 * none is lost. conf writes atomically (temp file and rename); the mode is owner-only whatever the umask.
 */
export async function updateConfig(
  env: Record<string, string | undefined>,
  change: (data: ConfigData) => void,
): Promise<void> {
  const dir = configDir(env);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const release = await acquireLock(`${configFile(env)}.lock`, { waitMs: 10_000 }).catch((err: Error) => {
    throw new CliError(`cannot change the config: ${err.message}`, EXIT.failure, 'another clinadmin is writing it');
  });
  try {
    // readConfig refuses, with the path, a file that does not parse, before conf could write over it.
    const data = await readConfig(env);
    change(data);
    (await openConf(env)).store = data;
    await chmod(configFile(env), 0o600);
  } finally {
    await release();
  }
}

export function profileOf(data: ConfigData, name: string): Profile {
  return data.profiles?.[name] ?? {};
}

export function setProfile(data: ConfigData, name: string, profile: Profile): void {
  data.profiles = { ...data.profiles, [name]: profile };
}
