// Bundles the CLI after `tsc` has compiled it to dist/: a start loads a few files instead of ~270
// ES modules (zod alone is 95), which was two thirds of `hooks validate`'s start. The command
// modules stay dynamic imports (each its own chunk), so `--help` and `--version` load nothing of
// the packages. `@soong-agent/runner` is bundled too (its 17 modules, with `@soong-agent/paths` and
// `signal-exit`, were two thirds of the files `hooks validate` loaded, each an ES module load on
// Node 20): every import of it resolves to the one copy in the bundle, so the host has one
// runner, whose exit-time cleanup sees every run. The runner starts its spawn helper from the file
// `spawn-helper-main.js` beside its own code (`new URL('./spawn-helper-main.js', import.meta.url)`),
// so a second build writes the helper, self-contained (it loads one file, nothing of the app's
// chunks), into chunks/ beside the chunk that holds the runner. tsc's own output is kept in
// dist/unbundled/ (not packed) for benchmarks that load single modules.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const RUNNER_MODULE =
  /[\\/](packages[\\/]runner[\\/]dist|node_modules[\\/](@soong-agent[\\/]runner|signal-exit))[\\/]/;
const PATHS_MODULE =
  /[\\/](packages[\\/]paths[\\/]dist|node_modules[\\/]@soong-agent[\\/]paths)[\\/]/;
// Modules of the runner that others import without running anything stay out of its chunk:
// config reads its defaults (a chunk of their own), every start reads the process environment
// (left to the default split).
const RUNNER_DEFAULTS_MODULE = /[\\/]defaults\.js$/;
const RUNNER_ENVIRONMENT_MODULE = /[\\/]process-environment\.js$/;
const appDir = fileURLToPath(new URL('..', import.meta.url));
const dist = path.join(appDir, 'dist');
const compiled = path.join(appDir, 'dist-tsc');
const staging = path.join(appDir, 'dist-bundle');

fs.rmSync(staging, { recursive: true, force: true });
fs.rmSync(compiled, { recursive: true, force: true });
fs.renameSync(dist, compiled);
await build({
  input: {
    cli: path.join(compiled, 'cli.js'),
    // grep.ts starts it as `new URL('./grep-worker.js', import.meta.url)` from its chunk.
    'chunks/grep-worker': path.join(compiled, 'tools', 'grep-worker.js'),
  },
  platform: 'node',
  // jsonc-parser's `main` is a UMD build that requires its parts at run time: take the ESM one.
  resolve: { mainFields: ['module', 'main'] },
  external: [/^node:/, '@opentelemetry/api'],
  output: {
    dir: staging,
    format: 'esm',
    entryFileNames: '[name].js',
    chunkFileNames: 'chunks/[name]-[hash].js',
    // Minified: a start parses and compiles less (the chunk `hooks validate` loads is ~40% of its
    // unminified size; see bench/README.md). Names of functions and classes are kept: errors are
    // told apart by name and stack traces stay readable.
    minify: true,
    keepNames: true,
    // The runner (with signal-exit) in a chunk of its own, and paths in another: cli.js imports
    // the runner first to start the spawn helper, and left to the default split it shared a chunk
    // with the hook session, whose whole graph (config, dialects, zod) then loaded before the
    // helper could start. Paths and the runner's leaf modules (`defaults`, `process-environment`)
    // stay apart from it, so `hooks validate`, which needs them and runs nothing, does not load the
    // runner (and node:crypto with it).
    codeSplitting: {
      groups: [
        // Captured first: the runner's group would take the paths modules and defaults it imports.
        { name: 'paths', test: (id) => PATHS_MODULE.test(id), priority: 2 },
        {
          name: 'runner-defaults',
          test: (id) => RUNNER_MODULE.test(id) && RUNNER_DEFAULTS_MODULE.test(id),
          priority: 2,
        },
        {
          name: 'runner',
          test: (id) =>
            RUNNER_MODULE.test(id) &&
            !RUNNER_DEFAULTS_MODULE.test(id) &&
            !RUNNER_ENVIRONMENT_MODULE.test(id),
          priority: 1,
        },
      ],
    },
  },
  plugins: [lazyCommanderChildProcess()],
  logLevel: 'warn',
});
await build({
  input: { 'spawn-helper-main': spawnHelperEntry() },
  platform: 'node',
  external: [/^node:/],
  output: {
    dir: path.join(staging, 'chunks'),
    format: 'esm',
    entryFileNames: '[name].js',
    minify: true,
    keepNames: true,
  },
  logLevel: 'warn',
});
checkRelativeUrls(staging);
fs.renameSync(staging, dist);
fs.renameSync(compiled, path.join(dist, 'unbundled'));

// commander loads node:child_process when it is loaded (for executable subcommands, which this CLI
// has none of), and with it net and dgram: a cost on every start, `--help` included. Its one use
// is `childProcess.spawn(…)`, here loaded on first call. A commander whose source no longer has
// that line fails the build, so an upgrade is looked at rather than silently slower.
function lazyCommanderChildProcess() {
  const eager = "const childProcess = require('node:child_process');";
  return {
    name: 'lazy-commander-child-process',
    transform(code, id) {
      if (!/[\\/]commander[\\/]lib[\\/]command\.js$/.test(id)) return null;
      if (!code.includes(eager)) throw new Error(`${id} no longer has: ${eager}`);
      return code.replace(
        eager,
        "const childProcess = { spawn: (...args) => require('node:child_process').spawn(...args) };",
      );
    },
  };
}

// The runner's compiled helper entry, beside its main module (not in its exports: only the runner
// itself starts it).
function spawnHelperEntry() {
  const runnerMain = createRequire(path.join(appDir, 'package.json')).resolve(
    '@soong-agent/runner',
  );
  const entry = path.join(path.dirname(runnerMain), 'spawn-helper-main.js');
  if (!fs.existsSync(entry)) throw new Error(`the runner's spawn helper entry ${entry} is missing`);
  return entry;
}

// Every `new URL('./x', import.meta.url)` in the output must name a file that exists relative to
// the file it is in: a chunk that moved would otherwise break at run time, not here.
function checkRelativeUrls(dir) {
  const missing = [];
  for (const file of fs.readdirSync(dir, { recursive: true })) {
    const full = path.join(dir, String(file));
    if (!full.endsWith('.js')) continue;
    const text = fs.readFileSync(full, 'utf8');
    for (const match of text.matchAll(/new URL\((["'])(\.[^"']*)\1, import\.meta\.url\)/g)) {
      // The staging folder sits beside dist/: a path out of it (../package.json, ../../demo/)
      // reaches what it will reach from dist/.
      const exists = fs.existsSync(path.resolve(path.dirname(full), match[2]));
      if (!exists) missing.push(`${path.relative(dir, full)}: ${match[2]}`);
    }
  }
  if (missing.length > 0) {
    throw new Error(`the bundle names files that do not exist:\n  ${missing.join('\n  ')}`);
  }
}
