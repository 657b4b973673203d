import { claudeCodeDialect, dialectToolAliases } from '@soong-agent/dialects/internal';
import { createMatcherRegistry, type MatcherRegistry } from '@soong-agent/matcher';
import { createBuiltInMatchers, type ToolAliases } from '@soong-agent/matcher/internal';

/**
 * Other agents' tool names → ours that config's messages understand: Claude Code's (`Bash`,
 * `Edit|Write`, `MultiEdit`), the names people paste from their settings. From the Claude Code
 * dialect of `@soong-agent/dialects`, the one table of them.
 */
export const CONFIG_TOOL_ALIASES: ToolAliases = dialectToolAliases(claudeCodeDialect);

/** The default matcher registry: the built-in types, the `tool` type with those aliases. */
export function defaultMatcherRegistry(): MatcherRegistry {
  return createMatcherRegistry(createBuiltInMatchers({ toolAliases: CONFIG_TOOL_ALIASES }));
}
