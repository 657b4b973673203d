import { defineMatcher, type MatchPredicate } from './define-matcher.js';
import { nameListSchema, toNameArray } from './name-list.js';
import { suggestExactTools, type ToolAliases } from './suggest.js';
import { TOOL_CALL_EVENTS } from './tool-call-events.js';

/**
 * The `tool` matcher type whose "write the exact names" suggestions map other agents' tool names
 * to ours through `toolAliases` (e.g. Claude Code's `Edit|Write` → `["edit_file", "write_file"]`).
 */
export function createToolMatcher(options: { toolAliases?: ToolAliases } = {}) {
  const { toolAliases } = options;
  const definition = defineMatcher({
    type: 'tool',
    events: TOOL_CALL_EVENTS,
    optionsSchema: nameListSchema({
      key: 'tool',
      noun: 'tool name',
      suggest: (value) => suggestExactTools(value, toolAliases),
    }),
    create(options) {
      const names = toNameArray(options);
      const wanted = new Set(names);
      const expected = names.join(' | ');
      const predicate: MatchPredicate = (subject) =>
        subject.tool !== undefined && wanted.has(subject.tool);
      predicate.describeMiss = (subject) => ({ expected, actual: subject.tool ?? '(no tool)' });
      return predicate;
    },
  });
  TOOL_MATCHERS.add(definition);
  return definition;
}

// Every `tool` matcher type made here (with or without aliases): the rule index treats them alike.
const TOOL_MATCHERS = new WeakSet<object>();

/** @internal True for a `tool` matcher type of {@link createToolMatcher}. */
export function isToolMatcher(definition: object): boolean {
  return TOOL_MATCHERS.has(definition);
}

/** `tool`: the tool call's canonical name equals one of the values exactly (no aliases). */
export const toolMatcher = createToolMatcher();
