import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The pi the tests run: the version spec §14 names, from the npm registry. */
export const PI_VERSION = '0.73.1';
export const PI_PACKAGE = '@mariozechner/pi-coding-agent';

/**
 * Where pi is installed, outside the repository: `$SOONG_AGENT_HOSTS_CACHE/pi`, else
 * `~/.cache/soong-agent-hosts/pi`.
 */
export function piCacheDir(): string {
  const root =
    process.env.SOONG_AGENT_HOSTS_CACHE ?? path.join(os.homedir(), '.cache', 'soong-agent-hosts');
  return path.join(root, 'pi');
}

/** pi's CLI entry in the cache. */
export function piCli(): string {
  return path.join(piCacheDir(), 'node_modules', ...PI_PACKAGE.split('/'), 'dist', 'cli.js');
}

function installedVersion(dir: string): string | undefined {
  const manifest = path.join(dir, 'node_modules', ...PI_PACKAGE.split('/'), 'package.json');
  try {
    return (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version?: string }).version;
  } catch {
    return undefined;
  }
}

/**
 * Installs pi {@link PI_VERSION} into {@link piCacheDir} with npm unless it is there (a fresh
 * machine needs only Node and npm). Installs into a sibling folder first and renames it, so a run
 * that stops half way never leaves a broken cache. Returns the CLI path.
 */
export function ensurePi(): string {
  const dir = piCacheDir();
  if (installedVersion(dir) === PI_VERSION) return piCli();
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  const staging = fs.mkdtempSync(`${dir}.installing-`);
  try {
    fs.writeFileSync(
      path.join(staging, 'package.json'),
      `${JSON.stringify({ name: 'soong-agent-hosts-pi', private: true })}\n`,
    );
    execFileSync(
      'npm',
      [
        'install',
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
        '--save-exact',
        `${PI_PACKAGE}@${PI_VERSION}`,
      ],
      { cwd: staging, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' },
    );
    fs.rmSync(dir, { recursive: true, force: true });
    try {
      fs.renameSync(staging, dir);
    } catch (error) {
      // Another test run installed it at the same time.
      if (installedVersion(dir) !== PI_VERSION) throw error;
    }
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
  return piCli();
}
