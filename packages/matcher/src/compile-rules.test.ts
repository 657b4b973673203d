import { describe, expect, it } from 'vitest';
import { compileRules, type RuleSpec } from './compile-rules.js';
import { defineMatcher } from './define-matcher.js';
import { MatcherError } from './matcher-error.js';
import { createMatcherRegistry } from './matcher-registry.js';
import { BUILT_IN_REGISTRY } from './test-helpers/registry.js';
import { toolMatcher } from './tool-matcher.js';

const CONTEXT = { registry: BUILT_IN_REGISTRY, projectDir: '/work/project', homeDir: '/home/user' };

function compile(rules: readonly RuleSpec[]) {
  return compileRules(rules, CONTEXT);
}

function compileError(matcher: unknown, event = 'PreToolUse'): MatcherError {
  try {
    compileRules([{ event: 'PreToolUse' }, { event, matcher }], CONTEXT);
  } catch (error) {
    if (MatcherError.isInstance(error)) return error;
    throw error;
  }
  throw new Error(`compileRules accepted ${JSON.stringify(matcher)}`);
}

describe('compileRules', () => {
  it('matches any of the values within a key when one equals the subject', () => {
    const index = compile([
      { event: 'PreToolUse', matcher: { tool: ['edit_file', 'write_file'] } },
    ]);
    expect(index.match({ event: 'PreToolUse', tool: 'write_file' })).toEqual([0]);
    expect(index.match({ event: 'PreToolUse', tool: 'edit_file' })).toEqual([0]);
    expect(index.match({ event: 'PreToolUse', tool: 'bash' })).toEqual([]);
  });

  it('requires every key to match when a matcher has several', () => {
    const index = compile([{ event: 'PreToolUse', matcher: { tool: 'bash', tag: 'dangerous' } }]);
    expect(
      index.match({ event: 'PreToolUse', tool: 'bash', tags: ['write', 'dangerous'] }),
    ).toEqual([0]);
    expect(index.match({ event: 'PreToolUse', tool: 'bash', tags: ['write'] })).toEqual([]);
    expect(index.match({ event: 'PreToolUse', tool: 'grep', tags: ['dangerous'] })).toEqual([]);
  });

  it('matches every occurrence of the event when the rule has no matcher or an empty one', () => {
    const index = compile([{ event: 'Stop' }, { event: 'PreToolUse', matcher: {} }]);
    expect(index.match({ event: 'Stop' })).toEqual([0]);
    expect(index.match({ event: 'PreToolUse' })).toEqual([1]);
    expect(index.match({ event: 'PreToolUse', tool: 'anything', paths: ['/x'] })).toEqual([1]);
  });

  it('compares tool names and tags exactly when they differ only in case or by a prefix', () => {
    const index = compile([
      { event: 'PreToolUse', matcher: { tool: 'bash' } },
      { event: 'PreToolUse', matcher: { tag: 'write' } },
    ]);
    expect(index.match({ event: 'PreToolUse', tool: 'Bash' })).toEqual([]);
    expect(index.match({ event: 'PreToolUse', tool: 'bash2' })).toEqual([]);
    expect(index.match({ event: 'PreToolUse', tool: 'x', tags: ['writer', 'WRITE'] })).toEqual([]);
  });

  it('treats a bare string matcher as a tool name when given the shorthand', () => {
    const index = compile([{ event: 'PostToolUse', matcher: 'bash' }]);
    expect(index.match({ event: 'PostToolUse', tool: 'bash' })).toEqual([0]);
    expect(index.match({ event: 'PostToolUse', tool: 'grep' })).toEqual([]);
  });

  it('returns only rules of the subject event, in configuration order, when events are mixed', () => {
    const index = compile([
      { event: 'PreToolUse', matcher: 'bash' },
      { event: 'PostToolUse', matcher: 'bash' },
      { event: 'PreToolUse' },
      { event: 'PreToolUse', matcher: { tag: 'dangerous' } },
      { event: 'PreToolUse', matcher: { tool: ['grep', 'bash'] } },
    ]);
    expect(index.match({ event: 'PreToolUse', tool: 'bash', tags: ['dangerous'] })).toEqual([
      0, 2, 3, 4,
    ]);
    expect(index.match({ event: 'PostToolUse', tool: 'bash' })).toEqual([1]);
    expect(index.rulesFor('PreToolUse')).toEqual([0, 2, 3, 4]);
    expect(index.rulesFor('Stop')).toEqual([]);
    expect(index.size).toBe(5);
  });

  it('returns a shared frozen empty array when nothing matches', () => {
    const index = compile([{ event: 'PreToolUse', matcher: 'bash' }]);
    const none = index.match({ event: 'Stop' });
    expect(none).toEqual([]);
    expect(Object.isFrozen(none)).toBe(true);
    expect(index.match({ event: 'PreToolUse', tool: 'grep' })).toBe(none);
  });

  it('returns a fresh array each call when rules match', () => {
    const index = compile([{ event: 'Stop' }]);
    const first = index.match({ event: 'Stop' });
    first.push(99);
    expect(index.match({ event: 'Stop' })).toEqual([0]);
  });

  it('explains every rule of the event with the first failing criterion in key order', () => {
    const index = compile([
      { event: 'PreToolUse', matcher: { tool: ['edit_file', 'write_file'], tag: 'write' } },
      { event: 'PreToolUse', matcher: { tag: 'write', tool: 'bash' } },
      { event: 'PreToolUse', matcher: { tool: 'bash' } },
      { event: 'Stop' },
    ]);
    expect(index.explain({ event: 'PreToolUse', tool: 'bash', tags: ['dangerous'] })).toEqual([
      {
        ruleIndex: 0,
        matched: false,
        criterion: 'tool',
        expected: 'edit_file | write_file',
        actual: 'bash',
      },
      { ruleIndex: 1, matched: false, criterion: 'tag', expected: 'write', actual: 'dangerous' },
      { ruleIndex: 2, matched: true },
    ]);
    expect(index.explain({ event: 'PreToolUse' })[0]).toMatchObject({ actual: '(no tool)' });
    expect(index.explain({ event: 'PreToolUse', tool: 'edit_file' })[0]).toMatchObject({
      criterion: 'tag',
      actual: '(no tags)',
    });
    expect(index.explain({ event: 'SessionStart' })).toEqual([]);
  });

  it('explains a third-party criterion that returns false with its options and "(no match)"', () => {
    const even = defineMatcher({
      type: 'even_length',
      optionsSchema: toolMatcher.optionsSchema,
      create: () => (subject) => (subject.tool ?? '').length % 2 === 0,
    });
    const index = compileRules([{ event: 'PreToolUse', matcher: { even_length: ['a', 'b'] } }], {
      ...CONTEXT,
      registry: createMatcherRegistry([even]),
    });
    expect(index.match({ event: 'PreToolUse', tool: 'ab' })).toEqual([0]);
    expect(index.explain({ event: 'PreToolUse', tool: 'abc' })).toEqual([
      {
        ruleIndex: 0,
        matched: false,
        criterion: 'even_length',
        expected: 'a | b',
        actual: '(no match)',
      },
    ]);
  });

  it('uses the registry it is given and no other types when one is passed', () => {
    const registry = createMatcherRegistry([toolMatcher]);
    expect(() =>
      compileRules([{ event: 'PreToolUse', matcher: { tag: 'write' } }], { ...CONTEXT, registry }),
    ).toThrow(expect.objectContaining({ code: 'UNKNOWN_MATCHER_TYPE' }));
  });

  it.each([42, null, ['bash'], true])(
    'rejects the matcher %j with INVALID_MATCHER at ["matcher"]',
    (matcher) => {
      const error = compileError(matcher);
      expect(error.code).toBe('INVALID_MATCHER');
      expect(error.ruleIndex).toBe(1);
      expect(error.path).toEqual(['matcher']);
      expect(error.value).toEqual(matcher);
    },
  );

  it('rejects an unknown key with UNKNOWN_MATCHER_TYPE and a did-you-mean when it is a typo', () => {
    const error = compileError({ tool: 'bash', tols: 'x' });
    expect(error.code).toBe('UNKNOWN_MATCHER_TYPE');
    expect(error.path).toEqual(['matcher', 'tols']);
    expect(error.value).toBe('tols');
    expect(error.suggestion).toBe('tool');
    expect(compileError({ pathprefix: 'src' }).suggestion).toBe('path_prefix');
    expect(compileError({ regex: 'x' }).suggestion).toBeUndefined();
  });

  it.each([
    ['path', 'path_prefix'],
    ['prefix', 'path_prefix'],
    ['mcp', 'mcp_server'],
    ['server', 'mcp_server'],
  ])('suggests the type %s is one word of when no type is a near spelling', (key, type) => {
    expect(compileError({ [key]: 'src' }).suggestion).toBe(type);
    expect(compileError({ [key]: 'src' }).message).toContain(`did you mean "${type}"?`);
  });

  it.each([
    ['tool', 'Stop'],
    ['tag', 'SessionStart'],
    ['path_prefix', 'UserPromptSubmit'],
    ['mcp_server', 'Stop'],
  ])('rejects %s on %s with INVALID_MATCHER because the event has no tool call', (key, event) => {
    const error = compileError({ [key]: 'x' }, event);
    expect(error.code).toBe('INVALID_MATCHER');
    expect(error.path).toEqual(['matcher', key]);
  });

  it('rejects the bare-string shorthand on an event without tool calls at ["matcher"]', () => {
    const error = compileError('bash', 'Stop');
    expect(error.code).toBe('INVALID_MATCHER');
    expect(error.path).toEqual(['matcher']);
  });

  it('rejects a regex-looking tool with the exact-match rewrite in its message', () => {
    const error = compileError({ tool: 'Edit|Write' });
    expect(error.code).toBe('INVALID_MATCHER_OPTIONS');
    expect(error.path).toEqual(['matcher', 'tool']);
    expect(error.value).toBe('Edit|Write');
    expect(error.suggestion).toEqual(['edit_file', 'write_file']);
    expect(error.message).toBe(
      '"Edit|Write" looks like a regex or glob; matchers are exact — write ["edit_file", "write_file"]',
    );
  });

  it.each([
    [{ tool: ['bash', 'Edit|Write'] }, ['matcher', 'tool', 1], ['edit_file', 'write_file']],
    ['^Bash$', ['matcher'], ['bash']],
    [{ tool: '.*' }, ['matcher', 'tool'], []],
    [{ tag: 'write|dangerous' }, ['matcher', 'tag'], ['write', 'dangerous']],
    [{ tag: ['ok', 'te?t'] }, ['matcher', 'tag', 1], []],
    [{ path_prefix: 'src/**' }, ['matcher', 'path_prefix'], 'src'],
    [{ path_prefix: ['docs', 'src/*.ts'] }, ['matcher', 'path_prefix', 1], 'src'],
  ])(
    'rejects the pattern-looking %j at the exact path with a suggestion',
    (matcher, path, suggestion) => {
      const error = compileError(matcher);
      expect(error.code).toBe('INVALID_MATCHER_OPTIONS');
      expect(error.path).toEqual(path);
      expect(error.suggestion).toEqual(suggestion);
    },
  );

  it.each([
    [{ tool: [] }, ['matcher', 'tool']],
    [{ tool: '' }, ['matcher', 'tool']],
    [{ tool: 7 }, ['matcher', 'tool']],
    [{ tool: ['bash', 1] }, ['matcher', 'tool', 1]],
    [{ tool: 'edit file' }, ['matcher', 'tool']],
    [{ tag: ['write', 'a+b'] }, ['matcher', 'tag', 1]],
    [{ tag: { name: 'x' } }, ['matcher', 'tag']],
    [{ path_prefix: '' }, ['matcher', 'path_prefix']],
    [{ path_prefix: ['src', null] }, ['matcher', 'path_prefix', 1]],
    [{ path_prefix: '~alice/src' }, ['matcher', 'path_prefix']],
    [{ path_prefix: '   ' }, ['matcher', 'path_prefix']],
    [{ path_prefix: ['docs', 'src '] }, ['matcher', 'path_prefix', 1]],
    [{ path_prefix: '\tsrc' }, ['matcher', 'path_prefix']],
  ])(
    'rejects the invalid options %j with INVALID_MATCHER_OPTIONS at the precise path',
    (matcher, path) => {
      const error = compileError(matcher);
      expect(error.code).toBe('INVALID_MATCHER_OPTIONS');
      expect(error.ruleIndex).toBe(1);
      expect(error.path).toEqual(path);
    },
  );

  it.each([
    [
      { tool: '' },
      'expected a non-empty tool name; write the exact tool name, or remove the "tool" key',
    ],
    [
      { tool: [] },
      'expected at least one tool name; list the exact tool names, or remove the "tool" key',
    ],
    [{ tag: [''] }, 'expected a non-empty tag; write the exact tag, or remove the "tag" key'],
    [{ path_prefix: '' }, 'expected a non-empty path prefix; write a folder such as "src"'],
    [
      { path_prefix: [] },
      'expected at least one path prefix; list the folders, or remove the "path_prefix" key',
    ],
    [{ path_prefix: ' ' }, 'is only white space; write a folder such as "src"'],
    [
      { path_prefix: ' src/' },
      'starts or ends with white space, so it would name another folder; write "src/"',
    ],
  ])('says what to write instead when the value %j is empty or padded', (matcher, text) => {
    const error = compileError(matcher);
    expect(error.code).toBe('INVALID_MATCHER_OPTIONS');
    expect(error.message).toContain(text);
  });

  it.each([
    ['Edit|Write', 'write { "tool": ["edit_file", "write_file"] }'],
    ['^Bash$', 'write "bash"'],
    [
      '*',
      'list the exact tool names as { "tool": ["bash", …] }, or remove "matcher" to match every tool',
    ],
    ['', 'write one such as "bash", or remove "matcher" to match every tool'],
    ['edit file', 'write one such as "bash", or remove "matcher" to match every tool'],
  ])(
    'gives a fix without a "tool" key when the bare-string matcher %j is invalid',
    (matcher, fix) => {
      const error = compileError(matcher);
      expect(error.code).toBe('INVALID_MATCHER_OPTIONS');
      expect(error.path).toEqual(['matcher']);
      expect(error.message).toContain(fix);
      expect(error.message).not.toContain('"tool" key');
    },
  );

  it.each([
    ['**/.env', undefined],
    ['*.pem', undefined],
    ['.env*', undefined],
    ['src/*.key', 'src'],
    ['config/**/secrets.json', 'config'],
  ])(
    'says to match the tools and check the name in the hook when path_prefix %j picks files by name',
    (prefix, folder) => {
      const error = compileError({ path_prefix: prefix });
      expect(error.code).toBe('INVALID_MATCHER_OPTIONS');
      expect(error.message).toContain('match the tools instead');
      expect(error.message).toContain('check the file name in the hook');
      expect(error.suggestion).toBe(folder);
      if (folder !== undefined) expect(error.message).toContain(`"path_prefix": "${folder}"`);
    },
  );

  it.each([
    ['src/**', 'src'],
    ['src/*', 'src'],
    ['src/**/*', 'src'],
  ])(
    'suggests the folder alone when path_prefix %j covers everything under it',
    (prefix, folder) => {
      const error = compileError({ path_prefix: prefix });
      expect(error.message).toContain(`write "${folder}"`);
      expect(error.message).not.toContain('check the file name');
    },
  );

  it('names the tool of the bare-string shorthand when it is used on an event without tool calls', () => {
    expect(compileError('bash', 'Stop').message).toBe(
      'the tool name "bash" (short for { "tool": "bash" }) can never match on Stop: Stop has no tool ' +
        'call, and the tool matcher applies only to PreToolUse, PostToolUse, PostToolUseFailure — ' +
        'remove it or move the rule to PreToolUse, PostToolUse, PostToolUseFailure',
    );
  });

  it('throws a MatcherError with a short message when the matcher is nested too deeply to print', () => {
    let nested: unknown = [];
    for (let depth = 0; depth < 200_000; depth++) nested = [nested];
    for (const matcher of [nested, { tool: nested }, { path_prefix: [nested] }]) {
      const error = compileError(matcher);
      expect(error.code).toMatch(/^INVALID_MATCHER/);
      expect(error.message.length).toBeLessThan(400);
    }
  });

  it('accepts names with letters, digits and _ . : - when they are plain', () => {
    const index = compile([
      { event: 'PreToolUse', matcher: { tool: ['mcp:github.create-issue_2'], tag: 'ci.lint' } },
    ]);
    expect(
      index.match({ event: 'PreToolUse', tool: 'mcp:github.create-issue_2', tags: ['ci.lint'] }),
    ).toEqual([0]);
  });

  it('adds the rule index and path when a type create() throws a MatcherError itself', () => {
    const strict = defineMatcher({
      type: 'strict',
      optionsSchema: toolMatcher.optionsSchema,
      create: () => {
        throw new MatcherError({
          code: 'INVALID_MATCHER_OPTIONS',
          message: 'no',
          path: [0],
          suggestion: 'x',
        });
      },
    });
    try {
      compileRules([{ event: 'Stop' }, { event: 'Stop', matcher: { strict: ['a'] } }], {
        ...CONTEXT,
        registry: createMatcherRegistry([strict]),
      });
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({
        code: 'INVALID_MATCHER_OPTIONS',
        ruleIndex: 1,
        path: ['matcher', 'strict', 0],
        suggestion: 'x',
      });
    }
  });

  it('rejects a third-party type on an event outside its events with INVALID_MATCHER', () => {
    const stopOnly = defineMatcher({
      type: 'stop_only',
      events: ['Stop'],
      optionsSchema: toolMatcher.optionsSchema,
      create: () => () => true,
    });
    const registry = createMatcherRegistry([stopOnly]);
    expect(
      compileRules([{ event: 'Stop', matcher: { stop_only: 'a' } }], { ...CONTEXT, registry }).size,
    ).toBe(1);
    expect(() =>
      compileRules([{ event: 'PreToolUse', matcher: { stop_only: 'a' } }], {
        ...CONTEXT,
        registry,
      }),
    ).toThrow(expect.objectContaining({ code: 'INVALID_MATCHER', path: ['matcher', 'stop_only'] }));
  });

  it('wraps an error thrown by a type create() into INVALID_MATCHER_OPTIONS with the cause', () => {
    const cause = new Error('boom');
    const broken = defineMatcher({
      type: 'broken',
      optionsSchema: toolMatcher.optionsSchema,
      create: () => {
        throw cause;
      },
    });
    try {
      compileRules([{ event: 'Stop', matcher: { broken: 'x' } }], {
        ...CONTEXT,
        registry: createMatcherRegistry([broken]),
      });
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({
        code: 'INVALID_MATCHER_OPTIONS',
        ruleIndex: 0,
        path: ['matcher', 'broken'],
        cause,
      });
    }
  });
});
