// @soong-agent/dialects: the public API (spec §12). Everything here is semver-covered.
// Deliberately not exported: each dialect's object and helpers (reach a dialect through
// `getDialect(name)`), its tool catalogs and byte bounds. Sibling packages reach what they share
// (the Claude Code tool view, the soong dialect, tool-name aliases) through
// `@soong-agent/dialects/internal`, which is not public.

// Importing a Claude Code settings file.
export { convertClaudeCodeConfig } from './convert/claude.js';

// What a dialect is, for one a third party adds.
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
// Errors.
export {
  DIALECT_ERROR_CODES,
  DialectError,
  type DialectErrorCode,
} from './dialect-error.js';
// The registry.
export {
  builtInDialects,
  createDialectRegistry,
  DIALECT_NAMES,
  type DialectRegistry,
  defaultDialectRegistry,
  getDialect,
  hasDialect,
  registerDialect,
} from './registry.js';
