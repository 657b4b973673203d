// Benchmarks loadConfig and CompiledHooks.match side by side with the raw cost of reading and
// JSON.parse-ing the same file. Run after a build: `pnpm build && pnpm bench`. Prints numbers only;
// nothing here asserts on time.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig } from '../dist/index.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'soong-config-bench-'));
const projectDir = path.join(root, 'project');
fs.mkdirSync(projectDir);

function home(name, files) {
  const dir = path.join(root, name);
  fs.mkdirSync(dir, { mode: 0o700 });
  for (const [file, content] of Object.entries(files))
    fs.writeFileSync(path.join(dir, file), content, { mode: 0o600 });
  return dir;
}

const rule = (index) => ({
  matcher: {
    tool: index % 2 ? 'bash' : ['write_file', 'edit_file'],
    path_prefix: `src/dir${index}`,
  },
  hooks: [{ type: 'command', command: `echo ${index}`, name: `hook-${index}`, timeout: 10 }],
});
const spec = {
  version: 1,
  hooks: {
    PreToolUse: [
      {
        matcher: { tool: ['write_file', 'edit_file'], path_prefix: 'src' },
        hooks: [{ type: 'command', command: 'guard', timeout: 10 }],
      },
    ],
    Stop: [{ hooks: [{ type: 'command', command: 'npm test --silent' }] }],
  },
};
const big = {
  version: 1,
  hooks: { PreToolUse: Array.from({ length: 200 }, (_, index) => rule(index)) },
};
const broken = {
  version: 1,
  hooks: {
    PreToolUse: Array.from({ length: 20 }, (_, index) => ({
      ...rule(index),
      matcher: { tool: 'Edit|Write' },
    })),
  },
};
const toml =
  '[hooks]\ndefault_timeout = 20\n[runner]\nenv_allowlist = ["NODE_OPTIONS"]\n[[tools]]\nname = "t"\ndescription = "d"\ncommand = "x"\nrisk = "readonly"\n';

const homes = {
  empty: home('empty', {}),
  spec: home('spec', { 'hooks.json': JSON.stringify(spec, null, 2), 'config.toml': toml }),
  big: home('big', { 'hooks.json': JSON.stringify(big, null, 2) }),
  broken: home('broken', { 'hooks.json': JSON.stringify(broken, null, 2) }),
};

function measure(run, minMs = 300) {
  for (let index = 0; index < 20; index++) run();
  let iterations = 0;
  const start = process.hrtime.bigint();
  let elapsed = 0n;
  while (elapsed < BigInt(minMs) * 1_000_000n) {
    for (let index = 0; index < 10; index++) run();
    iterations += 10;
    elapsed = process.hrtime.bigint() - start;
  }
  return Number(elapsed) / iterations / 1000; // µs per call
}

const load = (dir) => () => loadConfig({ home: dir, projectDir, homeDir: root });
const rawRead = (dir) => () => JSON.parse(fs.readFileSync(path.join(dir, 'hooks.json'), 'utf8'));
const loadBroken = () => {
  try {
    load(homes.broken)();
  } catch (error) {
    if (!ConfigError.isInstance(error)) throw error;
  }
};

const rows = [];
const baseline = measure(rawRead(homes.spec));
rows.push(['readFileSync + JSON.parse (spec hooks.json)', baseline]);
rows.push(['loadConfig: empty home (defaults)', measure(load(homes.empty))]);
rows.push(['loadConfig: spec example hooks.json + config.toml', measure(load(homes.spec))]);
const bigRaw = measure(rawRead(homes.big));
rows.push(['readFileSync + JSON.parse (200-rule hooks.json)', bigRaw]);
rows.push(['loadConfig: 200 rules', measure(load(homes.big))]);
rows.push(['loadConfig: 20 invalid matchers (ConfigError)', measure(loadBroken)]);

const bigConfig = load(homes.big)();
const noRuleSubject = { event: 'Stop' };
const missSubject = { event: 'PreToolUse', tool: 'grep', paths: ['docs/x'] };
const hitSubject = {
  event: 'PreToolUse',
  tool: 'bash',
  paths: [path.join(projectDir, 'src/dir101/a.ts')],
};
// What an agent does: a fresh subject per tool call, so the path's symlink resolution is paid.
fs.mkdirSync(path.join(projectDir, 'src/dir103'), { recursive: true });
fs.writeFileSync(path.join(projectDir, 'src/dir103/b.ts'), '');
const freshSubject = (written) => () =>
  bigConfig.hooks.match({ event: 'PreToolUse', tool: 'bash', paths: [written] });
const matchRows = [
  ['match: event without rules', measure(() => bigConfig.hooks.match(noRuleSubject))],
  ['match: 200 rules, tool matches none', measure(() => bigConfig.hooks.match(missSubject))],
  [
    'match: 200 rules, 100 candidates, 1 hit (same subject again)',
    measure(() => bigConfig.hooks.match(hitSubject)),
  ],
  [
    'match: 100 candidates, fresh subject, existing file',
    measure(freshSubject(path.join(projectDir, 'src/dir103/b.ts'))),
  ],
  [
    'match: 100 candidates, fresh subject, new file in a new folder',
    measure(freshSubject(path.join(projectDir, 'src/dir101/a.ts'))),
  ],
];

const format = (value) => (value < 10 ? value.toFixed(3) : value.toFixed(1));
console.log('| case | µs/call | × readFileSync+JSON.parse of the same file |');
console.log('|---|---:|---:|');
for (const [name, value] of rows) {
  const base = name.includes('200') ? bigRaw : baseline;
  console.log(`| ${name} | ${format(value)} | ${(value / base).toFixed(1)} |`);
}
console.log('\n| match | µs/call | × event without rules |');
console.log('|---|---:|---:|');
const matchBase = matchRows[0][1];
for (const [name, value] of matchRows)
  console.log(`| ${name} | ${format(value)} | ${(value / matchBase).toFixed(1)} |`);

fs.rmSync(root, { recursive: true, force: true });
