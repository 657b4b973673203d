import os from 'node:os';
import path from 'node:path';
import { expandHome } from '@soong-agent/paths/internal';
import { ConfigError } from './config-error.js';
import { createIssue } from './issues.js';

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
   * The user's OS home, for `~/.soong-agent` and `~/…`. The default never resolves against the
   * current dir: an empty or relative `HOME` falls back to the password database, else throws
   * `ConfigError` `CONFIG_READ_FAILED`.
   * @default os.homedir()
   */
  homeDir?: string;
}

/** The agent home, absolute: `--home` > `SOONG_AGENT_HOME` > `~/.soong-agent` (spec §1). */
export function resolveAgentHome(options: ResolveAgentHomeOptions = {}): string {
  const homeDir = path.resolve(options.homeDir ?? osHomeDir());
  const fromEnv = (options.env ?? process.env).SOONG_AGENT_HOME;
  const chosen =
    options.home !== undefined && options.home !== ''
      ? options.home
      : fromEnv !== undefined && fromEnv !== ''
        ? fromEnv
        : undefined;
  if (chosen === undefined) return path.join(homeDir, DEFAULT_HOME_DIRNAME);
  return path.resolve(expandHome(chosen, homeDir));
}

/**
 * The user's OS home, always absolute. An empty or relative HOME (`env HOME= soong-agent …`) would
 * make `~/.soong-agent` relative to the current dir — usually the project — and load a planted
 * `<project>/.soong-agent/hooks.json`, or point a `~/.ssh` path prefix into the project. The
 * password database is the next authority; without an absolute home this throws `ConfigError`.
 */
export function osHomeDir(): string {
  const fromEnv = os.homedir();
  if (path.isAbsolute(fromEnv)) return fromEnv;
  let fromPasswd = '';
  try {
    fromPasswd = os.userInfo().homedir;
  } catch {
    // No password entry for this uid.
  }
  if (path.isAbsolute(fromPasswd)) return fromPasswd;
  throw new ConfigError({
    code: 'CONFIG_READ_FAILED',
    issues: [
      createIssue({
        file: `~/${DEFAULT_HOME_DIRNAME}`,
        homeDir: path.sep,
        text: {
          problem: `the user's home is not an absolute path (HOME=${JSON.stringify(fromEnv)})`,
          fix: 'set HOME to an absolute path, or choose the agent home with --home or SOONG_AGENT_HOME',
        },
      }),
    ],
  });
}
