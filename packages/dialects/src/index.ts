export {
  CLAUDE_CODE_OUR_TOOL_NAMES,
  CLAUDE_CODE_TOOL_INPUT_BYTES,
  CLAUDE_CODE_TOOL_NAMES,
  claudeCodeDialect,
  claudeCodeToolName,
  claudeCodeView,
  toClaudeCodeToolInput,
} from './claude-code.js';
export { codexPatch } from './codex.js';
export { CLAUDE_CODE_DEFAULT_TIMEOUT_SECONDS, convertClaudeCodeConfig } from './convert/claude.js';
export type {
  BuiltInDialectName,
  ConvertedScript,
  ConvertOptions,
  ConvertResult,
  Dialect,
  DialectContext,
  DialectLog,
  DialectRun,
  DialectToolView,
  DialectVerdict,
} from './dialect.js';
export {
  DIALECT_ERROR_CODES,
  DialectError,
  type DialectErrorCode,
  type DialectErrorOptions,
} from './dialect-error.js';
export {
  builtInDialects,
  createDialectRegistry,
  DIALECT_NAMES,
  type DialectRegistry,
  defaultDialectRegistry,
  dialectToolName,
  getDialect,
  hasDialect,
  registerDialect,
} from './registry.js';
export { soongDialect, soongExitMessage } from './soong.js';
export { dialectToolAliases } from './tool-names.js';
