import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import * as eventRecord from './event-record.js';
import * as hookContext from './hook-context.js';
import * as hookInput from './hook-input.js';
import * as hookOutput from './hook-output.js';
import * as riskClass from './risk-class.js';

const fixturesDir = join(import.meta.dirname, '__fixtures__');
const folders = readdirSync(fixturesDir).sort();
// Every wire schema of the wire modules, exported from the package's entry or not: the corpus
// covers one variant's schema as well as the union that carries it.
const wire = { ...eventRecord, ...hookContext, ...hookInput, ...hookOutput, ...riskClass };
const exportedSchemas = new Map<string, z.ZodType>();
for (const [name, value] of Object.entries(wire as Record<string, unknown>)) {
  if (name.endsWith('Schema') && typeof (value as z.ZodType).safeParse === 'function') {
    exportedSchemas.set(name, value as z.ZodType);
  }
}

function cases(folder: string) {
  return readdirSync(join(fixturesDir, folder))
    .sort()
    .map((file) => ({
      file,
      value: JSON.parse(readFileSync(join(fixturesDir, folder, file), 'utf8')) as unknown,
    }));
}

describe('golden corpus', () => {
  it('maps every fixture folder to a wire schema of the same name', () => {
    const unmapped = folders.filter((folder) => !exportedSchemas.has(folder));
    expect(unmapped).toEqual([]);
  });

  it('has a fixture folder for every wire schema', () => {
    const missing = [...exportedSchemas.keys()].filter((name) => !folders.includes(name));
    expect(missing).toEqual([]);
  });

  it('names every fixture valid-<case>.json or invalid-<case>.json and has both kinds in each folder', () => {
    for (const folder of folders) {
      const files = readdirSync(join(fixturesDir, folder));
      expect(files.filter((file) => !/^(valid|invalid)-[a-z0-9-]+\.json$/.test(file))).toEqual([]);
      expect(files.some((file) => file.startsWith('valid-'))).toBe(true);
      expect(files.some((file) => file.startsWith('invalid-'))).toBe(true);
    }
  });

  describe.each(folders)('%s', (folder) => {
    const schema = exportedSchemas.get(folder) as z.ZodType;

    it.each(cases(folder))('judges $file as its name says', ({ file, value }) => {
      const result = schema.safeParse(value);
      expect(result.success, `${folder}/${file}: ${result.error?.message ?? 'accepted'}`).toBe(
        file.startsWith('valid-'),
      );
    });
  });

  it('accepts every valid record fixture as an EventRecord and keeps its extra keys', () => {
    for (const folder of folders.filter((name) => name.endsWith('RecordSchema'))) {
      for (const { file, value } of cases(folder).filter((c) => c.file.startsWith('valid-'))) {
        expect(eventRecord.EventRecordSchema.parse(value), `${folder}/${file}`).toEqual(value);
      }
    }
  });

  it('accepts every valid per-event input fixture as a HookInput', () => {
    for (const folder of folders.filter((name) => name.endsWith('InputSchema'))) {
      for (const { file, value } of cases(folder).filter((c) => c.file.startsWith('valid-'))) {
        expect(hookInput.HookInputSchema.safeParse(value).success, `${folder}/${file}`).toBe(true);
      }
    }
  });
});
