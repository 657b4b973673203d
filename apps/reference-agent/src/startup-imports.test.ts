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
