// Bundles the CLI after `tsc` has compiled it to dist/: a start loads a few files instead of ~270
// ES modules (zod alone is 95), which was two thirds of `hooks validate`'s start. The command
// modules stay dynamic imports (each its own chunk), so `--help` and `--version` load nothing of
// the packages. `@soong-agent/runner` stays external: it finds its spawn helper's entry file next
// to its own modules (and a host has one runner, whose exit-time cleanup sees every run). tsc's
// own output is kept in dist/unbundled/ (not packed) for benchmarks that load single modules.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

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
  external: [/^node:/, /^@soong-agent\/runner(\/|$)/, '@opentelemetry/api'],
  output: {
    dir: staging,
    format: 'esm',
    entryFileNames: '[name].js',
    chunkFileNames: 'chunks/[name]-[hash].js',
  },
  logLevel: 'warn',
});
checkRelativeUrls(staging);
fs.renameSync(staging, dist);
fs.renameSync(compiled, path.join(dist, 'unbundled'));

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
