import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type HookOutput,
  MAX_JSON_DEPTH,
  ProtocolError,
  parseHookOutput,
  safeParseHookOutput,
} from './index.js';

function expectInvalid(stdout: string) {
  const result = safeParseHookOutput(stdout);
  if (result.success) throw new Error(`expected a failure for ${JSON.stringify(stdout)}`);
  expect(ProtocolError.isInstance(result.error)).toBe(true);
  expect(result.error.code).toBe('INVALID_HOOK_OUTPUT');
  return result;
}

describe('safeParseHookOutput', () => {
  it.each(['', ' ', '\n', '\r\n\t  \n', '\uFEFF'])(
    'returns no decision when stdout is %j',
    (stdout) => {
      expect(safeParseHookOutput(stdout)).toEqual({ success: true, output: null, unknownKeys: [] });
    },
  );

  it('returns the output when stdout is a valid allow', () => {
    expect(safeParseHookOutput('{"decision":"allow"}\n')).toEqual({
      success: true,
      output: { decision: 'allow' },
      unknownKeys: [],
    });
  });

  it('returns the context and reports no unknown key when stdout carries context', () => {
    expect(safeParseHookOutput('{"decision":"allow","context":"use pnpm"}')).toEqual({
      success: true,
      output: { decision: 'allow', context: 'use pnpm' },
      unknownKeys: [],
    });
  });

  it('fails when context is not a string', () => {
    expectInvalid('{"decision":"allow","context":["a"]}');
  });

  it('returns every known field when stdout is a full deny', () => {
    const output = {
      decision: 'deny',
      reason: 'secrets/ is off limits',
      metadata: { rule: 'secrets', depth: { a: [1, null] } },
      logs: ['one', 'two'],
    };
    expect(safeParseHookOutput(JSON.stringify(output, null, 2))).toEqual({
      success: true,
      output,
      unknownKeys: [],
    });
  });

  it('drops and reports unknown keys when the output has them', () => {
    const result = safeParseHookOutput(
      '{"continue":false,"decision":"deny","hookSpecificOutput":{},"reason":"r"}',
    );
    expect(result).toEqual({
      success: true,
      output: { decision: 'deny', reason: 'r' },
      unknownKeys: ['continue', 'hookSpecificOutput'],
    });
  });

  it('keeps metadata keys verbatim when one of them is __proto__', () => {
    const result = parseHookOutput('{"decision":"allow","metadata":{"__proto__":{"x":1},"a":2}}');
    const metadata = result?.metadata as Record<string, unknown>;
    expect(Object.keys(metadata)).toEqual(['__proto__', 'a']);
    expect(Object.getOwnPropertyDescriptor(metadata, '__proto__')?.value).toEqual({ x: 1 });
    expect(Object.getPrototypeOf(metadata)).toBe(Object.prototype);
  });

  it('accepts the output when it starts with a byte order mark', () => {
    expect(parseHookOutput('\uFEFF{"decision":"allow"}')).toEqual({ decision: 'allow' });
  });

  it.each([
    ['not JSON', 'hello'],
    ['truncated JSON', '{"decision":"deny"'],
    ['a JSON string', '"deny"'],
    ['a JSON number', '2'],
    ['JSON null', 'null'],
    ['a JSON array', '[{"decision":"deny"}]'],
    ['no decision', '{"reason":"why"}'],
    ['a Claude Code approve', '{"decision":"approve","reason":"why"}'],
    ['an upper-case allow', '{"decision":"ALLOW"}'],
    ['a decision that is not a string', '{"decision":["deny"]}'],
    ['a deny inside an array', '[{"decision":"deny"}]'],
    ['a deny nested in a key', '{"result":{"decision":"deny"}}'],
    ['a null reason', '{"decision":"allow","reason":null}'],
    ['metadata that is an array', '{"decision":"allow","metadata":[]}'],
    ['logs that is a string', '{"decision":"allow","logs":"line"}'],
    ['logs with a number', '{"decision":"allow","logs":["a",1]}'],
    ['two JSON objects', '{"decision":"allow"}\n{"decision":"allow"}'],
  ])('fails with INVALID_HOOK_OUTPUT when stdout is %s', (_what, stdout) => {
    const result = expectInvalid(stdout);
    expect(result.deny).toBeUndefined();
  });

  it('lists the bad fields as issues when a known field has the wrong type', () => {
    const result = expectInvalid('{"decision":"deny","reason":5,"logs":"x"}');
    expect(result.error.issues.map((issue) => issue.path)).toEqual([['reason'], ['logs']]);
  });

  it('keeps the JSON syntax error as the cause when stdout is not JSON', () => {
    const result = expectInvalid('{oops');
    expect(result.error.cause).toBeInstanceOf(SyntaxError);
    expect(result.error.issues).toEqual([]);
  });

  it('rescues the deny when only the last non-empty line is a valid deny', () => {
    const result = expectInvalid(
      'checking secrets/api.env\n{"decision":"deny","reason":"no"}\n\n  \n',
    );
    expect(result.deny).toEqual({ decision: 'deny', reason: 'no' });
  });

  it('rescues a deny without a reason when the last line is a bare deny', () => {
    const result = expectInvalid('log line\r\n{"decision":"deny"}\r\n');
    expect(result.deny).toEqual({ decision: 'deny' });
  });

  it('rescues nothing when the last non-empty line is a valid allow', () => {
    const result = expectInvalid('log line\n{"decision":"allow"}\n');
    expect(result.deny).toBeUndefined();
  });

  it('rescues the deny when a pretty-printed deny follows a log line, as jq . prints it', () => {
    const result = expectInvalid(
      'starting guard\n{\n  "decision": "deny",\n  "reason": "no rm"\n}\n',
    );
    expect(result.deny).toEqual({ decision: 'deny', reason: 'no rm' });
    expect(result.denyNote).toBe(
      'the deny stands (stdout holds other text besides the JSON object)',
    );
  });

  it('rescues nothing when a pretty-printed allow follows a log line', () => {
    expect(expectInvalid('starting guard\n{\n  "decision": "allow"\n}\n').deny).toBeUndefined();
  });

  it('rescues the deny when more logging follows it', () => {
    const result = expectInvalid('{"decision":"deny","reason":"no"}\nmore logging\n');
    expect(result.deny).toEqual({ decision: 'deny', reason: 'no' });
  });

  it('rescues the deny and drops the field when a deny has a wrongly typed field', () => {
    const result = expectInvalid('log\n{"decision":"deny","reason":["a"],"logs":["kept"]}');
    expect(result.deny).toEqual({ decision: 'deny', logs: ['kept'] });
    expect(result.denyNote).toContain('"reason"');
  });

  // A deny written slightly wrong is still a deny: each of these must not pass as an allow.
  it.each([
    [
      'a reason that is a number',
      '{"decision":"deny","reason":123}',
      { decision: 'deny' },
      'reason',
    ],
    [
      'an upper-case decision',
      '{"decision":"DENY","reason":"r"}',
      { decision: 'deny', reason: 'r' },
      'DENY',
    ],
    ['a padded decision', '{"decision":" Deny "}', { decision: 'deny' }, 'Deny'],
    [
      "Claude Code's block",
      '{"decision":"block","reason":"r"}',
      { decision: 'deny', reason: 'r' },
      'block',
    ],
    [
      'an allow and a deny on one line',
      '{"decision":"allow"}{"decision":"deny","reason":"r"}',
      { decision: 'deny', reason: 'r' },
      '2 JSON objects',
    ],
    [
      'a deny and an allow on one line',
      '{"decision":"deny","reason":"r"} {"decision":"allow"}',
      { decision: 'deny', reason: 'r' },
      '2 JSON objects',
    ],
    [
      'metadata that is an array',
      '{"decision":"deny","metadata":[1]}',
      { decision: 'deny' },
      'metadata',
    ],
    [
      'a stray quote in a log line before it',
      'it\'s "odd\n{"decision":"deny","reason":"r"}',
      { decision: 'deny', reason: 'r' },
      'other text',
    ],
  ])('stands as a deny and names the mistake when stdout has %s', (_what, stdout, deny, named) => {
    const result = expectInvalid(stdout);
    expect(result.deny).toEqual(deny);
    expect(result.denyNote).toContain(named);
  });

  it('keeps metadata keys verbatim when a rescued deny has a __proto__ key', () => {
    const result = expectInvalid('{"decision":"DENY","metadata":{"__proto__":{"x":1}}}');
    expect(Object.keys(result.deny?.metadata ?? {})).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(result.deny?.metadata)).toBe(Object.prototype);
  });
});

describe('safeParseHookOutput with Claude Code output from a soong hook', () => {
  it('keeps a permissionDecision deny as a deny with a note naming the protocol key', () => {
    const result = expectInvalid(
      '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no rm"}}',
    );
    expect(result.deny).toEqual({ decision: 'deny', reason: 'no rm' });
    expect(result.denyNote).toContain('"protocol": "claude-code"');
  });

  it('rescues nothing when the Claude Code answer allows', () => {
    const result = expectInvalid(
      '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}',
    );
    expect(result.deny).toBeUndefined();
  });
});

describe('safeParseHookOutput nesting', () => {
  const nested = (depth: number) =>
    `{"decision":"allow","metadata":{"a":${'['.repeat(depth)}${']'.repeat(depth)}}}`;

  it('accepts the output when it nests exactly MAX_JSON_DEPTH levels deep', () => {
    expect(safeParseHookOutput(nested(MAX_JSON_DEPTH - 2)).success).toBe(true);
  });

  it.each([MAX_JSON_DEPTH - 1, 5_000, 100_000])(
    'fails with INVALID_HOOK_OUTPUT without parsing when metadata nests %i levels below it',
    (depth) => {
      const result = expectInvalid(nested(depth));
      expect(result.error.message).toContain(String(MAX_JSON_DEPTH));
      expect(result.error.issues).toEqual([]);
    },
  );

  it.each([5_000, 100_000])(
    'keeps the deny and drops the deep values when a deny carries metadata %i levels deep',
    (depth) => {
      const result = expectInvalid(
        `{"decision":"deny","reason":"no","metadata":{"a":${'['.repeat(depth)}${']'.repeat(depth)}},"logs":["x"]}`,
      );
      expect(result.deny).toEqual({ decision: 'deny', reason: 'no' });
      expect(result.denyNote).toContain(`more than ${MAX_JSON_DEPTH} levels deep were dropped`);
    },
  );

  it.each([
    ['all of stdout', `{"decision":${'['.repeat(20_000)}${']'.repeat(20_000)}}`],
    ['after a log line', `starting guard\n{"decision":${'['.repeat(20_000)}${']'.repeat(20_000)}}`],
    [
      'pretty-printed after a log line',
      `starting guard\n{\n  "decision": ${'['.repeat(20_000)}${']'.repeat(20_000)}\n}\n`,
    ],
  ])(
    'fails without throwing and rescues nothing when a decision 20,000 deep is %s',
    (_where, stdout) => {
      const result = expectInvalid(stdout);
      expect(result.error.message).toContain(`more than ${MAX_JSON_DEPTH} levels deep`);
      expect(result.deny).toBeUndefined();
    },
  );

  it('rescues no allow from an object nested too deep', () => {
    const result = expectInvalid(
      `{"decision":"allow","metadata":{"a":${'['.repeat(5_000)}${']'.repeat(5_000)}}}`,
    );
    expect(result.deny).toBeUndefined();
  });
});

describe('safeParseHookOutput error message', () => {
  it('says what was wrong and shows the start of stdout escaped when stdout is not JSON', () => {
    const { error } = expectInvalid('hello\tworld\n');
    expect(error.message).toContain('not valid JSON');
    expect(error.message).toContain('"hello\\tworld\\n"');
  });

  it('names the bad field when a known field has the wrong type', () => {
    const { error } = expectInvalid('{"decision":"deny","reason":5}');
    expect(error.message).toContain('reason');
    expect(error.message).toContain('{\\"decision\\":\\"deny\\",\\"reason\\":5}');
  });

  it('shows only the first 200 characters and the total length when stdout is long', () => {
    const stdout = `${'7'.repeat(200)}${'8'.repeat(800)}`;
    const { error } = expectInvalid(stdout);
    expect(error.message).toContain(`"${'7'.repeat(200)}"`);
    expect(error.message).not.toContain('8');
    expect(error.message).toContain('1000 characters');
  });

  it("suggests deny when the decision is Claude Code's block", () => {
    expect(expectInvalid('{"decision":"block"}').error.message).toContain('write "deny"');
  });

  it.each([
    ['a log line before the answer', 'checking src/a.ts\n{"decision":"allow"}\n'],
    ['a log line after the answer', '{"decision":"deny","reason":"no"}\ndone\n'],
    ['a log line before a pretty-printed answer', 'hi\n{\n  "decision": "allow"\n}\n'],
  ])('says to send logs to stderr when stdout holds %s', (_what, stdout) => {
    expect(expectInvalid(stdout).error.message).toContain('send logs to stderr (`>&2`)');
  });

  it('does not mention logs when stdout holds no valid answer at all', () => {
    expect(expectInvalid('hello\n{"decision":"maybe"}\n').error.message).not.toContain('stderr');
  });

  it("says it is Claude Code's format and names the protocol key when stdout has hookSpecificOutput", () => {
    const stdout = JSON.stringify({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 'no',
      },
    });
    const { message } = expectInvalid(stdout).error;
    expect(message).toContain("Claude Code's hook output");
    expect(message).toContain('"protocol": "claude-code"');
  });

  it('says the value is not an object when stdout is a JSON array', () => {
    expect(expectInvalid('[]').error.message).toContain('not an object');
  });
});

describe('parseHookOutput', () => {
  it('returns null when stdout is empty', () => {
    expect(parseHookOutput('')).toBeNull();
  });

  it('returns the output without unknown keys when stdout is valid', () => {
    expect(parseHookOutput('{"decision":"allow","extra":1}')).toEqual({ decision: 'allow' });
  });

  it('throws ProtocolError INVALID_HOOK_OUTPUT when stdout is invalid, even with a rescued deny', () => {
    for (const stdout of ['nope', 'log\n{"decision":"deny"}']) {
      let caught: unknown;
      try {
        parseHookOutput(stdout);
      } catch (error) {
        caught = error;
      }
      expect(ProtocolError.isInstance(caught)).toBe(true);
      expect((caught as ProtocolError).code).toBe('INVALID_HOOK_OUTPUT');
    }
  });
});

// JSON has no -0: normalise so that a value equals its own JSON round trip.
// Generous upper bound only: the machine running CI is shared and noisy.
const PROPERTY_TIMEOUT_MS = 120_000;

const jsonValue = fc
  .jsonValue({ maxDepth: 3 })
  .map((value) => JSON.parse(JSON.stringify(value)) as unknown);
const hookOutputArbitrary: fc.Arbitrary<HookOutput> = fc.record(
  {
    decision: fc.constantFrom('allow' as const, 'deny' as const),
    reason: fc.string({ unit: 'grapheme' }),
    metadata: fc.dictionary(fc.string(), jsonValue, { maxKeys: 5 }),
    logs: fc.array(fc.string({ unit: 'binary' }), { maxLength: 5 }),
  },
  { requiredKeys: ['decision'] },
);

describe('safeParseHookOutput properties', () => {
  it(
    'never throws when stdout is any string',
    () => {
      fc.assert(
        fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary' })), (stdout) => {
          const result = safeParseHookOutput(stdout);
          expect(typeof result.success).toBe('boolean');
        }),
        { numRuns: 1000 },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'never throws when stdout is JSON-ish text',
    () => {
      const jsonish = fc.oneof(
        fc.json(),
        jsonValue.map((value) => JSON.stringify({ decision: value })),
        fc
          .tuple(fc.string(), hookOutputArbitrary, fc.string())
          .map(([before, output, after]) => `${before}\n${JSON.stringify(output)}\n${after}`),
        fc
          .array(
            fc.constantFrom('{', '}', '[', ']', '"', ':', ',', '\n', 'decision', 'deny', '\\'),
            {
              maxLength: 30,
            },
          )
          .map((parts) => parts.join('')),
      );
      fc.assert(
        fc.property(jsonish, (stdout) => {
          const result = safeParseHookOutput(stdout);
          if (!result.success) expect(result.error.code).toBe('INVALID_HOOK_OUTPUT');
        }),
        { numRuns: 1000 },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'round-trips every valid output through JSON.stringify',
    () => {
      fc.assert(
        fc.property(hookOutputArbitrary, fc.boolean(), (output, pretty) => {
          const stdout = pretty ? JSON.stringify(output, null, 2) : JSON.stringify(output);
          expect(parseHookOutput(stdout)).toEqual(output);
          expect(safeParseHookOutput(stdout)).toEqual({ success: true, output, unknownKeys: [] });
        }),
        { numRuns: 500 },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );

  it(
    'rescues the deny whatever single-line log text precedes it',
    () => {
      const logLine = fc.string().filter((line) => !/[\r\n]/.test(line) && line.trim() !== '');
      const deny = hookOutputArbitrary.map((output) => ({ ...output, decision: 'deny' as const }));
      fc.assert(
        fc.property(fc.array(logLine, { minLength: 1, maxLength: 4 }), deny, (lines, output) => {
          const stdout = `${lines.join('\n')}\n${JSON.stringify(output)}\n`;
          const result = safeParseHookOutput(stdout);
          if (result.success) return; // the log lines happened to form, with the deny, valid JSON
          expect(result.deny).toEqual(output);
        }),
        { numRuns: 300 },
      );
    },
    PROPERTY_TIMEOUT_MS,
  );
});
