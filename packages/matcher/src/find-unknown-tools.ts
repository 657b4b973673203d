import type { RuleSpec } from './compile-rules.js';
import { closestMatch, type ToolAliases } from './suggest.js';

/** A `tool` value that names no known tool. */
export interface UnknownTool {
  /** Index into the rules given. */
  ruleIndex: number;
  /** JSON path relative to the rule: `['matcher']`, `['matcher', 'tool']` or `['matcher', 'tool', i]`. */
  path: (string | number)[];
  /** The value as written. */
  tool: string;
  /** A known tool it probably means (an alias from `toolAliases`, else closest by edit distance). */
  suggestion?: string;
}

/**
 * The `tool` values (bare-string shorthand included) that name no tool in `knownTools`, with a
 * "did you mean". A warning, not an error (spec §1.2): the loader does not know the tools, the engine
 * and `hooks validate` do. Malformed matchers are skipped (compileRules reports them).
 */
export function findUnknownTools(
  rules: readonly RuleSpec[],
  knownTools: readonly string[],
  options: { toolAliases?: ToolAliases } = {},
): UnknownTool[] {
  const aliases = options.toolAliases ?? {};
  const known = new Set(knownTools);
  const unknown: UnknownTool[] = [];
  const check = (ruleIndex: number, path: (string | number)[], tool: unknown): void => {
    if (typeof tool !== 'string' || known.has(tool)) return;
    const alias = Object.hasOwn(aliases, tool) ? aliases[tool] : undefined;
    const suggestion =
      alias !== undefined && known.has(alias) ? alias : closestMatch(tool, knownTools);
    unknown.push({ ruleIndex, path, tool, ...(suggestion === undefined ? {} : { suggestion }) });
  };
  for (const [ruleIndex, rule] of rules.entries()) {
    const matcher: unknown = rule.matcher;
    if (typeof matcher === 'string') {
      check(ruleIndex, ['matcher'], matcher);
    } else if (typeof matcher === 'object' && matcher !== null && 'tool' in matcher) {
      const tool: unknown = matcher.tool;
      if (Array.isArray(tool)) {
        for (const [index, item] of tool.entries())
          check(ruleIndex, ['matcher', 'tool', index], item);
      } else {
        check(ruleIndex, ['matcher', 'tool'], tool);
      }
    }
  }
  return unknown;
}
