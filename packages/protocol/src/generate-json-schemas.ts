import { z } from 'zod';
import { EventRecordSchema } from './event-record.js';
import { HookInputSchema } from './hook-input.js';
import { HookOutputSchema } from './hook-output.js';

/** File names of the JSON Schemas shipped in the package's `schemas/` folder. */
export type JsonSchemaFile =
  | 'hook-input.schema.json'
  | 'hook-output.schema.json'
  | 'event-record.schema.json';

/**
 * The JSON Schemas (draft 2020-12, the *input* side of the zod schemas) that the package ships in
 * `schemas/`, keyed by file name, so hook authors in any language can validate what they read and print.
 */
export function generateJsonSchemas(): Record<JsonSchemaFile, Record<string, unknown>> {
  return {
    'hook-input.schema.json': z.toJSONSchema(HookInputSchema, { io: 'input' }),
    'hook-output.schema.json': z.toJSONSchema(HookOutputSchema, { io: 'input' }),
    'event-record.schema.json': z.toJSONSchema(EventRecordSchema, { io: 'input' }),
  };
}
