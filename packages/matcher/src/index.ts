// @soong-agent/matcher: the public API. Everything here is semver-covered.
// A registry of matcher types third parties extend (spec §0, §1.2): `defineMatcher` a type, build
// the registry from a list (`createMatcherRegistry([...builtInMatchers, mine])`), compile rules.
// Deliberately not exported: each built-in matcher alone (they are in `builtInMatchers`), the name
// list schema and the spelling suggestions behind the error messages. Sibling packages reach what
// they share through `@soong-agent/matcher/internal`, which is not public.

export { builtInMatchers } from './built-in-matchers.js';
// Compiling and querying rules.
export { type CompileRulesOptions, compileRules, type RuleSpec } from './compile-rules.js';
// Matcher types and the registry.
export {
  type AnyMatcherDefinition,
  defineMatcher,
  type MatcherContext,
  type MatcherDefinition,
  type MatchMiss,
  type MatchPredicate,
  type MatchSubject,
} from './define-matcher.js';
// Errors.
export {
  MATCHER_ERROR_CODES,
  MatcherError,
  type MatcherErrorCode,
} from './matcher-error.js';
export { createMatcherRegistry, type MatcherRegistry } from './matcher-registry.js';
export type { RuleIndex } from './rule-index.js';
export { closestMatch } from './suggest.js';
export { TOOL_CALL_EVENTS } from './tool-call-events.js';
