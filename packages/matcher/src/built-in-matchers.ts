import type { AnyMatcherDefinition } from './define-matcher.js';
import { mcpServerMatcher } from './mcp-server-matcher.js';
import { pathPrefixMatcher } from './path-prefix-matcher.js';
import type { ToolAliases } from './suggest.js';
import { tagMatcher } from './tag-matcher.js';
import { createToolMatcher, toolMatcher } from './tool-matcher.js';

/** The built-in matcher types, in this order: `tool`, `tag`, `path_prefix`, `mcp_server`. Frozen. */
export const builtInMatchers: readonly AnyMatcherDefinition[] = Object.freeze([
  toolMatcher,
  tagMatcher,
  pathPrefixMatcher,
  mcpServerMatcher,
]);

/**
 * The built-in matcher types with the `tool` type's suggestions mapping `toolAliases` (other
 * agents' tool names → ours). Frozen.
 */
export function createBuiltInMatchers(
  options: { toolAliases?: ToolAliases } = {},
): readonly AnyMatcherDefinition[] {
  const tool = createToolMatcher(options);
  return Object.freeze(
    builtInMatchers.map((definition) => (definition.type === 'tool' ? tool : definition)),
  );
}
