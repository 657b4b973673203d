export { builtInMatchers, createBuiltInMatchers } from './built-in-matchers.js';
export { type CompileRulesOptions, compileRules, type RuleSpec } from './compile-rules.js';
export {
  type AnyMatcherDefinition,
  defineMatcher,
  type MatcherContext,
  type MatcherDefinition,
  type MatchMiss,
  type MatchPredicate,
  type MatchSubject,
} from './define-matcher.js';
export { findUnknownTools, type UnknownTool } from './find-unknown-tools.js';
export {
  MATCHER_ERROR_CODES,
  MatcherError,
  type MatcherErrorCode,
  type MatcherErrorOptions,
} from './matcher-error.js';
export { createMatcherRegistry, type MatcherRegistry } from './matcher-registry.js';
export { mcpServerMatcher } from './mcp-server-matcher.js';
export { type NameList, nameListSchema, PLAIN_NAME_PATTERN } from './name-list.js';
export { isPathUnder, normalizePathPrefix } from './path-forms.js';
export { pathPrefixMatcher, suggestPathPrefix } from './path-prefix-matcher.js';
export type { GuardedPrefix, GuardReader, RuleExplanation, RuleIndex } from './rule-index.js';
export { closestMatch, suggestExactTools, type ToolAliases } from './suggest.js';
export { tagMatcher } from './tag-matcher.js';
export { TOOL_CALL_EVENTS } from './tool-call-events.js';
export { createToolMatcher, toolMatcher } from './tool-matcher.js';
