import { z } from 'zod';
import { ConfigFileSchema } from './config-file-schema.js';
import { HooksFileSchema } from './hooks-file-schema.js';

/** A generated JSON Schema file: its name under `schemas/` and its content. */
export interface ConfigJsonSchemaFile {
  /** File name, e.g. `hooks.schema.json`. */
  name: string;
  /** The JSON Schema (draft 2020-12). */
  schema: Record<string, unknown>;
}

/**
 * The JSON Schemas shipped in `schemas/`, generated from {@link HooksFileSchema} and
 * {@link ConfigFileSchema} (input side: every defaulted key optional). Point `$schema` in hooks.json
 * at `hooks.schema.json` and an editor validates as you type; config.schema.json serves TOML
 * editors that read JSON Schema (e.g. Taplo / Even Better TOML).
 */
export function generateConfigJsonSchemas(): ConfigJsonSchemaFile[] {
  return [
    { name: 'hooks.schema.json', schema: z.toJSONSchema(HooksFileSchema, { io: 'input' }) },
    { name: 'config.schema.json', schema: z.toJSONSchema(ConfigFileSchema, { io: 'input' }) },
  ];
}
