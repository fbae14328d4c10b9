import { homedir } from 'node:os';
import { join } from 'node:path';

/** Where the config file lives: CLINADMIN_CONFIG_DIR, else the platform's config folder. */
export function configDir(env: Record<string, string | undefined>): string {
  if (env.CLINADMIN_CONFIG_DIR) return env.CLINADMIN_CONFIG_DIR;
  const home = homedir();
  if (process.platform === 'darwin') return join(home, 'Library', 'Preferences', 'clinadmin');
  if (process.platform === 'win32') return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'clinadmin', 'Config');
  return join(env.XDG_CONFIG_HOME ?? join(home, '.config'), 'clinadmin');
}

export const configFile = (env: Record<string, string | undefined>) => join(configDir(env), 'config.json');
