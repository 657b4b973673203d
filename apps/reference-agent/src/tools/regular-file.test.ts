import fs from 'node:fs';
import path from 'node:path';
import { makeTempDir } from '@soong-agent/test-utils';
import { describe, expect, it } from 'vitest';
import { readRegularFile } from './regular-file.js';

describe('readRegularFile', () => {
  it('reads a /proc file whose stat size is 0 when its content fits the cap', async () => {
    expect(fs.statSync('/proc/self/stat').size).toBe(0);
    const read = await readRegularFile('/proc/self/stat', 64 * 1024);
    expect('buffer' in read && read.buffer.toString('utf8')).toMatch(/^\d+ \(/);
  });

  it('stops at the cap plus one byte and reports too large when stat says 0 bytes', async () => {
    // smaps is a few KiB here; stat reports 0, so a read trusting stat would take it all.
    expect(fs.statSync('/proc/self/smaps').size).toBe(0);
    expect(await readRegularFile('/proc/self/smaps', 100)).toEqual({
      problem: 'too large',
      size: 0,
    });
  });

  it('reads a regular file of exactly the cap and refuses one byte more', async () => {
    const dir = makeTempDir();
    fs.writeFileSync(path.join(dir, 'exact'), 'x'.repeat(200_000));
    fs.writeFileSync(path.join(dir, 'over'), 'x'.repeat(200_001));
    const exact = await readRegularFile(path.join(dir, 'exact'), 200_000);
    expect('buffer' in exact && exact.buffer.length).toBe(200_000);
    expect(await readRegularFile(path.join(dir, 'over'), 200_000)).toMatchObject({
      problem: 'too large',
    });
  });

  it('reports /proc/self/pagemap as not a regular file after a bounded read when stat says 0 bytes', async () => {
    // pagemap never ends (8 bytes per page of the address space) and takes reads of 8-byte
    // multiples only: the probe byte past the cap is refused, so the read stops there.
    expect(fs.statSync('/proc/self/pagemap').size).toBe(0);
    expect(await readRegularFile('/proc/self/pagemap', 1024 * 1024)).toEqual({
      problem: 'not a regular file',
      size: 0,
    });
  });
});
