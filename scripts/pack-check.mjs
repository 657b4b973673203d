// Packs every package the way a release does (`pnpm pack`, which `changeset publish` runs through
// `pnpm publish`), lints each tarball (publint, arethetypeswrong), then installs each package alone
// (with the tarballs of the workspace packages it depends on) into a fresh npm project outside the
// workspace, type-checks a small consumer of it (the shipped .d.ts included) and runs it.
// Usage: node scripts/pack-check.mjs   (after `pnpm build`; prints one line per check)
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const consumers = join(root, 'scripts', 'pack-check');
const work = mkdtempSync(join(os.tmpdir(), 'soong-pack-check-'));
const tarballs = join(work, 'tarballs');
mkdirSync(tarballs);
const pnpm = ['--yes', 'pnpm@12.4.2'];
const rootManifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const bin = (name) => join(root, 'node_modules', '.bin', name);
const run = (file, args, options = {}) =>
  execFileSync(file, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...options });

const packages = new Map();
for (const name of readdirSync(join(root, 'packages')).sort()) {
  const dir = join(root, 'packages', name);
  if (!existsSync(join(dir, 'package.json'))) continue;
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  packages.set(manifest.name, { name, dir, manifest });
}

let failures = 0;
function check(label, action) {
  try {
    const detail = action();
    console.log(`ok   ${label}${detail ? ` ${detail}` : ''}`);
  } catch (error) {
    failures += 1;
    const output = [error.stdout, error.stderr].filter(Boolean).join('\n').trim();
    console.log(`FAIL ${label}\n${(output || error.message).replace(/^/gm, '     ')}`);
  }
}

// 1. Pack, and lint what was packed.
for (const [packageName, { name, dir, manifest }] of packages) {
  const file = join(tarballs, `${name}.tgz`);
  check(`pack ${packageName}`, () => {
    run('npx', [...pnpm, 'pack', '--out', file], { cwd: dir });
    const listing = run('tar', ['tzf', file]).split('\n');
    const packed = JSON.parse(run('tar', ['xzf', file, '-O', 'package/package.json']));
    for (const [dependency, range] of Object.entries(packed.dependencies ?? {})) {
      if (String(range).startsWith('workspace:')) {
        throw new Error(`dependency ${dependency} kept the range ${range}`);
      }
    }
    // Every source map and declaration map must point at a file in the tarball.
    for (const mapFile of listing.filter((entry) => entry.endsWith('.map'))) {
      const map = JSON.parse(run('tar', ['xzf', file, '-O', mapFile]));
      for (const source of map.sources) {
        const target = join(mapFile, '..', source).replace(/^\/?/, '');
        if (!listing.includes(target)) throw new Error(`${mapFile} points at missing ${target}`);
      }
    }
    for (const entry of manifest.files ?? []) {
      if (entry.startsWith('!')) continue;
      if (
        !listing.some(
          (packedEntry) =>
            packedEntry === `package/${entry}` || packedEntry.startsWith(`package/${entry}/`),
        )
      ) {
        throw new Error(`"files" lists ${entry}, which is not in the tarball`);
      }
    }
    return `(${listing.filter(Boolean).length} files)`;
  });
  check(`publint ${packageName}`, () => {
    run(bin('publint'), ['run', '--strict', file]);
  });
  check(`attw ${packageName}`, () => {
    run(bin('attw'), ['--profile', 'esm-only', '--format', 'table-flipped', file]);
  });
}

// 2. Each package alone in a fresh project: install, type-check a consumer, run it.
function workspaceClosure(packageName, seen = new Set()) {
  if (seen.has(packageName)) return seen;
  seen.add(packageName);
  const { manifest } = packages.get(packageName);
  for (const dependency of Object.keys(manifest.dependencies ?? {})) {
    if (packages.has(dependency)) workspaceClosure(dependency, seen);
  }
  return seen;
}

for (const [packageName, { name, manifest }] of packages) {
  const consumer = join(consumers, `${name}.ts`);
  // Peer dependencies are the consumer's to install: at the version the package is tested with.
  const peers = Object.entries(manifest.peerDependencies ?? {}).map(
    ([peer, range]) => `${peer}@${manifest.devDependencies?.[peer] ?? range}`,
  );
  // `ai`'s own declarations import 'json-schema' without depending on its types; a consumer that
  // checks library types (skipLibCheck false, as here) needs them.
  if (manifest.peerDependencies?.ai !== undefined) peers.push('@types/json-schema@7.0.15');
  check(`consumer ${packageName}`, () => {
    if (!existsSync(consumer))
      throw new Error(`no consumer check at scripts/pack-check/${name}.ts`);
    const project = join(work, `consumer-${name}`);
    mkdirSync(project);
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: `consumer-${name}`, private: true, type: 'module' }),
    );
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          outDir: 'out',
          skipLibCheck: false,
          types: ['node'],
        },
        include: ['consumer.ts'],
      }),
    );
    writeFileSync(join(project, 'consumer.ts'), readFileSync(consumer));
    const local = [...workspaceClosure(packageName)].map((dependency) =>
      join(tarballs, `${packages.get(dependency).name}.tgz`),
    );
    run(
      'npm',
      [
        'install',
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
        ...local,
        ...peers,
        `typescript@${rootManifest.devDependencies.typescript}`,
        `@types/node@${rootManifest.devDependencies['@types/node']}`,
      ],
      { cwd: project },
    );
    run(join(project, 'node_modules', '.bin', 'tsc'), ['-p', 'tsconfig.json'], { cwd: project });
    return run(process.execPath, [join(project, 'out', 'consumer.js')], { cwd: project }).trim();
  });
}

// 3. The CLI, packed and installed alone (its tarball only: the bundle holds every package it uses,
// so it declares no dependency), in a fresh project: its starts, and a hook run through the
// runner's spawn helper (a file of the bundle).
const appDir = join(root, 'apps', 'reference-agent');
const appManifest = JSON.parse(readFileSync(join(appDir, 'package.json'), 'utf8'));
let appChecks = 0;
function checkApp(label, action) {
  appChecks += 1;
  check(label, action);
}
checkApp(`pack and install ${appManifest.name} alone`, () => {
  const file = join(tarballs, 'reference-agent.tgz');
  run('npx', [...pnpm, 'pack', '--out', file], { cwd: appDir });
  const packed = JSON.parse(run('tar', ['xzf', file, '-O', 'package/package.json']));
  const declared = Object.keys(packed.dependencies ?? {});
  if (declared.length > 0) throw new Error(`the bundled CLI declares dependencies: ${declared}`);
  const project = join(work, 'consumer-cli');
  mkdirSync(join(project, 'home'), { recursive: true, mode: 0o700 });
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'consumer-cli', private: true }),
  );
  run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', file], { cwd: project });
});
const cliProject = join(work, 'consumer-cli');
const cli = (args) =>
  run(join(cliProject, 'node_modules', '.bin', 'soong-agent'), args, {
    cwd: cliProject,
    env: { ...process.env, SOONG_AGENT_HOME: join(cliProject, 'home') },
  });
checkApp('soong-agent --help (installed alone)', () => {
  if (!cli(['--help']).includes('hooks')) throw new Error('no command list');
});
checkApp("soong-agent hooks test through the runner's spawner (installed alone)", () => {
  // The hook prints the command line of its parent: the runner's posix spawner (a python3 given
  // the package's program) where it runs, else its spawn helper from the package.
  const parent = `cat >/dev/null; tr '\\0' ' ' < /proc/$PPID/cmdline | head -c 200 >&2; echo '{"decision":"deny","reason":"packed"}'`;
  writeFileSync(
    join(cliProject, 'home', 'hooks.json'),
    JSON.stringify({
      version: 1,
      hooks: { PreToolUse: [{ hooks: [{ type: 'command', command: parent }] }] },
    }),
    { mode: 0o600 },
  );
  if (!cli(['hooks', 'validate']).includes('1 hook'))
    throw new Error('validate did not see the hook');
  let output = '';
  try {
    cli(['hooks', 'test', 'PreToolUse', '--tool', 'bash', '--input', '{"command":"ls"}']);
  } catch (error) {
    // exit 3: the deny stands
    if (error.status !== 3) throw error;
    output = String(error.stdout);
  }
  if (!output.includes('packed')) throw new Error(`no deny in:\n${output}`);
  const spawner = output.includes('spawn-helper-main.js') || /python3 -I -S -c /.test(output);
  if (process.platform === 'linux' && !spawner)
    throw new Error(`the hook was not spawned by the runner's spawner:\n${output}`);
});

rmSync(work, { recursive: true, force: true });
console.log(`pack-check: ${packages.size * 4 + appChecks - failures} passed, ${failures} failed`);
process.exitCode = failures > 0 ? 1 : 0;
