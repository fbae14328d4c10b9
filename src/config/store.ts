import { chmod } from 'node:fs/promises';
import type { ConfigData, Profile } from './file.js';
import { readConfig } from './file.js';
import { configDir, configFile } from './paths.js';

/**
 * Writes go through conf, which writes atomically (temp file and rename), so two `login` runs at
 * once leave a valid file; the mode is owner-only whatever the umask.
 */
export async function updateConfig(
  env: Record<string, string | undefined>,
  change: (data: ConfigData) => void,
): Promise<void> {
  readConfig(env); // refuses, with the path, a file that does not parse, before conf could touch it
  const { default: Conf } = await import('conf');
  const conf = new Conf<ConfigData>({
    cwd: configDir(env),
    configName: 'config',
    projectName: 'clinadmin',
    projectSuffix: '',
    configFileMode: 0o600,
    accessPropertiesByDotNotation: false,
    clearInvalidConfig: false,
  });
  const data: ConfigData = structuredClone(conf.store);
  change(data);
  conf.store = data;
  await chmod(configFile(env), 0o600);
}

export function profileOf(data: ConfigData, name: string): Profile {
  return data.profiles?.[name] ?? {};
}

export function setProfile(data: ConfigData, name: string, profile: Profile): void {
  data.profiles = { ...data.profiles, [name]: profile };
}
