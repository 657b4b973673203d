// Benchmarks of @soong-agent/loop-adapter (run `pnpm bench` after a build). Prints tables of
// numbers measured side by side in one run; never asserts on time.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '@soong-agent/config';
import { runCommand } from '@soong-agent/runner';
import {
  createFileArtifactStore,
  createHookEngine,
  createJsonlEventSink,
  createMemoryEventSink,
  executeToolBatch,
} from '../dist/index.js';

const SESSION_ID = '20261202T135512Z-000000';
const TRIVIAL_HOOK = `cat >/dev/null; echo '{"decision":"allow"}'`;

function makeSetup(hooks, configToml = '') {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'loop-adapter-bench-')));
  const home = path.join(root, 'home');
  const projectDir = path.join(root, 'project');
  fs.mkdirSync(home, { mode: 0o700 });
  fs.mkdirSync(projectDir);
  fs.writeFileSync(path.join(home, 'hooks.json'), JSON.stringify({ version: 1, hooks }), {
    mode: 0o600,
  });
  fs.writeFileSync(path.join(home, 'config.toml'), configToml, { mode: 0o600 });
  const config = loadConfig({ home, projectDir, homeDir: root });
  return {
    root,
    home,
    projectDir,
    config,
    cleanup: () => fs.rmSync(root, { recursive: true, force: true }),
  };
}

function toolInfo(name) {
  return {
    name,
    call_id: 'call_1',
    input: { path: 'src/a.ts' },
    risk: 'readonly',
    tags: ['readonly'],
    paths: ['/p/src/a.ts'],
  };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

function table(title, headers, rows) {
  const widths = headers.map((header, column) =>
    Math.max(header.length, ...rows.map((row) => String(row[column]).length)),
  );
  const line = (cells) =>
    cells.map((cell, column) => String(cell).padStart(widths[column])).join('  ');
  console.log(
    `\n${title}\n${line(headers)}\n${widths.map((width) => '-'.repeat(width)).join('  ')}`,
  );
  for (const row of rows) console.log(line(row));
}

async function benchDispatch() {
  const rules = Array.from({ length: 1000 }, (_, index) => ({
    matcher: { tool: `tool_${index}` },
    hooks: [{ type: 'command', command: TRIVIAL_HOOK }],
  }));
  const setup = makeSetup({ PreToolUse: rules.slice(0, 500), PostToolUse: rules.slice(500) });
  const engine = createHookEngine({
    config: setup.config,
    sink: createMemoryEventSink({ sessionId: SESSION_ID }),
    sessionId: SESSION_ID,
  });
  const cases = [
    [
      'PreToolUse, 500 rules of the event, none match',
      'PreToolUse',
      { tool: toolInfo('read_file') },
    ],
    [
      'Stop, no rules of the event',
      'Stop',
      {
        stop_hook_active: false,
        prevented_count: 0,
        previous_reasons: [],
        last_assistant_message: '',
      },
    ],
  ];
  // Baseline measured alongside: awaiting an empty async function (the floor of any async API).
  const empty = async () => undefined;
  const chunk = async (run) => {
    const started = process.hrtime.bigint();
    for (let index = 0; index < 5_000; index++) await run();
    return Number(process.hrtime.bigint() - started) / 5_000;
  };
  const rows = [];
  for (const [label, event, payload] of cases) {
    const run = () => engine.run(event, payload);
    for (let index = 0; index < 4; index++) {
      await chunk(run);
      await chunk(empty);
    }
    // 20 interleaved chunks of 5,000 runs each; the median chunk resists a noisy machine.
    const engineChunks = [];
    const baselineChunks = [];
    for (let index = 0; index < 20; index++) {
      engineChunks.push(await chunk(run));
      baselineChunks.push(await chunk(empty));
    }
    const nsPerRun = median(engineChunks);
    const baseline = median(baselineChunks);
    rows.push([label, nsPerRun.toFixed(0), baseline.toFixed(0), (nsPerRun / baseline).toFixed(2)]);
  }
  setup.cleanup();
  table(
    'Dispatch with 1,000 rules configured and none matching (no process spawned; median of 20 interleaved chunks of 5,000 runs)',
    ['case', 'engine.run ns', 'empty async fn ns', 'ratio'],
    rows,
  );
}

async function benchEngineVsRunner() {
  const setup = makeSetup({
    PreToolUse: [{ hooks: [{ type: 'command', command: TRIVIAL_HOOK }] }],
  });
  const sink = createJsonlEventSink(path.join(setup.home, 'sessions', SESSION_ID, 'events.jsonl'), {
    sessionId: SESSION_ID,
  });
  const engine = createHookEngine({ config: setup.config, sink, sessionId: SESSION_ID });
  const payload = { tool: toolInfo('read_file') };
  // The bare runner gets the same command, stdin size and options the engine passes.
  const stdin = JSON.stringify({
    protocol_version: 1,
    event: 'PreToolUse',
    session_id: SESSION_ID,
    project_dir: setup.projectDir,
    agent_home: setup.home,
    hook_id: 'PreToolUse[0][0]',
    timestamp: new Date().toISOString(),
    ...payload,
  });
  const bare = () =>
    runCommand({
      command: TRIVIAL_HOOK,
      cwd: setup.projectDir,
      allowedRoots: [setup.projectDir, setup.home],
      envAllowlist: setup.config.envAllowlist,
      env: {
        SOONG_AGENT_HOME: setup.home,
        SOONG_AGENT_PROJECT_DIR: setup.projectDir,
        SOONG_AGENT_SESSION_ID: SESSION_ID,
        SOONG_AGENT_HOOK_EVENT: 'PreToolUse',
      },
      input: stdin,
      timeoutMs: 30_000,
      killGraceMs: 1000,
      maxOutputBytes: 1048576,
      stopOnOutputLimit: true,
    });
  const rounds = 150;
  const engineTimes = [];
  const runnerTimes = [];
  for (let index = 0; index < 10; index++) {
    await engine.run('PreToolUse', payload);
    await bare();
  }
  for (let index = 0; index < rounds; index++) {
    // Alternate which goes first so drift on a noisy machine hits both sides alike.
    const order = index % 2 === 0 ? ['engine', 'runner'] : ['runner', 'engine'];
    for (const which of order) {
      const started = performance.now();
      if (which === 'engine') await engine.run('PreToolUse', payload);
      else await bare();
      (which === 'engine' ? engineTimes : runnerTimes).push(performance.now() - started);
    }
  }
  await sink.close();
  setup.cleanup();
  const engineMedian = median(engineTimes);
  const runnerMedian = median(runnerTimes);
  table(
    `PreToolUse with one trivial hook: engine (JSONL sink) vs bare runCommand, ${rounds} interleaved rounds (target ratio <= 1.05)`,
    ['engine median ms', 'runner median ms', 'ratio'],
    [[engineMedian.toFixed(3), runnerMedian.toFixed(3), (engineMedian / runnerMedian).toFixed(3)]],
  );
}

// One size per child process, so that peak RSS belongs to that size alone.
async function postToolUseChild(size) {
  const setup = makeSetup({});
  const countFile = path.join(setup.root, 'stdin-bytes');
  fs.writeFileSync(
    path.join(setup.home, 'hooks.json'),
    JSON.stringify({
      version: 1,
      hooks: {
        PostToolUse: [
          {
            hooks: [
              { type: 'command', command: `wc -c > '${countFile}'; echo '{"decision":"allow"}'` },
            ],
          },
        ],
      },
    }),
    { mode: 0o600 },
  );
  const config = loadConfig({
    home: setup.home,
    projectDir: setup.projectDir,
    homeDir: setup.root,
  });
  const sink = createMemoryEventSink({ sessionId: SESSION_ID });
  const artifacts = createFileArtifactStore(path.join(setup.home, 'artifacts'));
  const engine = createHookEngine({ config, sink, sessionId: SESSION_ID, artifacts });
  const tool = {
    name: 'cat_big',
    risk: 'readonly',
    paths: () => [],
    execute: async () => ({
      content: `${'0123456789abcde\n'.repeat(Math.floor(size / 16))}${'z'.repeat(size % 16)}`,
      isError: false,
    }),
  };
  const before = process.memoryUsage().rss;
  const started = performance.now();
  await executeToolBatch([{ id: 'c1', name: 'cat_big', input: {} }], {
    tools: new Map([['cat_big', tool]]),
    engine,
    permission: async () => ({ allow: true }),
    artifacts,
    sink,
  });
  const durationMs = performance.now() - started;
  if (!fs.existsSync(countFile))
    throw new Error(`hook did not run: ${JSON.stringify(sink.records)}`);
  const stdinBytes = Number(fs.readFileSync(countFile, 'utf8').trim());
  const result = {
    size,
    stdinBytes,
    rssBeforeMb: before / 2 ** 20,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
    durationMs,
  };
  setup.cleanup();
  process.stdout.write(JSON.stringify(result));
}

function benchPostToolUse() {
  const rows = [];
  for (const [label, size] of [
    ['1 KB', 1024],
    ['1 MB', 2 ** 20],
    ['100 MB', 100 * 2 ** 20],
  ]) {
    const output = execFileSync(
      process.execPath,
      [fileURLToPath(import.meta.url), '--post-child', String(size)],
      { encoding: 'utf8', maxBuffer: 1 << 20 },
    );
    const result = JSON.parse(output);
    rows.push([
      label,
      result.size,
      result.stdinBytes,
      result.stdinBytes <= 20_480 || result.size <= 16_384 ? 'yes' : 'NO',
      result.rssBeforeMb.toFixed(0),
      result.peakRssMb.toFixed(0),
      result.durationMs.toFixed(0),
    ]);
  }
  table(
    'PostToolUse with large tool results (inline_result_bytes = 16384; target: stdin <= 20 KB when over the limit)',
    ['result', 'bytes', 'hook stdin bytes', '<= 20 KB', 'RSS before MB', 'peak RSS MB', 'batch ms'],
    rows,
  );
}

if (process.argv[2] === '--post-child') {
  await postToolUseChild(Number(process.argv[3]));
} else {
  console.log(
    `@soong-agent/loop-adapter benchmarks (node ${process.version}, ${os.cpus().length} cpus)`,
  );
  await benchDispatch();
  await benchEngineVsRunner();
  benchPostToolUse();
}
