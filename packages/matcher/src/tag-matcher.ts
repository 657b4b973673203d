import { defineMatcher, type MatchPredicate } from './define-matcher.js';
import { nameListSchema, toNameArray } from './name-list.js';
import { splitAlternatives } from './suggest.js';
import { TOOL_CALL_EVENTS } from './tool-call-events.js';

/** `tag`: one of the tool's tags (which include its risk class) equals one of the values exactly. */
export const tagMatcher = defineMatcher({
  type: 'tag',
  events: TOOL_CALL_EVENTS,
  optionsSchema: nameListSchema({ key: 'tag', noun: 'tag', suggest: splitAlternatives }),
  create(options) {
    const names = toNameArray(options);
    const wanted = new Set(names);
    const expected = names.join(' | ');
    const predicate: MatchPredicate = (subject) => {
      const tags = subject.tags;
      if (tags !== undefined) {
        for (const tag of tags) if (wanted.has(tag)) return true;
      }
      return false;
    };
    predicate.describeMiss = ({ tags }) => ({
      expected,
      actual: tags === undefined || tags.length === 0 ? '(no tags)' : tags.join(', '),
    });
    return predicate;
  },
});
