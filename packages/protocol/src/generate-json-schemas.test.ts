import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateJsonSchemas } from './generate-json-schemas.js';
import { EVENT_RECORD_TYPES } from './index.js';

const schemasDir = join(import.meta.dirname, '..', 'schemas');
const regenerate = 'run `pnpm --filter @soong-agent/protocol generate:schemas` and commit schemas/';

describe('generateJsonSchemas', () => {
  it('matches the committed schemas/ files when regenerated', () => {
    const fresh = generateJsonSchemas();
    expect(readdirSync(schemasDir).sort(), regenerate).toEqual(Object.keys(fresh).sort());
    for (const [file, schema] of Object.entries(fresh)) {
      const committed: unknown = JSON.parse(readFileSync(join(schemasDir, file), 'utf8'));
      expect(committed, `schemas/${file} is stale: ${regenerate}`).toEqual(schema);
    }
  });

  it('produces draft 2020-12 schemas with a title when generated', () => {
    for (const schema of Object.values(generateJsonSchemas())) {
      expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
      expect(typeof schema.title).toBe('string');
    }
  });

  it('describes one record type per EventRecord branch when generated', () => {
    const { oneOf } = generateJsonSchemas()['event-record.schema.json'] as { oneOf: unknown[] };
    expect(oneOf).toHaveLength(EVENT_RECORD_TYPES.length);
  });
});
