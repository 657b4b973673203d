// Installs the pinned CLIs from the npm registry into a cache outside the repository, once.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { runCommand } from '@soong-agent/runner';

/** Where the CLIs are cached: `$SOONG_CONFORMANCE_CACHE`, else `~/.cache/soong-agent-conformance`. */
export function cacheDir() {
  return (
    process.env.SOONG_CONFORMANCE_CACHE || join(homedir(), '.cache', 'soong-agent-conformance')
  );
}

/** The installed version of an agent's package in the cache, if any. */
function installedVersion(dir, agent) {
  const manifest = join(dir, 'node_modules', ...agent.packageName.split('/'), 'package.json');
  if (!existsSync(manifest)) return undefined;
  return JSON.parse(readFileSync(manifest, 'utf8')).version;
}

/**
 * The path of `agent`'s pinned CLI when it is in the cache already, else undefined (installs
 * nothing: the bench only uses what the conformance suite installed).
 * @param {import('./agents.mjs').Agent} agent
 */
export function cachedBin(agent) {
  const dir = join(cacheDir(), agent.name);
  const bin = join(dir, 'node_modules', '.bin', agent.bin);
  return installedVersion(dir, agent) === agent.version && existsSync(bin) ? bin : undefined;
}

/**
 * Makes sure `agent`'s pinned CLI is in the cache (installs it with npm when it is missing or another
 * version); returns the path of its executable or the reason it could not be installed.
 * @param {import('./agents.mjs').Agent} agent
 * @returns {Promise<{ bin: string, installedNow: boolean } | { error: string }>}
 */
export async function ensureInstalled(agent) {
  const cached = cachedBin(agent);
  if (cached !== undefined) return { bin: cached, installedNow: false };
  const dir = join(cacheDir(), agent.name);
  const bin = join(dir, 'node_modules', '.bin', agent.bin);
  mkdirSync(dir, { recursive: true });
  const result = await runCommand({
    command: [
      'npm',
      'install',
      '--prefix',
      dir,
      '--no-save',
      '--no-audit',
      '--no-fund',
      '--no-package-lock',
      '--loglevel=error',
      // Claude Code's package says node >=22, but its bin is a native executable: Node 20 runs it.
      '--engine-strict=false',
      `${agent.packageName}@${agent.version}`,
    ],
    cwd: dir,
    // The registry, and how to reach it: a proxy, and the certificates of one that inspects TLS.
    envAllowlist: [
      'PATH',
      'HOME',
      'TMPDIR',
      'LANG',
      'npm_config_registry',
      'NPM_CONFIG_REGISTRY',
      'npm_config_cafile',
      'NPM_CONFIG_CAFILE',
      'NODE_EXTRA_CA_CERTS',
      'HTTPS_PROXY',
      'https_proxy',
      'NO_PROXY',
      'no_proxy',
    ],
    timeoutMs: 600_000,
  });
  if (result.exitCode !== 0 || installedVersion(dir, agent) !== agent.version || !existsSync(bin)) {
    const why = result.timedOut ? 'timed out after 10 min' : `exit ${result.exitCode}`;
    return {
      error: `npm install ${agent.packageName}@${agent.version} failed (${why}): ${result.stderrTail.trim().split('\n').slice(-3).join(' | ')}`,
    };
  }
  return { bin, installedNow: true };
}
