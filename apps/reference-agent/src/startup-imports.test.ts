import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// `--version` and `--help` stay close to a bare `node` start (README benchmark) only while the
// modules loaded before a command runs import no package of ours: each command module, and what
// it needs, is a dynamic import inside its action.
const SRC = path.dirname(fileURLToPath(import.meta.url));

function staticImports(file: string): string[] {
  const text = fs.readFileSync(path.join(SRC, file), 'utf8');
  return [...text.matchAll(/^import\s+(?!type\b)[^;]*?from\s+'([^']+)';/gms)].map(
    (match) => match[1] as string,
  );
}

/** Every module the entries load statically, following relative imports. */
function startupGraph(...entries: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const pending = [...entries];
  while (pending.length > 0) {
    const file = pending.pop() as string;
    if (graph.has(file)) continue;
    const imports = staticImports(file);
    graph.set(file, imports);
    for (const target of imports.filter((specifier) => specifier.startsWith('.'))) {
      pending.push(path.join(path.dirname(file), target).replace(/\.js$/, '.ts'));
    }
  }
  return graph;
}

describe('cli.ts startup imports', () => {
  it('loads only commander, the environment guard, the event names and its own small modules before a command runs', () => {
    // cli.ts imports program.ts (commander's tree, which answers --help) before any command.
    const graph = startupGraph('cli.ts', 'program.ts');
    expect([...graph.keys()].sort()).toEqual(['cli.ts', 'errors.ts', 'program.ts']);
    const packages = [...graph.values()]
      .flat()
      .filter((specifier) => !specifier.startsWith('.') && !specifier.startsWith('node:'));
    expect([...new Set(packages)].sort()).toEqual([
      '@commander-js/extra-typings',
      '@soong-agent/protocol/events',
      '@soong-agent/runner/process-environment',
    ]);
  });
});

// The same rule on what ships: the bundle (scripts/bundle.mjs) keeps each command a chunk of its
// own, so the files a start loads before any command (cli.js, and the program chunk that answers
// --help) stay small and import no package but the environment guard.
const DIST = path.join(SRC, '..', 'dist');

function bundleImports(file: string): {
  staticFiles: string[];
  dynamicFiles: string[];
  packages: string[];
} {
  const text = fs.readFileSync(file, 'utf8');
  const targets = (pattern: RegExp) =>
    [...text.matchAll(pattern)].map((match) => match[1] as string);
  const staticTargets = targets(/^(?:import|export)\b[^;]*?from\s*"([^"]+)";/gms);
  const resolve = (specifier: string) => path.join(path.dirname(file), specifier);
  return {
    staticFiles: staticTargets.filter((target) => target.startsWith('.')).map(resolve),
    dynamicFiles: targets(/\bimport\("(\.[^"]+)"\)/g).map(resolve),
    packages: staticTargets.filter(
      (target) => !target.startsWith('.') && !target.startsWith('node:'),
    ),
  };
}

function staticClosure(...entries: string[]): Map<string, string[]> {
  const closure = new Map<string, string[]>();
  const pending = [...entries];
  while (pending.length > 0) {
    const file = pending.pop() as string;
    if (closure.has(file)) continue;
    const { staticFiles, packages } = bundleImports(file);
    closure.set(file, packages);
    pending.push(...staticFiles);
  }
  return closure;
}

describe('the built cli.js (bundled)', () => {
  it('loads before a command runs only cli.js, the program chunk and small shared chunks, importing no package but the environment guard', () => {
    const cli = path.join(DIST, 'cli.js');
    const program = bundleImports(cli).dynamicFiles.find((file) =>
      path.basename(file).startsWith('program-'),
    );
    expect(program).toBeDefined();
    const closure = staticClosure(cli, program as string);
    expect([...new Set([...closure.values()].flat())]).toEqual([
      '@soong-agent/runner/process-environment',
    ]);
    const bytes = [...closure.keys()].reduce((sum, file) => sum + fs.statSync(file).size, 0);
    // commander and the command tree are about 120 KB; the packages behind the commands are
    // several times that (zod alone ~400 KB) and must stay behind the commands' dynamic imports.
    expect(bytes).toBeLessThan(250_000);
    expect(closure.size).toBeLessThanOrEqual(5);
  });
});
