export { codexPatch } from './codex.js';
export { CLAUDE_CODE_DEFAULT_TIMEOUT_SECONDS, convertClaudeCodeConfig } from './convert/claude.js';
export type {
  BuiltInDialectName,
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
  DIALECT_NAMES,
  dialectToolName,
  getDialect,
  hasDialect,
  registerDialect,
} from './registry.js';
