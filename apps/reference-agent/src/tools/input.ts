import { z } from 'zod';

/** A field of a tool's input object. */
export interface FieldSpec {
  type: 'string' | 'number' | 'boolean';
  required: boolean;
  description: string;
}

/** Thrown by {@link readToolInput}; the tool turns it into an `is_error` result. */
export class ToolInputError extends Error {}

const FIELD_TYPES = { string: z.string, number: z.number, boolean: z.boolean } as const;

// A tool's fields never change: each one's schema is built once, at its first use (a zod object
// compiles its parser on its first parse), not at every call.
const inputSchemas = new WeakMap<Readonly<Record<string, FieldSpec>>, z.ZodType>();
const jsonSchemas = new WeakMap<Readonly<Record<string, FieldSpec>>, Record<string, unknown>>();

/** The zod schema of an input object with the given fields (no other keys). */
function inputSchema(fields: Readonly<Record<string, FieldSpec>>): z.ZodType {
  let schema = inputSchemas.get(fields);
  if (schema === undefined) {
    schema = buildInputSchema(fields);
    inputSchemas.set(fields, schema);
  }
  return schema;
}

function buildInputSchema(fields: Readonly<Record<string, FieldSpec>>): z.ZodType {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, field] of Object.entries(fields)) {
    const base = FIELD_TYPES[field.type]();
    const type = field.description === '' ? base : base.describe(field.description);
    shape[name] = field.required ? type : type.optional();
  }
  return z.strictObject(shape);
}

/** JSON Schema (from zod) for an input object with the given fields (no other keys). */
export function toJsonSchema(fields: Readonly<Record<string, FieldSpec>>): Record<string, unknown> {
  let schema = jsonSchemas.get(fields);
  if (schema === undefined) {
    // The model gets the schema itself; the `$schema` dialect line is noise to it.
    const { $schema: _dialect, ...rest } = z.toJSONSchema(inputSchema(fields));
    schema = rest;
    jsonSchemas.set(fields, schema);
  }
  return schema;
}

/**
 * Checks a tool input against its fields: an object, required fields present, each value of its
 * type, no unknown keys (a `null` counts as absent). Throws {@link ToolInputError} naming every
 * bad field at once: unknown fields first, then the declared fields in order.
 */
export function readToolInput(
  input: unknown,
  fields: Readonly<Record<string, FieldSpec>>,
): Record<string, string | number | boolean | undefined> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new ToolInputError('invalid input: expected a JSON object');
  }
  // Models often send null for an optional field they leave out.
  const present = Object.fromEntries(
    Object.entries(input as Record<string, unknown>).filter(([, value]) => value !== null),
  );
  const parsed = inputSchema(fields).safeParse(present);
  if (parsed.success) return parsed.data as Record<string, string | number | boolean | undefined>;
  const known = Object.keys(fields).join(', ') || 'none';
  const unknown: string[] = [];
  const invalid: string[] = [];
  for (const issue of parsed.error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) unknown.push(`unknown field "${key}" (fields: ${known})`);
      continue;
    }
    const name = String(issue.path[0]);
    const field = fields[name] as FieldSpec;
    invalid.push(
      present[name] === undefined ? `"${name}" is required` : `"${name}" must be a ${field.type}`,
    );
  }
  throw new ToolInputError(`invalid input: ${[...unknown, ...invalid].join('; ')}`);
}

/** The `path` field of an input object when it is a string (for `paths()`, which must not throw). */
export function pathField(input: unknown, name = 'path'): string | undefined {
  if (typeof input !== 'object' || input === null) return undefined;
  const value = (input as Record<string, unknown>)[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}
