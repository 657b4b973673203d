import { describe, expect, it } from 'vitest';
import { closestMatch, splitAlternatives, suggestExactTools } from './suggest.js';
import { TEST_TOOL_ALIASES } from './test-helpers/registry.js';

describe('suggestExactTools', () => {
  it.each([
    ['Edit|Write', ['edit_file', 'write_file']],
    ['Edit|MultiEdit|Write', ['edit_file', 'write_file']],
    ['^Bash$', ['bash']],
    ['(Read|Grep|LS)', ['read_file', 'grep', 'list_dir']],
    ['\\bBash\\b', ['bash']],
    ['Bash | my_tool', ['bash', 'my_tool']],
    ['mcp__github__create_issue|Bash', ['mcp__github__create_issue', 'bash']],
    ['Glob|Task', ['Glob', 'Task']],
  ])('suggests the exact names when given %j', (value, expected) => {
    expect(suggestExactTools(value, TEST_TOOL_ALIASES)).toEqual(expected);
  });

  it('keeps every name as written when the caller passes no aliases (the matcher knows none)', () => {
    expect(suggestExactTools('Edit|Write')).toEqual(['Edit', 'Write']);
  });

  it.each(['.*', '*', '.+', 'mcp__.*', '|'])(
    'suggests nothing when %j is only a wildcard',
    (value) => {
      expect(suggestExactTools(value)).toEqual([]);
    },
  );
});

describe('splitAlternatives', () => {
  it('keeps names as written without aliasing when splitting', () => {
    expect(splitAlternatives('Edit|write|Edit')).toEqual(['Edit', 'write']);
  });
});

describe('closestMatch', () => {
  const tools = ['bash', 'read_file', 'write_file', 'edit_file', 'grep', 'list_dir'];

  it.each([
    ['edit_fiel', 'edit_file'],
    ['edti_file', 'edit_file'],
    ['Bash', 'bash'],
    ['bsh', 'bash'],
    ['writefile', 'write_file'],
  ])('finds %j → %j when it is within the distance threshold', (value, expected) => {
    expect(closestMatch(value, tools)).toBe(expected);
  });

  it('returns the value itself when it is a candidate', () => {
    expect(closestMatch('grep', tools)).toBe('grep');
  });

  it('returns undefined when nothing is close', () => {
    expect(closestMatch('deploy_to_production', tools)).toBeUndefined();
    expect(closestMatch('x', [])).toBeUndefined();
  });

  it('prefers the earlier candidate when two are equally close', () => {
    expect(closestMatch('tab', ['tag', 'tap'])).toBe('tag');
  });
});
