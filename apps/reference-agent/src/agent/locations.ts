import { statSync } from 'node:fs';
import path from 'node:path';
import {
  ConfigError,
  type ConfigWarning,
  checkToolNames,
  type LoadedConfig,
  loadConfig,
  resolveAgentHome,
} from '@soong-agent/config';
import { CliError } from '../errors.js';
import type { AgentTool, ToolContext } from '../tools/types.js';
import { selfCommand, shellQuote } from '../ui/self-command.js';

// What every command needs before its work: where the home and project are, the configuration
// snapshot and its warnings. Kept apart from session.ts (the agent loop, the model providers and
// the hook session behind them) so that `hooks validate` loads none of those.

/** Where a command works: the agent home and the project dir, both absolute. */
export interface Locations {
  home: string;
  projectDir: string;
}

/**
 * `--home` > `SOONG_AGENT_HOME` > `~/.soong-agent`; `--project` > the current dir. A `--home` that
 * is not an existing directory is `CliError` `USAGE` (a typo must not start a session without hooks,
 * nor create a stray home); a home from the env or the default may be missing (the loader warns).
 */
export function resolveLocations(
  options: { home?: string; project?: string },
  /** `hooks import --write` creates the home it was asked to write into. @default false */
  { createsHome = false }: { createsHome?: boolean } = {},
): Locations {
  const home = resolveAgentHome(
    options.home === undefined ? {} : { home: path.resolve(options.home) },
  );
  if (options.home !== undefined && !createsHome && !isDirectory(home)) {
    throw new CliError({
      code: 'USAGE',
      message: `agent home ${home} does not exist or is not a directory (--home); create it first or fix the path`,
    });
  }
  return { home, projectDir: path.resolve(options.project ?? process.cwd()) };
}

function isDirectory(target: string): boolean {
  try {
    return statSync(target).isDirectory();
  } catch {
    return false;
  }
}

function checkProjectDir(projectDir: string): void {
  if (!isDirectory(projectDir)) {
    throw new CliError({
      code: 'USAGE',
      message: `project dir ${projectDir} does not exist or is not a directory (--project)`,
    });
  }
}

/** A command that takes `--no-hooks` (spec §6): its config errors say how to run without hooks. */
export type NoHooksCommand = 'run' | 'chat';

/**
 * Loads config.toml and hooks.json once (the session's snapshot). A missing project dir is
 * `CliError` `USAGE`, a broken file `CliError` `CONFIG` (both exit 2). With `noHooksCommand`, an
 * error that lies only in hooks.json ends with a line giving the same command line with
 * `--no-hooks`, the way to work until the file is fixed (config.toml is read either way, so a
 * broken config.toml gets no such line).
 */
export function loadConfigOrExit(
  locations: Locations,
  options: { noHooks?: boolean; noHooksCommand?: NoHooksCommand } = {},
): LoadedConfig {
  checkProjectDir(locations.projectDir);
  try {
    return loadConfig({
      home: locations.home,
      projectDir: locations.projectDir,
      noHooks: options.noHooks === true,
    });
  } catch (error) {
    if (!ConfigError.isInstance(error)) throw error;
    const hooksFile = path.join(locations.home, 'hooks.json');
    const onlyHooksJson = error.issues.every((issue) => issue.file === hooksFile);
    const hint =
      options.noHooksCommand !== undefined && onlyHooksJson
        ? `\n${noHooksHint(options.noHooksCommand)}`
        : '';
    throw new CliError({ code: 'CONFIG', message: `${error.message}${hint}`, cause: error });
  }
}

// The user's own command line with --no-hooks after the command word, ready to paste.
function noHooksHint(command: NoHooksCommand, argv: readonly string[] = process.argv): string {
  const args = argv.slice(2);
  const at = args.indexOf(command);
  const rerun =
    at === -1
      ? [command, '--no-hooks', '…']
      : [...args.slice(0, at + 1), '--no-hooks', ...args.slice(at + 1)].map(shellQuote);
  return `to run without hooks until hooks.json is fixed (--no-hooks): ${selfCommand(argv)} ${rerun.join(' ')}`;
}

/** The tool context of a session. */
export function toolContextFor(config: LoadedConfig, sessionId: string): ToolContext {
  return {
    projectDir: config.projectDir,
    agentHome: config.home,
    sessionId,
    envAllowlist: config.envAllowlist,
    maxOutputBytes: config.settings.runner.max_output_bytes,
    killGraceMs: config.settings.runner.kill_grace_ms,
    hooks: config.hooks,
  };
}

/** Config warnings plus unknown tool names in matchers (with a "did you mean"). */
export function allWarnings(
  config: LoadedConfig,
  tools: ReadonlyMap<string, AgentTool>,
): ConfigWarning[] {
  return [...config.warnings, ...checkToolNames(config, [...tools.keys()])];
}
