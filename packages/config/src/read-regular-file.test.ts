import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readRegularFileSync } from './read-regular-file.js';

let dir = '';
afterEach(() => {
  if (dir !== '') fs.rmSync(dir, { recursive: true, force: true });
  dir = '';
});
const tempDir = () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'soong-read-'));
  return dir;
};

describe('readRegularFileSync', () => {
  it('reads a /proc file whose stat size is 0 to its end when it fits', () => {
    expect(fs.statSync('/proc/self/stat').size).toBe(0);
    const read = readRegularFileSync('/proc/self/stat', { maxBytes: 64 * 1024 });
    expect('bytes' in read && read.bytes.toString('utf8')).toMatch(/^\d+ \(/);
  });

  it('stops after the limit plus one byte and reports too large when stat says 0 bytes', () => {
    expect(fs.statSync('/proc/self/smaps').size).toBe(0);
    expect(readRegularFileSync('/proc/self/smaps', { maxBytes: 100 })).toEqual({
      problem: 'too large',
      size: 0,
    });
  });

  it('reports /proc/self/pagemap, which never ends and takes only 8-byte reads, as not a regular file', () => {
    expect(readRegularFileSync('/proc/self/pagemap', { maxBytes: 1024 * 1024 })).toEqual({
      problem: 'not a regular file',
      size: 0,
    });
  });

  it('reads exactly the limit and refuses one byte more', () => {
    const root = tempDir();
    fs.writeFileSync(path.join(root, 'exact'), 'x'.repeat(200_000));
    fs.writeFileSync(path.join(root, 'over'), 'x'.repeat(200_001));
    const exact = readRegularFileSync(path.join(root, 'exact'), { maxBytes: 200_000 });
    expect('bytes' in exact && exact.bytes.length).toBe(200_000);
    expect(readRegularFileSync(path.join(root, 'over'), { maxBytes: 200_000 })).toMatchObject({
      problem: 'too large',
    });
  });

  it('answers at once for a FIFO, a directory and a device', () => {
    const root = tempDir();
    execFileSync('mkfifo', [path.join(root, 'fifo')]);
    expect(readRegularFileSync(path.join(root, 'fifo'), { maxBytes: 10 })).toMatchObject({
      problem: 'not a regular file',
    });
    expect(readRegularFileSync(root, { maxBytes: 10 })).toMatchObject({ problem: 'directory' });
    expect(readRegularFileSync('/dev/zero', { maxBytes: 10 })).toMatchObject({
      problem: 'not a regular file',
    });
  });

  it('throws ELOOP for a symlink when followSymlinks is false and follows it by default', () => {
    const root = tempDir();
    fs.writeFileSync(path.join(root, 'target'), 'content');
    fs.symlinkSync(path.join(root, 'target'), path.join(root, 'link'));
    expect(() =>
      readRegularFileSync(path.join(root, 'link'), { maxBytes: 100, followSymlinks: false }),
    ).toThrow(expect.objectContaining({ code: 'ELOOP' }));
    const read = readRegularFileSync(path.join(root, 'link'), { maxBytes: 100 });
    expect('bytes' in read && read.bytes.toString()).toBe('content');
  });
});
