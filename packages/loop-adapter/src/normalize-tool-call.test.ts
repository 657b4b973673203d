import { PreToolUseInputSchema } from '@soong-agent/protocol/internal';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LoopAdapterError } from './loop-adapter-error.js';
import { normalizeToolCall } from './normalize-payload.js';

// The schema of spec §2.1's `tool`, as every hook input holds it.
const ToolCallInfoSchema = PreToolUseInputSchema.shape.tool;
const PROJECT = '/work/project';

class Point {
  constructor(
    readonly x = 1,
    readonly y = 2,
  ) {}
}

const anyValue = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.array(fc.string(), { maxLength: 2 }),
  fc.dictionary(fc.string({ maxLength: 4 }), fc.string(), { maxKeys: 2 }),
);
const input = fc.oneof(
  fc.dictionary(fc.string({ maxLength: 6 }), anyValue, { maxKeys: 3 }),
  fc.constant(Object.create(null) as object),
  fc.constant({ [Symbol('hidden')]: 1, path: 'a' }),
  fc.constant(new Date(0)),
  fc.constant(new Map([['a', 1]])),
  fc.constant(new Point()),
  anyValue,
);
// Mostly right, sometimes wrong: each field of a tool is valid about eight times in nine.
const mostly = <T, U>(valid: fc.Arbitrary<T>, wrong: fc.Arbitrary<U>) =>
  fc.oneof({ arbitrary: valid, weight: 16 }, { arbitrary: wrong, weight: 2 });
const strings = fc.array(fc.oneof(fc.constantFrom('readonly', 'write', 'fs'), fc.string()), {
  maxLength: 3,
});
const stringList = mostly(strings, fc.oneof(fc.array(anyValue, { maxLength: 2 }), anyValue));
const artifactRef = mostly(
  fc.constant({ id: 'a1', path: '/tmp/a1', bytes: 10, sha256: 'a'.repeat(64) }),
  fc.oneof(
    fc.record(
      {
        id: fc.oneof(fc.constant('a1'), fc.constant(''), fc.integer()),
        path: fc.oneof(fc.constant('/etc/passwd'), fc.constant('')),
        bytes: fc.oneof(fc.constant(10), fc.constant(-1), fc.constant(1.5)),
        sha256: fc.oneof(fc.constant('a'.repeat(64)), fc.constant('A'.repeat(64)), fc.string()),
      },
      { requiredKeys: [] },
    ),
    anyValue,
  ),
);
// Tools a host might pass: mostly near-valid, each field sometimes wrong or missing.
const tool = fc.record(
  {
    name: mostly(fc.constantFrom('write_file', 'Bash'), fc.oneof(fc.constant(''), anyValue)),
    call_id: mostly(fc.constant('call_1'), fc.oneof(fc.constant(''), anyValue)),
    input,
    risk: mostly(
      fc.constantFrom('readonly', 'write', 'dangerous'),
      fc.oneof(fc.constant('safe'), anyValue),
    ),
    tags: stringList,
    paths: mostly(fc.constantFrom(['src/a.ts'], ['/abs/b.ts'], []), stringList),
    input_truncated: mostly(fc.boolean(), anyValue),
    input_artifact_ref: artifactRef,
    extra: anyValue,
  },
  { requiredKeys: ['input'] },
);

function normalized(value: unknown): { ok: true; tool: unknown } | { ok: false; error: unknown } {
  try {
    return { ok: true, tool: normalizeToolCall(value, PROJECT) };
  } catch (error) {
    return { ok: false, error };
  }
}

describe('normalizeToolCall', () => {
  it('accepts exactly the tools the spec §2.1 schema accepts once normalised, and returns a valid one', () => {
    const seen = { accepted: 0, refused: 0 };
    fc.assert(
      fc.property(tool, (raw) => {
        const got = normalized(raw);
        // What the schema sees of the same call once normalisation's own changes are made: a
        // non-object input passed as { value }.
        const input = raw.input;
        const asObject =
          typeof input === 'object' && input !== null && !Array.isArray(input)
            ? input
            : { value: input };
        const schemaAccepts = ToolCallInfoSchema.safeParse({ ...raw, input: asObject }).success;
        expect(got.ok).toBe(schemaAccepts);
        seen[got.ok ? 'accepted' : 'refused']++;
        if (got.ok) expect(ToolCallInfoSchema.safeParse(got.tool).success).toBe(true);
        else
          expect(LoopAdapterError.isInstance(got.error) && got.error.code).toBe('INVALID_OPTIONS');
      }),
      { numRuns: 3000 },
    );
    // Both sides are exercised, not only the refusals.
    expect(seen.accepted).toBeGreaterThan(100);
    expect(seen.refused).toBeGreaterThan(100);
  });

  it('names the field when it refuses a Date as the input or a planted artifact ref', () => {
    const base = { name: 'read_file', call_id: 'c1', risk: 'readonly', tags: [], paths: [] };
    expect(() => normalizeToolCall({ ...base, input: new Date(0) }, PROJECT)).toThrow(
      /^payload\.tool\.input is .*: pass the call's arguments as a plain object/,
    );
    expect(() =>
      normalizeToolCall(
        { ...base, input: {}, input_truncated: true, input_artifact_ref: { path: '/etc/passwd' } },
        PROJECT,
      ),
    ).toThrow(/^payload\.tool\.input_artifact_ref is .*: pass the \{ id, path, bytes, sha256 \}/);
    expect(() =>
      normalizeToolCall({ ...base, input: {}, input_truncated: 'yes' }, PROJECT),
    ).toThrow(/^payload\.tool\.input_truncated is "yes"/);
  });
});
