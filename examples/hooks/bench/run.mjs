// What each example hook costs per run, against its interpreter starting and doing nothing.
// Interleaved rounds so machine noise hits every case alike; prints medians and ratios, asserts
// nothing. Run from anywhere: `node examples/hooks/bench/run.mjs [ROUNDS]` (15 by default).
// Needs bash, jq, python3 and node on PATH, like the hooks themselves.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HOOKS = fileURLToPath(new URL('../', import.meta.url));
const ROUNDS = Number(process.argv[2] ?? 15);

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'soong-examples-bench-'));
const osHome = path.join(root, 'os-home');
const agentHome = path.join(osHome, '.soong-agent');
const projectDir = path.join(root, 'project');
fs.mkdirSync(agentHome, { recursive: true, mode: 0o700 });
fs.mkdirSync(path.join(projectDir, 'src'), { recursive: true });
const env = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: osHome,
  SOONG_AGENT_HOME: agentHome,
};

function input(event, extra) {
  return JSON.stringify({
    protocol_version: 1,
    event,
    session_id: '20261202T120000Z-e4a1c9',
    project_dir: projectDir,
    agent_home: agentHome,
    hook_id: `${event}[0][0]`,
    timestamp: new Date().toISOString(),
    ...extra,
  });
}

function tool(name, toolInput, risk, paths = []) {
  return { tool: { name, call_id: 'call_1', input: toolInput, risk, tags: [risk], paths } };
}

// Each hook on an input it allows (the common case: most calls pass), and its interpreter alone.
const cases = [
  { name: 'bash -c true', file: 'bash', args: ['-c', 'true'] },
  { name: 'jq -n 1', file: 'jq', args: ['-n', '1'] },
  {
    name: 'block-destructive-commands.sh (bash ls)',
    file: path.join(HOOKS, 'block-destructive-commands.sh'),
    stdin: input('PreToolUse', tool('bash', { command: 'ls -la' }, 'dangerous')),
    baseline: ['bash -c true', 'jq -n 1'],
  },
  { name: 'python3 -c pass', file: 'python3', args: ['-c', 'pass'] },
  {
    name: 'protect-paths.py (write_file src/a.ts)',
    file: path.join(HOOKS, 'protect-paths.py'),
    stdin: input(
      'PreToolUse',
      tool('write_file', { path: 'src/a.ts', content: 'x' }, 'write', [
        path.join(projectDir, 'src/a.ts'),
      ]),
    ),
    baseline: ['python3 -c pass'],
  },
  { name: 'node -e 0', file: process.execPath, args: ['-e', '0'] },
  {
    name: 'audit-log.mjs (PostToolUse)',
    file: path.join(HOOKS, 'audit-log.mjs'),
    stdin: input('PostToolUse', {
      ...tool('read_file', { path: 'src/a.ts' }, 'readonly'),
      result: { is_error: false, bytes: 2, content: 'ok' },
      duration_ms: 1,
    }),
    baseline: ['node -e 0'],
  },
  {
    name: 'require-tests-before-stop.mjs (no package.json)',
    file: path.join(HOOKS, 'require-tests-before-stop.mjs'),
    stdin: input('Stop', {
      stop_hook_active: false,
      prevented_count: 0,
      previous_reasons: [],
      last_assistant_message: 'done',
    }),
    baseline: ['node -e 0'],
  },
];

function timeOnce(item) {
  const start = process.hrtime.bigint();
  const result = spawnSync(item.file, item.args ?? [], {
    input: item.stdin ?? '',
    env,
    cwd: projectDir,
    encoding: 'utf8',
  });
  const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) {
    throw new Error(`${item.name} exited ${result.status}: ${result.stderr || result.error}`);
  }
  if (item.stdin !== undefined && /"decision"\s*:\s*"deny"/.test(result.stdout)) {
    throw new Error(`${item.name} denied; the benchmark wants the allow path: ${result.stdout}`);
  }
  return elapsed;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 0 ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle];
};

try {
  for (const item of cases) timeOnce(item); // warm the file cache
  const samples = new Map(cases.map((item) => [item.name, []]));
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const item of cases) samples.get(item.name).push(timeOnce(item));
  }
  const medians = new Map(cases.map((item) => [item.name, median(samples.get(item.name))]));
  const rows = cases.map((item) => {
    const value = medians.get(item.name);
    const base = (item.baseline ?? []).reduce((sum, name) => sum + medians.get(name), 0);
    return {
      case: item.name,
      'median ms': value.toFixed(1),
      'min ms': Math.min(...samples.get(item.name)).toFixed(1),
      against: item.baseline === undefined ? '' : item.baseline.join(' + '),
      ratio: item.baseline === undefined ? '' : (value / base).toFixed(2),
    };
  });
  console.log(
    `example hooks, ${ROUNDS} interleaved runs each on an input they allow (ratio = median / sum of the baseline medians)`,
  );
  console.table(rows);
} finally {
  fs.rmSync(root, { recursive: true, force: true });
}
