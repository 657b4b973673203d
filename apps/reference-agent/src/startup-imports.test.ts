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

// The same rule on what ships: the bundle (scripts/bundle.mjs, minified) keeps each command a chunk
// of its own, so the files a start loads before any command (cli.js, and the program chunk that
// answers --help) stay small and import no package at all (the runner is bundled too).
const DIST = path.join(SRC, '..', 'dist');

// Minified ES modules: `import"./a.js";import{t as e}from"./b.js";export{o as x}from"./c.js";`,
// and dynamic imports as import(`./d.js`).
const STATIC_IMPORT =
  /(?:^|[;\n])\s*(?:import|export)\s*(?:[\w${}\s,*]*?from\s*)?(["'`])([^"'`]+)\1/g;
const DYNAMIC_IMPORT = /\bimport\((["'`])(\.[^"'`]+)\1\)/g;

function bundleImports(file: string): {
  staticFiles: string[];
  dynamicFiles: string[];
  packages: string[];
  builtins: string[];
} {
  const text = fs.readFileSync(file, 'utf8');
  const targets = (pattern: RegExp) =>
    [...text.matchAll(pattern)].map((match) => match[2] as string);
  const staticTargets = targets(STATIC_IMPORT);
  const resolve = (specifier: string) => path.join(path.dirname(file), specifier);
  return {
    staticFiles: staticTargets.filter((target) => target.startsWith('.')).map(resolve),
    dynamicFiles: targets(DYNAMIC_IMPORT).map(resolve),
    packages: staticTargets.filter(
      (target) => !target.startsWith('.') && !target.startsWith('node:'),
    ),
    builtins: staticTargets.filter((target) => target.startsWith('node:')),
  };
}

function staticClosure(...entries: string[]): Map<string, ReturnType<typeof bundleImports>> {
  const closure = new Map<string, ReturnType<typeof bundleImports>>();
  const pending = [...entries];
  while (pending.length > 0) {
    const file = pending.pop() as string;
    if (closure.has(file)) continue;
    const imports = bundleImports(file);
    closure.set(file, imports);
    pending.push(...imports.staticFiles);
  }
  return closure;
}

const sizeOf = (files: Iterable<string>) =>
  [...files].reduce((sum, file) => sum + fs.statSync(file).size, 0);

/** The chunk `program` imports for `action` (found by the chunk's name). */
function commandChunk(program: string, name: string): string {
  const chunk = bundleImports(program).dynamicFiles.find((file) =>
    path.basename(file).startsWith(`${name}-`),
  );
  expect(chunk, `${name} chunk imported by ${program}`).toBeDefined();
  return chunk as string;
}

describe('the built cli.js (bundled)', () => {
  const cli = path.join(DIST, 'cli.js');

  it('loads before a command runs only cli.js, the program chunk and small shared chunks, importing no package', () => {
    const program = commandChunk(cli, 'program');
    const closure = staticClosure(cli, program);
    expect([...closure.values()].flatMap((imports) => imports.packages)).toEqual([]);
    // commander and the command tree are about 50 KB minified; the packages behind the commands
    // are several times that (zod alone ~200 KB) and must stay behind the commands' dynamic imports.
    expect(sizeOf(closure.keys())).toBeLessThan(120_000);
    expect(closure.size).toBeLessThanOrEqual(5);
    // child_process (with net and dgram) is loaded by no start: commander's is lazy (bundle.mjs).
    const builtins = [...closure.values()].flatMap((imports) => imports.builtins);
    expect(builtins).not.toContain('node:child_process');
  });

  it('loads for `hooks validate` the configuration and the tools, not the hook session, the loop or the model providers', () => {
    const validate = commandChunk(commandChunk(cli, 'program'), 'hooks-validate');
    const closure = staticClosure(cli, validate);
    const text = [...closure.keys()].map((file) => fs.readFileSync(file, 'utf8')).join('\n');
    // Names are kept by the minifier (bundle.mjs: keepNames).
    expect(text).toMatch(/function loadConfig\(/);
    expect(text).toMatch(/function createToolRegistry\(/);
    // Nor the runner (it runs nothing; a tool loads it at its first command), nor the hook input's
    // schemas (config needs the event names alone), nor node:crypto (the hooks.json fingerprint
    // is hashed when first read).
    for (const absent of [
      'openHookSession',
      'runAgentLoop',
      'selectModelProvider',
      'runCommand',
      'parseHookInput',
    ])
      expect(text).not.toMatch(new RegExp(`function ${absent}\\(`));
    expect([...closure.values()].flatMap((imports) => imports.packages)).toEqual([]);
    const builtins = new Set([...closure.values()].flatMap((imports) => imports.builtins));
    for (const lazy of [
      'node:child_process',
      'node:worker_threads',
      'node:perf_hooks',
      'node:crypto',
    ])
      expect(builtins.has(lazy), lazy).toBe(false);
  });

  it('starts the spawn helper from a chunk that loads the runner alone, not the hook session', () => {
    // cli.js imports the runner first (warmSpawnHelperNow) so the helper's Node start overlaps the
    // command's loading; a runner chunk that pulled in the session's graph (config, dialects, zod)
    // started the helper ~100 ms later, and the first tool call waited for it.
    const runner = bundleImports(cli).dynamicFiles.find((file) => {
      const text = fs.readFileSync(file, 'utf8');
      return /warmSpawnHelper/.test(text) || /^export\{[^}]*\}from"\.\/runner-/.test(text);
    });
    expect(runner, 'the chunk cli.js imports to start the spawn helper').toBeDefined();
    const closure = staticClosure(runner as string);
    const text = [...closure.keys()].map((file) => fs.readFileSync(file, 'utf8')).join('\n');
    expect(text).toMatch(/function warmSpawnHelper\(/);
    for (const absent of ['openHookSession', 'loadConfig', 'createToolRegistry'])
      expect(text).not.toMatch(new RegExp(`function ${absent}\\(`));
    // The runner alone (with its posix spawner's Python program, ~7 KB): far from the session's
    // graph, which is several times this.
    expect(sizeOf(closure.keys())).toBeLessThan(70_000);
  });

  it("ships the runner's spawn helper as one self-contained file beside the runner's code", () => {
    const helper = path.join(DIST, 'chunks', 'spawn-helper-main.js');
    const imports = bundleImports(helper);
    expect(imports.staticFiles).toEqual([]);
    expect(imports.dynamicFiles).toEqual([]);
    expect(imports.packages).toEqual([]);
    const runnerChunks = fs
      .readdirSync(path.join(DIST, 'chunks'))
      .filter((file) =>
        fs.readFileSync(path.join(DIST, 'chunks', file), 'utf8').includes('./spawn-helper-main.js'),
      );
    expect(runnerChunks.length).toBeGreaterThan(0);
  });
});
