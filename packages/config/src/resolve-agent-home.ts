import os from 'node:os';
import path from 'node:path';

/** The folder name of the default agent home under the user's home. */
export const DEFAULT_HOME_DIRNAME = '.soong-agent';

/** Options of {@link resolveAgentHome}. */
export interface ResolveAgentHomeOptions {
  /**
   * The `--home` value; wins over everything. Relative to the current dir; `~/…` is the OS home.
   * @default undefined
   */
  home?: string | undefined;
  /**
   * Where `SOONG_AGENT_HOME` is read from (an empty value counts as unset).
   * @default process.env
   */
  env?: NodeJS.ProcessEnv;
  /**
   * The user's OS home, for `~/.soong-agent` and `~/…`.
   * @default os.homedir()
   */
  homeDir?: string;
}

/** The agent home, absolute: `--home` > `SOONG_AGENT_HOME` > `~/.soong-agent` (SPEC §1). */
export function resolveAgentHome(options: ResolveAgentHomeOptions = {}): string {
  const homeDir = path.resolve(options.homeDir ?? os.homedir());
  const fromEnv = (options.env ?? process.env).SOONG_AGENT_HOME;
  const chosen =
    options.home !== undefined && options.home !== ''
      ? options.home
      : fromEnv !== undefined && fromEnv !== ''
        ? fromEnv
        : undefined;
  if (chosen === undefined) return path.join(homeDir, DEFAULT_HOME_DIRNAME);
  if (chosen === '~') return homeDir;
  if (chosen.startsWith('~/')) return path.join(homeDir, chosen.slice(2));
  return path.resolve(chosen);
}
