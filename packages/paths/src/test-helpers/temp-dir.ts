import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';

const created: string[] = [];

afterEach(() => {
  for (const dir of created.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A fresh real temp dir (realpath'ed), removed after the current test. */
export function makeTempDir(): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'soong-paths-')));
  created.push(dir);
  return dir;
}

/** Creates the directories and empty files named (paths ending in `/` are directories). */
export function createTree(root: string, entries: readonly string[]): void {
  for (const entry of entries) {
    const target = path.join(root, entry);
    if (entry.endsWith('/')) {
      fs.mkdirSync(target, { recursive: true });
    } else {
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, '');
    }
  }
}
