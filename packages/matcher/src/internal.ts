// @soong-agent/matcher/internal
//
// NOT PUBLIC API. A seam between the @soong-agent packages (config builds on it), which move in
// lockstep with this exact version: it may change in any release, patches included, without
// notice. Application code imports `@soong-agent/matcher`.

export { mcpServerOf } from './mcp-server-matcher.js';
export { MAX_SHOWN_CHARACTERS, showValue } from './show-value.js';
