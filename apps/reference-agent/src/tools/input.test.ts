import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type FieldSpec, readToolInput, ToolInputError, toJsonSchema } from './input.js';

const fields: Record<string, FieldSpec> = {
  path: { type: 'string', required: true, description: 'file path' },
  offset: { type: 'number', required: false, description: 'first line' },
  recursive: { type: 'boolean', required: false, description: 'descend' },
};

function problemOf(input: unknown): string | undefined {
  try {
    readToolInput(input, fields);
  } catch (error) {
    return error instanceof ToolInputError ? error.message : 'not a ToolInputError';
  }
  return undefined;
}

describe('toJsonSchema', () => {
  it('gives the model an object schema with required fields and no other keys', () => {
    expect(toJsonSchema(fields)).toEqual({
      type: 'object',
      properties: {
        path: { type: 'string', description: 'file path' },
        offset: { type: 'number', description: 'first line' },
        recursive: { type: 'boolean', description: 'descend' },
      },
      required: ['path'],
      additionalProperties: false,
    });
  });

  it('describes an input without fields when a tool takes no parameters', () => {
    expect(toJsonSchema({})).toEqual({
      type: 'object',
      properties: {},
      additionalProperties: false,
    });
  });
});

describe('readToolInput', () => {
  it('returns the declared fields when the input matches them, null counting as absent', () => {
    expect(readToolInput({ path: 'a', offset: 3 }, fields)).toEqual({ path: 'a', offset: 3 });
    expect(readToolInput({ path: 'a', offset: null, recursive: false }, fields)).toEqual({
      path: 'a',
      recursive: false,
    });
  });

  it('names every bad field at once, unknown fields first, when the input does not match', () => {
    expect(problemOf({ offset: 'x', extra: 1 })).toBe(
      'invalid input: unknown field "extra" (fields: path, offset, recursive); "path" is required; "offset" must be a number',
    );
    expect(problemOf({ path: null })).toBe('invalid input: "path" is required');
    expect(problemOf({ path: 'a', recursive: 'yes' })).toBe(
      'invalid input: "recursive" must be a boolean',
    );
  });

  it('rejects anything but a JSON object when the input is not one', () => {
    for (const input of [null, undefined, [], 'a', 1]) {
      expect(problemOf(input)).toBe('invalid input: expected a JSON object');
    }
  });

  it('treats __proto__ in the input as an unknown field, not as a prototype', () => {
    expect(problemOf(JSON.parse('{"path": "a", "__proto__": {"offset": 1}}'))).toBe(
      'invalid input: unknown field "__proto__" (fields: path, offset, recursive)',
    );
  });

  it('accepts exactly the inputs whose values have the declared types', () => {
    const value = fc.oneof(fc.string(), fc.double({ noNaN: true }), fc.boolean(), fc.constant([]));
    fc.assert(
      fc.property(fc.record({ path: value, offset: value }, { requiredKeys: [] }), (input) => {
        const valid =
          typeof input.path === 'string' &&
          (input.offset === undefined || typeof input.offset === 'number') &&
          (typeof input.offset !== 'number' || Number.isFinite(input.offset));
        return (problemOf(input) === undefined) === valid;
      }),
    );
  });
});
