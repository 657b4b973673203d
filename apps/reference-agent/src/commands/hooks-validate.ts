import { existsSync } from 'node:fs';
import type { ConfigWarning, ConfigWarningCode, LoadedConfig } from '@soong-agent/config';
import {
  allWarnings,
  loadConfigOrExit,
  resolveLocations,
  toolContextFor,
} from '../agent/locations.js';
import type { CommonOptions } from '../common-options.js';
import { EXIT_CODES } from '../errors.js';
import { createToolRegistry } from '../tools/registry.js';
import type { AgentTool } from '../tools/types.js';

// `hooks validate`, and what the other `hooks` commands share with it, in a module of its own: it
// loads the configuration and the tool registry, none of the hook session, the agent loop or the
// model providers (`hooks validate` starts at about a bare `node` start; see bench/README.md).

/** Session id used by `hooks test` (no session dir is created). */
export const HOOKS_TEST_SESSION_ID = 'hooks-test';

/** The agent's tools for `config`, as a `hooks` command sees them. */
export function toolsOf(config: LoadedConfig): Map<string, AgentTool> {
  return createToolRegistry(toolContextFor(config, HOOKS_TEST_SESSION_ID), config.settings);
}

/**
 * Warnings that mean a hook can never run or never match, since the guard they describe would
 * silently never fire, or that it runs a file the project supplies (`COMMAND_IN_PROJECT`: any
 * project you open could plant its code): `hooks validate --strict` fails on them (exit 2).
 */
export const STRICT_WARNING_CODES: ReadonlySet<ConfigWarningCode> = new Set([
  'UNKNOWN_TOOL',
  'COMMAND_NOT_FOUND',
  'COMMAND_NOT_EXECUTABLE',
  'AGENT_HOME_MISSING',
  'COMMAND_IN_PROJECT',
]);

// On stderr, so a --json answer on stdout stays pure JSON.
export function printWarnings(warnings: readonly ConfigWarning[]): void {
  for (const warning of warnings) process.stderr.write(`warning: ${warning.message}\n`);
}

/** `1 rule`, `2 rules`. */
export const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

/**
 * `soong-agent hooks validate [--strict]`: exit 0 valid, 2 invalid with the precise errors. Warnings
 * go to stderr and the last line is `valid, N warnings`; with `--strict` a warning that means a hook
 * can never run or match, or runs a file inside the project ({@link STRICT_WARNING_CODES}), makes
 * it exit 2.
 */
export async function validateAction(
  options: CommonOptions & { strict?: boolean },
): Promise<number> {
  const config = loadConfigOrExit(resolveLocations(options));
  const warnings = allWarnings(config, toolsOf(config));
  printWarnings(warnings);
  const shown = (file: string) => (existsSync(file) ? file : `${file} (absent: defaults)`);
  if (!config.hooksEnabled) {
    process.stdout.write(
      `checked: ${shown(config.configFile)}; hooks are disabled (hooks.enabled = false), hooks.json was not read\n`,
    );
  } else {
    const rules = config.hooks.ruleCount;
    const hooks = config.hooks.rules.reduce((sum, rule) => sum + rule.hooks.length, 0);
    process.stdout.write(
      `checked: ${shown(config.configFile)}, ${shown(config.hooksFile)} (${plural(rules, 'rule')}, ${plural(hooks, 'hook')})\n`,
    );
  }
  const fatal = warnings.filter((warning) => STRICT_WARNING_CODES.has(warning.code));
  if (options.strict === true && fatal.length > 0) {
    process.stderr.write(
      `soong-agent: --strict: ${fatal.length === 1 ? '1 warning means' : `${fatal.length} warnings mean`} a hook can never run or never match, or runs a file the project supplies (${[...new Set(fatal.map((warning) => warning.code))].join(', ')})\n`,
    );
  }
  process.stdout.write(`valid, ${plural(warnings.length, 'warning')}\n`);
  return options.strict === true && fatal.length > 0 ? EXIT_CODES.usage : EXIT_CODES.ok;
}
