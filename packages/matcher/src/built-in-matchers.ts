import type { AnyMatcherDefinition } from './define-matcher.js';
import { mcpServerMatcher } from './mcp-server-matcher.js';
import { pathPrefixMatcher } from './path-prefix-matcher.js';
import { tagMatcher } from './tag-matcher.js';
import { toolMatcher } from './tool-matcher.js';

/** The built-in matcher types, in this order: `tool`, `tag`, `path_prefix`, `mcp_server`. Frozen. */
export const builtInMatchers: readonly AnyMatcherDefinition[] = Object.freeze([
  toolMatcher,
  tagMatcher,
  pathPrefixMatcher,
  mcpServerMatcher,
]);
