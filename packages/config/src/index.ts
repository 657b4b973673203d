export { checkToolNames } from './check-tool-names.js';
export {
  analyzeCommand,
  type CommandAnalysis,
  type CommandTarget,
  type CommandWord,
  type CommandWordsOptions,
  commandFiles,
  commandWords,
  expandClaudeProjectDir,
  findProgramInPath,
  hookCommandVariables,
} from './command-words.js';
export type {
  CompiledHooks,
  HookCommandConfig,
  HookGuardedPrefix,
  HookRuleConfig,
  HookRuleExplanation,
} from './compiled-hooks.js';
export {
  CONFIG_ERROR_CODES,
  ConfigError,
  type ConfigErrorCode,
  type ConfigErrorOptions,
  type ConfigIssue,
} from './config-error.js';
export {
  ConfigFileSchema,
  DEFAULT_MODEL_MAX_RESPONSE_BYTES,
  DEFAULT_MODEL_REQUEST_TIMEOUT_SECONDS,
  DEFAULT_MODEL_STREAM_IDLE_TIMEOUT_SECONDS,
  DEFAULT_TOOL_TIMEOUT_SECONDS,
  type DeclarativeToolConfig,
  type DeclarativeToolParameter,
  isDeclaredMcpTool,
  knownToolNames,
  MAX_TOOL_TIMEOUT_SECONDS,
  type McpServerConfig,
  type Permission,
  type Settings,
} from './config-file-schema.js';
export {
  CONFIG_WARNING_CODES,
  type ConfigWarning,
  type ConfigWarningCode,
} from './config-warnings.js';
export {
  HOOK_MODES,
  HOOK_PROTOCOLS,
  HookCommandSchema,
  type HookMode,
  type HookProtocol,
  HooksFileSchema,
  MAX_HOOK_TIMEOUT_SECONDS,
  MIN_TIMEOUT_SECONDS,
} from './hooks-file-schema.js';
export { jsonSyntaxIssue } from './json-document.js';
export { type ConfigJsonSchemaFile, generateConfigJsonSchemas } from './json-schemas.js';
export {
  CONFIG_FILE,
  HOOKS_FILE,
  type HooksSource,
  type LoadConfigOptions,
  type LoadedConfig,
  loadConfig,
} from './load-config.js';
export { MAX_CONFIG_FILE_BYTES } from './read-config-file.js';
export {
  type ReadRegularFileSyncOptions,
  type RegularFileSyncRead,
  readRegularFileSync,
} from './read-regular-file.js';
export {
  DEFAULT_HOME_DIRNAME,
  type ResolveAgentHomeOptions,
  resolveAgentHome,
} from './resolve-agent-home.js';
export {
  type ParseShellWordsOptions,
  parseShellWords,
  type ShellParse,
  type ShellSimpleCommand,
  type ShellWord,
} from './shell-words.js';
export { argumentEnvName } from './tool-arguments.js';
