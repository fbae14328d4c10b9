import { readFileSync, statSync } from 'node:fs';
import { CliError, EXIT } from '../errors.js';
import { configFile } from './paths.js';

export interface Profile {
  baseUrl?: string;
  token?: string;
  account?: string;
}

export interface ConfigData {
  currentProfile?: string;
  profiles?: Record<string, Profile>;
}

/** The settings a user may get and set, with the field each is stored under. */
export const KEYS = { 'base-url': 'baseUrl', token: 'token', account: 'account' } as const;
export type Key = keyof typeof KEYS;

/**
 * Reads the config file without loading conf: every API command reads it, and start-up is a feature.
 * A file that does not parse is reported with its path, never replaced.
 */
export function readConfig(env: Record<string, string | undefined>, warn?: (message: string) => void): ConfigData {
  const path = configFile(env);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new CliError(`cannot read the config file ${path}: ${(err as Error).message}`, EXIT.failure);
  }
  // It holds tokens: as ssh does for a key, say so when others can read it (the next write makes it 0600).
  if (warn && process.platform !== 'win32') {
    const mode = statSync(path).mode & 0o777;
    if (mode & 0o077) {
      warn(
        `the config file ${path} is readable by others (mode ${mode.toString(8)}); ` +
          `run chmod 600 on it (the next clinadmin login or config set also does)`,
      );
    }
  }
  try {
    const data = JSON.parse(text) as ConfigData;
    if (data === null || typeof data !== 'object' || Array.isArray(data)) throw new Error('not an object');
    return data;
  } catch {
    throw new CliError(
      `the config file ${path} is not valid JSON`,
      EXIT.usage,
      `fix it by hand, or move it away and run \`clinadmin login\` again`,
    );
  }
}
