// The release flow, dry: on a throwaway clone of HEAD, `changeset version` bumps the packages with
// pending changesets and writes their changelogs; then every package is packed as `changeset
// publish` would pack it (`pnpm publish` → `pnpm pack`), and the packed manifests must carry real
// versions for the workspace packages they depend on. Nothing is published.
// Usage: node scripts/release-check.mjs
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const work = mkdtempSync(join(os.tmpdir(), 'soong-release-check-'));
const clone = join(work, 'repo');
const run = (file, args, options = {}) =>
  execFileSync(file, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...options });
const pnpm = (args, cwd = clone) => run('npx', ['--yes', 'pnpm@12.4.2', ...args], { cwd });

function manifests(dir) {
  const found = new Map();
  for (const group of ['packages', 'apps']) {
    for (const name of readdirSync(join(dir, group)).sort()) {
      const file = join(dir, group, name, 'package.json');
      if (!existsSync(file)) continue;
      const manifest = JSON.parse(readFileSync(file, 'utf8'));
      found.set(manifest.name, { dir: join(dir, group, name), manifest });
    }
  }
  return found;
}

let failures = 0;
const fail = (message) => {
  failures += 1;
  console.log(`FAIL ${message}`);
};

try {
  run('git', ['clone', '--quiet', '--local', '--no-hardlinks', root, clone]);
  pnpm(['install', '--frozen-lockfile', '--prefer-offline']);
  const before = manifests(clone);
  const pending = readdirSync(join(clone, '.changeset')).filter(
    (file) => file.endsWith('.md') && file !== 'README.md',
  );
  run(join(clone, 'node_modules', '.bin', 'changeset'), ['version'], { cwd: clone });
  const after = manifests(clone);

  let bumped = 0;
  for (const [name, { dir, manifest }] of after) {
    const old = before.get(name)?.manifest.version;
    if (manifest.version === old) continue;
    bumped += 1;
    const changelog = join(dir, 'CHANGELOG.md');
    const text = existsSync(changelog) ? readFileSync(changelog, 'utf8') : '';
    if (!text.includes(`## ${manifest.version}`)) {
      fail(
        `${name} ${old} → ${manifest.version}: CHANGELOG.md has no "## ${manifest.version}" section`,
      );
    } else {
      console.log(`ok   ${name} ${old} → ${manifest.version}, changelog written`);
    }
  }
  if (pending.length > 0 && bumped === 0)
    fail(`${pending.length} changesets pending, nothing bumped`);
  if (pending.length === 0) console.log('ok   no changesets pending: nothing to version');
  const left = readdirSync(join(clone, '.changeset')).filter(
    (file) => file.endsWith('.md') && file !== 'README.md',
  );
  if (left.length > 0) fail(`changeset version left ${left.length} changesets behind`);

  // What publish would upload: internal ranges must name the versions just written.
  const out = join(work, 'packed');
  for (const [name, { dir, manifest }] of after) {
    if (manifest.private === true) continue;
    const file = join(out, `${name.replace(/[@/]/g, '_')}.tgz`);
    pnpm(['pack', '--out', file], dir);
    const packed = JSON.parse(run('tar', ['xzf', file, '-O', 'package/package.json']));
    for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies']) {
      for (const [dependency, range] of Object.entries(packed[field] ?? {})) {
        const internal = after.get(dependency);
        if (internal === undefined) continue;
        if (String(range).includes('workspace:')) fail(`${name}: ${dependency} kept ${range}`);
        else if (!String(range).includes(internal.manifest.version)) {
          fail(`${name}: ${dependency} is ${range}, not the released ${internal.manifest.version}`);
        }
      }
    }
    console.log(`ok   ${name}@${packed.version} packs with real internal ranges`);
  }
} catch (error) {
  fail(`${error.message}\n${[error.stdout, error.stderr].filter(Boolean).join('\n')}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
console.log(`release-check: ${failures === 0 ? 'ok' : `${failures} failed`}`);
process.exitCode = failures > 0 ? 1 : 0;
