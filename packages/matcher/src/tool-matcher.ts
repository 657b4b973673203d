import { defineMatcher, type MatchPredicate } from './define-matcher.js';
import { nameListSchema, toNameArray } from './name-list.js';
import { suggestExactTools } from './suggest.js';
import { TOOL_CALL_EVENTS } from './tool-call-events.js';

/** `tool`: the tool call's canonical name equals one of the values exactly. */
export const toolMatcher = defineMatcher({
  type: 'tool',
  events: TOOL_CALL_EVENTS,
  optionsSchema: nameListSchema({ key: 'tool', noun: 'tool name', suggest: suggestExactTools }),
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
