/** A field of a tool's input object. */
export interface FieldSpec {
  type: 'string' | 'number' | 'boolean';
  required: boolean;
  description: string;
}

/** Thrown by {@link readToolInput}; the tool turns it into an `is_error` result. */
export class ToolInputError extends Error {}

/** JSON Schema for an input object with the given fields (no other keys). */
export function toJsonSchema(fields: Readonly<Record<string, FieldSpec>>): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(fields)) {
    properties[name] = { type: field.type, description: field.description };
  }
  return {
    type: 'object',
    properties,
    required: Object.entries(fields)
      .filter(([, field]) => field.required)
      .map(([name]) => name),
    additionalProperties: false,
  };
}

/**
 * Checks a tool input against its fields: an object, required fields present, each value of its
 * type, no unknown keys. Throws {@link ToolInputError} naming the field.
 */
export function readToolInput(
  input: unknown,
  fields: Readonly<Record<string, FieldSpec>>,
): Record<string, string | number | boolean | undefined> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new ToolInputError('invalid input: expected a JSON object');
  }
  const record = input as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (!(key in fields)) {
      const known = Object.keys(fields).join(', ') || 'none';
      throw new ToolInputError(`invalid input: unknown field "${key}" (fields: ${known})`);
    }
  }
  const values: Record<string, string | number | boolean | undefined> = {};
  for (const [name, field] of Object.entries(fields)) {
    const value = record[name];
    if (value === undefined || value === null) {
      if (field.required) throw new ToolInputError(`invalid input: "${name}" is required`);
      continue;
    }
    if (typeof value !== field.type || (field.type === 'number' && !Number.isFinite(value))) {
      throw new ToolInputError(`invalid input: "${name}" must be a ${field.type}`);
    }
    values[name] = value as string | number | boolean;
  }
  return values;
}

/** The `path` field of an input object when it is a string (for `paths()`, which must not throw). */
export function pathField(input: unknown, name = 'path'): string | undefined {
  if (typeof input !== 'object' || input === null) return undefined;
  const value = (input as Record<string, unknown>)[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}
