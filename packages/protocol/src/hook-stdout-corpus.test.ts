import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { safeParseHookOutput } from './index.js';

// Golden corpus of hook stdout that is not a valid output (spec §2.2): `deny-*.txt` must stand as a
// deny with a note naming the mistake, `none-*.txt` must rescue nothing.
const corpusDir = join(import.meta.dirname, '__hook-stdout__');
const files = readdirSync(corpusDir).sort();

describe('safeParseHookOutput golden stdout corpus', () => {
  it('names every file deny-<case>.txt or none-<case>.txt', () => {
    expect(files.filter((file) => !/^(deny|none)-[a-z0-9-]+\.txt$/.test(file))).toEqual([]);
  });

  it.each(files)('judges %s as its name says', (file) => {
    const result = safeParseHookOutput(readFileSync(join(corpusDir, file), 'utf8'));
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.error.code).toBe('INVALID_HOOK_OUTPUT');
    if (file.startsWith('deny-')) {
      expect(result.deny?.decision).toBe('deny');
      expect(result.denyNote).toMatch(/^the deny stands/);
    } else {
      expect(result.deny).toBeUndefined();
    }
  });
});
