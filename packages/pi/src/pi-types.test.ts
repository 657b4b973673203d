// pi is not a dependency (src/pi-types.ts says why): this checks, with the TypeScript compiler,
// that the real pi's extension types and this package's structural ones fit both ways.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { piCacheDir } from './test-helpers/pi-install.js';
import { PACKAGE_DIR } from './test-helpers/pi-workspace.js';

const TSC = fileURLToPath(new URL('../../../node_modules/.bin/tsc', import.meta.url));
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** Type-checks `source` next to the cached pi's node_modules; returns tsc's output ('' when clean). */
function typeCheck(source: string): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'soong-pi-types-'));
  dirs.push(dir);
  fs.symlinkSync(path.join(piCacheDir(), 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  fs.writeFileSync(path.join(dir, 'check.ts'), source);
  fs.writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        noEmit: true,
        // pi's own declarations are pi's to check; ours are checked by the package's typecheck.
        skipLibCheck: true,
        types: [],
        paths: { '@soong-agent/pi': [path.join(PACKAGE_DIR, 'dist', 'index.d.ts')] },
      },
      files: ['check.ts'],
    }),
  );
  return new Promise((resolve) => {
    execFile(TSC, ['-p', dir], { encoding: 'utf8' }, (_error, stdout, stderr) =>
      resolve(`${stdout}${stderr}`.trim()),
    );
  });
}

describe('PiExtensionAPI', () => {
  it("accepts pi's ExtensionAPI, and the default export is one of pi's ExtensionFactory", async () => {
    const output = await typeCheck(
      [
        "import type { ExtensionAPI, ExtensionFactory } from '@mariozechner/pi-coding-agent';",
        "import soongHooks, { createSoongHooks, type PiExtensionAPI } from '@soong-agent/pi';",
        'const factory: ExtensionFactory = soongHooks;',
        "const withOptions: ExtensionFactory = createSoongHooks({ home: '/tmp/agent-home' });",
        'declare const api: ExtensionAPI;',
        'const asOurs: PiExtensionAPI = api;',
        'export { asOurs, factory, withOptions };',
        '',
      ].join('\n'),
    );
    expect(output).toBe('');
  });

  it('fails the check when the types do not fit (the check can fail)', async () => {
    const output = await typeCheck(
      [
        "import type { ExtensionAPI } from '@mariozechner/pi-coding-agent';",
        'declare const api: ExtensionAPI;',
        'const wrong: number = api;',
        'export { wrong };',
        '',
      ].join('\n'),
    );
    expect(output).toContain('TS2322');
  });
});
