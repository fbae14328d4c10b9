import { statSync } from 'node:fs';
import type Conf from 'conf';
import { CliError, EXIT } from '../errors.js';
import { configDir, configFile } from './paths.js';

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

/** Thrown by conf's reader for JSON that parses but is not an object, so it is reported as a bad file. */
class NotAnObject extends SyntaxError {}

let confClass: Promise<typeof Conf> | undefined;

/**
 * Loads conf once. The cause of what follows is in conf's dependencies: conf writes through atomically,
 * which imports when-exit, whose module body (a singleton Interceptor) adds a `process.once` listener for
 * every exit signal (SIGINT, SIGTERM, SIGHUP and more) and an 'exit' hook. On a signal it purges
 * atomically's temp files, then re-raises the signal with process.kill: with its listener gone, that kills
 * a command that handles Ctrl-C itself (an edit removing its folder, an import writing its report). Neither
 * package has an option against it, so the signal listeners the import adds are removed, whichever signals
 * a version hooks; the 'exit' hook stays, so temp files of an interrupted write are still purged.
 */
function loadConf(): Promise<typeof Conf> {
  confClass ??= (async () => {
    // Whatever signals a version of it hooks: every signal listener the load adds goes.
    const signals = () => process.eventNames().filter((e): e is NodeJS.Signals => String(e).startsWith('SIG'));
    const before = new Map(signals().map((s) => [s, new Set(process.listeners(s))]));
    const { default: loaded } = await import('conf');
    for (const signal of signals()) {
      const kept = before.get(signal);
      for (const listener of process.listeners(signal)) if (!kept?.has(listener)) process.off(signal, listener);
    }
    return loaded;
  })();
  return confClass;
}

/** The config file through conf, its one reader and writer (writes go through config/update.ts, under a lock). */
export async function openConf(env: Record<string, string | undefined>): Promise<Conf<ConfigData>> {
  const ConfClass = await loadConf();
  return new ConfClass<ConfigData>({
    cwd: configDir(env),
    configName: 'config',
    projectName: 'clinadmin',
    projectSuffix: '',
    configFileMode: 0o600,
    accessPropertiesByDotNotation: false,
    clearInvalidConfig: false,
    deserialize: (text) => {
      const data = JSON.parse(text) as unknown;
      if (data === null || typeof data !== 'object' || Array.isArray(data)) throw new NotAnObject('not an object');
      return data as ConfigData;
    },
  });
}

/**
 * Reads the config through conf. A missing file reads as empty without loading conf (it would create
 * the folder); a file that does not parse is reported with its path, never replaced.
 */
export async function readConfig(
  env: Record<string, string | undefined>,
  warn?: (message: string) => void,
): Promise<ConfigData> {
  const path = configFile(env);
  let stats: ReturnType<typeof statSync>;
  try {
    stats = statSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new CliError(`cannot read the config file ${path}: ${(err as Error).message}`, EXIT.failure);
  }
  // A link to a FIFO would hold every command waiting for a writer, and the next write would chmod a device
  // (a link to /dev/null made it owner-only for everyone): only a regular file is a config file.
  if (!stats.isFile())
    throw new CliError(
      `the config file ${path} is not a regular file`,
      EXIT.usage,
      'move it away and run `clinadmin login` again, or set CLINADMIN_CONFIG_DIR to another folder',
    );
  const mode = stats.mode & 0o777;
  // It holds tokens: as ssh does for a key, say so when others can read it (the next write makes it 0600).
  if (warn && process.platform !== 'win32' && mode & 0o077) {
    warn(
      `the config file ${path} is readable by others (mode ${mode.toString(8)}); ` +
        `run chmod 600 on it (the next clinadmin login or config set also does)`,
    );
  }
  try {
    return structuredClone((await openConf(env)).store);
  } catch (err) {
    if (err instanceof SyntaxError) {
      throw new CliError(
        `the config file ${path} ${err instanceof NotAnObject ? 'does not hold a JSON object' : 'is not valid JSON'}`,
        EXIT.usage,
        `fix it by hand, or move it away and run \`clinadmin login\` again`,
      );
    }
    throw new CliError(`cannot read the config file ${path}: ${(err as Error).message}`, EXIT.failure);
  }
}
