#!/usr/bin/env node
// Installs a pinned npm package (another agent's CLI, a runtime) into a cache outside the repo,
// `~/.cache/soong-agent-hosts/<name>` (or $SOONG_AGENT_HOSTS_CACHE/<name>), once; later calls reuse
// it. Tests that run a real host (Bun, OpenCode) call it from their setup, so a fresh machine with
// only Node and npm gets them from the npm registry.
//
//   node scripts/host-cache.mjs <dir-name> <package@version> [<package@version>…]
//   → prints the cache dir (its node_modules/.bin holds the binaries)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The cache dir of `name` with `specs` installed (npm install into it when the pinned versions
 * are not there yet). Installs run one at a time per dir (a lock dir), so parallel test files wait.
 */
export function ensureHostPackages(name, specs) {
  const root =
    process.env.SOONG_AGENT_HOSTS_CACHE ?? path.join(os.homedir(), '.cache', 'soong-agent-hosts');
  const dir = path.join(root, name);
  fs.mkdirSync(dir, { recursive: true });
  if (installed(dir, specs)) return dir;
  const lock = path.join(dir, '.installing');
  withLock(lock, () => {
    if (installed(dir, specs)) return;
    if (!fs.existsSync(path.join(dir, 'package.json')))
      fs.writeFileSync(path.join(dir, 'package.json'), '{"private":true}\n');
    execFileSync(
      process.platform === 'win32' ? 'npm.cmd' : 'npm',
      ['install', '--no-audit', '--no-fund', '--save-exact', '--loglevel=error', ...specs],
      { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] },
    );
    if (!installed(dir, specs))
      throw new Error(`npm install ${specs.join(' ')} in ${dir} did not install them`);
  });
  return dir;
}

function installed(dir, specs) {
  return specs.every((spec) => {
    const at = spec.lastIndexOf('@');
    const name = at > 0 ? spec.slice(0, at) : spec;
    const version = at > 0 ? spec.slice(at + 1) : undefined;
    try {
      const manifest = JSON.parse(
        fs.readFileSync(path.join(dir, 'node_modules', name, 'package.json'), 'utf8'),
      );
      return version === undefined || manifest.version === version;
    } catch {
      return false;
    }
  });
}

function withLock(lock, body) {
  const started = Date.now();
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      // A lock left by a killed install: taken over after 10 minutes.
      if (Date.now() - started > 600_000) {
        fs.rmSync(lock, { recursive: true, force: true });
        continue;
      }
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 250);
    }
  }
  try {
    body();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [name, ...specs] = process.argv.slice(2);
  if (name === undefined || specs.length === 0) {
    console.error('usage: node scripts/host-cache.mjs <dir-name> <package@version>…');
    process.exit(2);
  }
  console.log(ensureHostPackages(name, specs));
}
