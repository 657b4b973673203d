// @soong-agent/matcher/internal
//
// NOT PUBLIC API. A seam between the @soong-agent packages (config builds on it), which move in
// lockstep with this exact version: it may change in any release, patches included, without
// notice. Application code imports `@soong-agent/matcher`.

export { createBuiltInMatchers } from './built-in-matchers.js';
export { findUnknownTools } from './find-unknown-tools.js';
export { mcpServerOf } from './mcp-server-matcher.js';
export { PLAIN_NAME_PATTERN } from './name-list.js';
export type { GuardedPrefix, GuardReader, RuleExplanation } from './rule-index.js';
export { MAX_SHOWN_CHARACTERS, showValue } from './show-value.js';
export type { ToolAliases } from './suggest.js';
