// @soong-agent/config: the public API, grouped by concern. Everything here is semver-covered.
// Deliberately not exported: the shell-word parser and command analysis behind the config
// warnings, the per-field schemas and bounds of hooks.json (the files' schemas cover them), and the
// JSON Schema generator (its files ship in `schemas/`). Sibling packages reach what they share
// through `@soong-agent/config/internal`, which is not public.

// Checks and what they report.
export { checkToolNames } from './check-tool-names.js';
export type { CompiledHooks, HookGuardedPrefix } from './compiled-hooks.js';
export {
  CONFIG_ERROR_CODES,
  ConfigError,
  type ConfigErrorCode,
  type ConfigIssue,
} from './config-error.js';
// The files' schemas and what they hold.
export {
  ConfigFileSchema,
  DEFAULT_MODEL_MAX_RESPONSE_BYTES,
  DEFAULT_MODEL_REQUEST_TIMEOUT_SECONDS,
  DEFAULT_MODEL_STREAM_IDLE_TIMEOUT_SECONDS,
  DEFAULT_TOOL_TIMEOUT_SECONDS,
  type DeclarativeToolConfig,
  isDeclaredMcpTool,
  knownToolNames,
  MAX_TOOL_TIMEOUT_SECONDS,
  type Settings,
} from './config-file-schema.js';
export {
  CONFIG_WARNING_CODES,
  type ConfigWarning,
  type ConfigWarningCode,
} from './config-warnings.js';
export { HooksFileSchema } from './hooks-file-schema.js';
export { jsonSyntaxIssue } from './json-document.js';
// Loading a configuration.
export {
  CONFIG_FILE,
  HOOKS_FILE,
  type LoadConfigOptions,
  type LoadedConfig,
  loadConfig,
} from './load-config.js';
export { MAX_CONFIG_FILE_BYTES } from './read-config-file.js';
// Reading a file the agent did not write: regular files only, bounded.
export { type RegularFileSyncRead, readRegularFileSync } from './read-regular-file.js';
export { type ResolveAgentHomeOptions, resolveAgentHome } from './resolve-agent-home.js';
export { argumentEnvName } from './tool-arguments.js';
