/**
 * The README's usage example, type-checked with the package (`pnpm typecheck`) and kept identical
 * to the README's block by `scripts/check-readme-examples.mjs` (`pnpm lint`). Never run: the
 * declarations below stand for the host's own options, tools and text.
 */
declare const cliOptions: { home?: string; noHooks?: boolean };
declare const projectDir: string;
declare const merged: string;
declare const tools: Map<string, unknown>;

//#region loadConfig_usage
import { ConfigError, checkToolNames, loadConfig, resolveAgentHome } from '@soong-agent/config';

const home = resolveAgentHome({ home: cliOptions.home }); // --home > SOONG_AGENT_HOME > ~/.soong-agent
try {
  const config = loadConfig({
    home,
    projectDir: process.cwd(),
    noHooks: cliOptions.noHooks === true,
  });
  // hooks.json text checked as the home's file before it is written (nothing read or written for it):
  loadConfig({ home, projectDir, hooksText: merged });
  for (const warning of [...config.warnings, ...checkToolNames(config, [...tools.keys()])]) {
    console.error(`warning: ${warning.message}`);
  }
  const hooks = config.hooks.match({
    event: 'PreToolUse',
    tool: 'write_file',
    paths: ['src/a.ts'],
  });
  // hooks: HookCommandConfig[] with id, command, timeoutSec, workingDir, onFailure — in order
  for (const hook of hooks) console.log(hook.id, hook.command);
} catch (error) {
  if (ConfigError.isInstance(error)) {
    console.error(error.message); // every problem, one per line
    process.exit(2);
  }
  throw error;
}
//#endregion loadConfig_usage
