import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadConfig } from '@soong-agent/config';
import {
  createHookEngine,
  createMemoryEventSink,
  type HookOutcome,
} from '@soong-agent/loop-adapter';
import { type EventRecord, EventRecordSchema, type ToolCallInfo } from '@soong-agent/protocol';
import { makeTempDir, minimalEnv, runProcess } from '@soong-agent/test-utils';
import { describe, expect, it } from 'vitest';

const EXAMPLES_DIR = fileURLToPath(new URL('../../../examples/hooks/', import.meta.url));
const PACKAGE_HELPER = createRequire(import.meta.url).resolve('@soong-agent/protocol/hook');
const PROCESS_TEST_MS = 120_000;
const SESSION_ID = '20261202T120000Z-d1ff00';

// --- the helpers: one handler, three implementations ----------------------------------------------

// The same handler in each language: `act` (the tool input's) chooses what it does; other events allow.
const NODE_HANDLER = (
  importFrom: string,
) => `import { defineHook } from ${JSON.stringify(importFrom)};
let calls = 0;
await defineHook(async (input, context) => {
  calls += 1;
  const act = input.event === 'PreToolUse' ? input.tool.input.act : 'allow';
  if (act === 'none') return undefined;
  if (act === 'throw') throw new Error('handler-failure-marker');
  if (act === 'mode') return { decision: 'allow', reason: context.mode };
  if (act === 'log') console.error('log-marker');
  return { decision: act === 'deny' ? 'deny' : 'allow', reason: 'call ' + calls, metadata: { act } };
});
`;
const PYTHON_HANDLER = `import sys
sys.dont_write_bytecode = True
sys.path.insert(0, ${JSON.stringify(EXAMPLES_DIR)})
from soong_hook import run_hook, HOOK_MODE
calls = 0
def handler(hook_input):
    global calls
    calls += 1
    act = hook_input["tool"]["input"].get("act") if hook_input["event"] == "PreToolUse" else "allow"
    if act == "none":
        return None
    if act == "throw":
        raise RuntimeError("handler-failure-marker")
    if act == "mode":
        return {"decision": "allow", "reason": HOOK_MODE}
    if act == "log":
        print("log-marker", file=sys.stderr)
    return {"decision": "deny" if act == "deny" else "allow", "reason": f"call {calls}", "metadata": {"act": act}}
run_hook(handler)
`;

interface Implementation {
  name: string;
  argv: (dir: string) => string[];
}

const IMPLEMENTATIONS: Implementation[] = [
  {
    name: '@soong-agent/protocol/hook',
    argv: (dir) => nodeScript(dir, pathToFileURL(PACKAGE_HELPER).href),
  },
  {
    name: 'examples/hooks/soong-hook.mjs',
    argv: (dir) => nodeScript(dir, pathToFileURL(path.join(EXAMPLES_DIR, 'soong-hook.mjs')).href),
  },
  {
    name: 'examples/hooks/soong_hook.py',
    argv: (dir) => {
      const file = path.join(dir, 'handler.py');
      fs.writeFileSync(file, PYTHON_HANDLER);
      return ['python3', file];
    },
  },
];

function nodeScript(dir: string, importFrom: string): string[] {
  const file = path.join(dir, 'handler.mjs');
  fs.writeFileSync(file, NODE_HANDLER(importFrom));
  return [process.execPath, file];
}

interface Transcript {
  code: number | null;
  /** stdout, one parsed JSON value per line. */
  lines: unknown[];
  stderr: string;
}

async function runHelper(
  argv: string[],
  mode: 'spawn' | 'worker',
  stdin: string,
): Promise<Transcript> {
  const [file, ...args] = argv as [string, ...string[]];
  const { code, stdout, stderr } = await runProcess(file, args, {
    env: minimalEnv({ SOONG_AGENT_HOOK_MODE: mode }),
    stdin,
  });
  const lines = stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as unknown);
  return { code, lines, stderr };
}

function helperInput(act: string): Record<string, unknown> {
  return {
    protocol_version: 1,
    event: 'PreToolUse',
    session_id: SESSION_ID,
    project_dir: '/tmp/project',
    agent_home: '/tmp/home',
    hook_id: 'guard',
    timestamp: '2026-12-02T12:00:00.000Z',
    tool: {
      name: 'bash',
      call_id: 'call_1',
      input: { act },
      risk: 'dangerous',
      tags: ['dangerous'],
      paths: [],
    },
  };
}

const requests = (...acts: string[]) =>
  acts
    .map((act, index) => `${JSON.stringify({ id: index + 1, input: helperInput(act) })}\n`)
    .join('');

// What each scenario gives: exit code, stdout lines, and whether stderr says something.
const SCENARIOS: [label: string, mode: 'spawn' | 'worker', stdin: string][] = [
  ['spawn allow', 'spawn', JSON.stringify(helperInput('allow'))],
  ['spawn deny', 'spawn', JSON.stringify(helperInput('deny'))],
  ['spawn no decision', 'spawn', JSON.stringify(helperInput('none'))],
  ['spawn mode', 'spawn', JSON.stringify(helperInput('mode'))],
  ['spawn log', 'spawn', JSON.stringify(helperInput('log'))],
  ['spawn throw', 'spawn', JSON.stringify(helperInput('throw'))],
  ['spawn not JSON', 'spawn', '{"event": '],
  ['spawn unknown event', 'spawn', JSON.stringify({ ...helperInput('allow'), event: 'Teardown' })],
  ['worker session', 'worker', requests('allow', 'none', 'deny', 'mode', 'log', 'allow')],
  ['worker throw', 'worker', requests('allow', 'throw', 'allow')],
  ['worker bad line', 'worker', `${requests('allow')}{"input":{}}\n`],
  ['worker empty', 'worker', ''],
];

describe('examples/hooks/soong-hook.mjs and soong_hook.py', () => {
  it(
    'answer every scenario exactly as @soong-agent/protocol/hook does in both modes',
    async () => {
      const transcripts = new Map<string, Transcript[]>();
      for (const implementation of IMPLEMENTATIONS) {
        const dir = makeTempDir('soong-helper-');
        const argv = implementation.argv(dir);
        const runs: Transcript[] = [];
        for (const [, mode, stdin] of SCENARIOS) runs.push(await runHelper(argv, mode, stdin));
        transcripts.set(implementation.name, runs);
      }
      const reference = transcripts.get('@soong-agent/protocol/hook') ?? [];
      // The reference itself: what the scenarios must give.
      const byLabel = new Map(SCENARIOS.map(([label], index) => [label, reference[index]]));
      expect(byLabel.get('spawn deny')).toMatchObject({
        code: 0,
        lines: [{ decision: 'deny', reason: 'call 1', metadata: { act: 'deny' } }],
      });
      expect(byLabel.get('spawn no decision')).toMatchObject({ code: 0, lines: [] });
      expect(byLabel.get('spawn throw')).toMatchObject({ code: 1, lines: [] });
      expect(byLabel.get('worker session')?.lines).toEqual([
        { id: 1, output: { decision: 'allow', reason: 'call 1', metadata: { act: 'allow' } } },
        { id: 2, output: null },
        { id: 3, output: { decision: 'deny', reason: 'call 3', metadata: { act: 'deny' } } },
        { id: 4, output: { decision: 'allow', reason: 'worker' } },
        { id: 5, output: { decision: 'allow', reason: 'call 5', metadata: { act: 'log' } } },
        { id: 6, output: { decision: 'allow', reason: 'call 6', metadata: { act: 'allow' } } },
      ]);
      expect(byLabel.get('worker throw')).toMatchObject({ code: 1, lines: [{ id: 1 }] });
      expect(byLabel.get('worker empty')).toMatchObject({ code: 0, lines: [] });
      for (const [name, runs] of transcripts) {
        SCENARIOS.forEach(([label], index) => {
          const run = runs[index] as Transcript;
          const expected = reference[index] as Transcript;
          expect({ code: run.code, lines: run.lines }, `${name}: ${label}\n${run.stderr}`).toEqual({
            code: expected.code,
            lines: expected.lines,
          });
          // A failure always says why on stderr; a success says nothing unless the handler logged.
          expect(run.stderr !== '', `${name}: ${label} stderr`).toBe(expected.stderr !== '');
        });
      }
    },
    PROCESS_TEST_MS * 2,
  );
});

// --- the converted examples: spawn vs worker through the real engine --------------------------------

interface ExampleSetup {
  home: string;
  projectDir: string;
  hooksDir: string;
}

/** An agent home with the two converted examples and their helpers copied in, as the README installs them. */
function exampleHome(): ExampleSetup {
  const root = makeTempDir('soong-modes-');
  const home = path.join(root, 'home');
  const projectDir = path.join(root, 'project');
  const hooksDir = path.join(home, 'hooks');
  fs.mkdirSync(hooksDir, { recursive: true, mode: 0o700 });
  fs.mkdirSync(projectDir);
  for (const name of ['protect-paths.py', 'audit-log.mjs', 'soong_hook.py', 'soong-hook.mjs']) {
    fs.copyFileSync(path.join(EXAMPLES_DIR, name), path.join(hooksDir, name));
    fs.chmodSync(path.join(hooksDir, name), 0o755);
  }
  for (const [file, content] of Object.entries({
    '.env': 'TOKEN=1\n',
    'secrets/key.pem': 'k\n',
    'src/index.ts': 'export {};\n',
  })) {
    fs.mkdirSync(path.dirname(path.join(projectDir, file)), { recursive: true });
    fs.writeFileSync(path.join(projectDir, file), content);
  }
  fs.symlinkSync(path.join(projectDir, 'secrets'), path.join(projectDir, 'innocent'));
  return { home, projectDir, hooksDir };
}

/** An engine whose hooks.json runs `command` under `name` on every event, in `mode`. */
function engineFor(
  setup: ExampleSetup,
  hook: { name: string; command: string; on_failure?: 'deny' | 'ignore' },
  mode: 'spawn' | 'worker',
) {
  const entry = { type: 'command', ...hook, mode, timeout: 30 };
  const hooks = Object.fromEntries(
    ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop'].map((event) => [
      event,
      [{ hooks: [{ ...entry, name: `${hook.name}-${event}` }] }],
    ]),
  );
  fs.writeFileSync(path.join(setup.home, 'hooks.json'), JSON.stringify({ version: 1, hooks }), {
    mode: 0o600,
  });
  const config = loadConfig({
    home: setup.home,
    projectDir: setup.projectDir,
    homeDir: path.dirname(setup.home),
  });
  const sink = createMemoryEventSink({ sessionId: SESSION_ID });
  return { engine: createHookEngine({ config, sink, sessionId: SESSION_ID }), sink };
}

function tool(
  name: string,
  input: Record<string, unknown>,
  paths: string[],
  callId: string,
): ToolCallInfo {
  const risk = name === 'bash' ? 'dangerous' : name === 'read_file' ? 'readonly' : 'write';
  return { name, call_id: callId, input, risk, tags: [risk], paths };
}

/** The same session's worth of events for both modes. */
async function runSession(
  engine: ReturnType<typeof createHookEngine>,
  projectDir: string,
): Promise<HookOutcome[]> {
  const at = (relative: string) => path.join(projectDir, relative);
  const writes: [string, string][] = [
    ['.env', 'w1'],
    ['secrets/key.pem', 'w2'],
    ['src/index.ts', 'w3'],
    ['innocent/new.pem', 'w4'],
    ['src/../.env', 'w5'],
    ['.env.example', 'w6'],
  ];
  const outcomes: HookOutcome[] = [];
  outcomes.push(await engine.run('SessionStart', {}));
  outcomes.push(await engine.run('UserPromptSubmit', { prompt: 'configure the app' }));
  for (const [relative, callId] of writes) {
    const call = tool('write_file', { path: relative, content: 'x' }, [at(relative)], callId);
    outcomes.push(await engine.run('PreToolUse', { tool: call }));
  }
  const bash = tool('bash', { command: 'echo x > .env' }, [], 'b1');
  outcomes.push(await engine.run('PreToolUse', { tool: bash }));
  outcomes.push(
    await engine.run('PostToolUse', {
      tool: bash,
      result: { is_error: false, bytes: 0, content: '' },
      duration_ms: 4,
    }),
  );
  outcomes.push(
    await engine.run('Stop', {
      stop_hook_active: false,
      prevented_count: 0,
      previous_reasons: [],
      last_assistant_message: 'done',
    }),
  );
  return outcomes;
}

/** What must be identical across modes: decision, reason, and each hook's failure kind. */
function essence(outcomes: HookOutcome[]) {
  return outcomes.map((outcome) => ({
    decision: outcome.decision,
    reason: outcome.reason,
    hooks: outcome.results.map((result) => ({
      decision: result.decision,
      reason: result.reason,
      metadata: result.metadata,
      failure: result.failure,
    })),
  }));
}

/**
 * The spec §5 invariants, with worker records in the log: every record valid, `seq` from 1 without
 * gaps; a hook run is `hook_started`, its `hook_log`s, one `hook_finished` / `hook_failed`, then at
 * most one `hook_denied` / `hook_decision_ignored`; `worker_started` / `worker_stopped` never fall
 * inside a run, alternate per hook id, and no worker is left running at the end.
 */
function expectValidLog(records: readonly EventRecord[]): void {
  const live = new Set<string>();
  let run: { hookId: string; stage: 'running' | 'done' } | undefined;
  records.forEach((record, index) => {
    const where = `record ${index + 1} (${record.type}): ${JSON.stringify(records.slice(Math.max(0, index - 3), index + 1).map((r) => r.type))}`;
    expect(EventRecordSchema.safeParse(record).success, where).toBe(true);
    expect(record.seq, where).toBe(index + 1);
    const hookId = 'hook_id' in record ? String(record.hook_id) : '';
    switch (record.type) {
      case 'hook_started':
        expect(run?.stage, where).not.toBe('running');
        run = { hookId, stage: 'running' };
        break;
      case 'hook_log':
        if (run?.stage === 'running') expect(run.hookId, where).toBe(hookId);
        else expect(live.has(hookId) || run?.hookId === hookId, where).toBe(true);
        break;
      case 'hook_finished':
      case 'hook_failed':
        expect(run, where).toEqual({ hookId, stage: 'running' });
        run = { hookId, stage: 'done' };
        break;
      case 'hook_denied':
      case 'hook_decision_ignored':
        expect(run, where).toEqual({ hookId, stage: 'done' });
        run = undefined;
        break;
      case 'worker_started':
        expect(run?.stage, where).not.toBe('running');
        expect(live.has(hookId), where).toBe(false);
        live.add(hookId);
        break;
      case 'worker_stopped':
        expect(run?.stage, where).not.toBe('running');
        expect(live.delete(hookId), where).toBe(true);
        break;
      default:
        break;
    }
  });
  expect(run?.stage).not.toBe('running');
  expect([...live]).toEqual([]);
}

async function bothModes(
  setup: ExampleSetup,
  hook: { name: string; command: string; on_failure?: 'deny' | 'ignore' },
  between?: () => void,
) {
  const results: Record<'spawn' | 'worker', { outcomes: HookOutcome[]; types: string[] }> = {
    spawn: { outcomes: [], types: [] },
    worker: { outcomes: [], types: [] },
  };
  for (const mode of ['spawn', 'worker'] as const) {
    const { engine, sink } = engineFor(setup, hook, mode);
    results[mode].outcomes = await runSession(engine, setup.projectDir);
    await engine.close();
    expectValidLog(sink.records);
    results[mode].types = sink.records.map((record) => record.type);
    between?.();
  }
  return results;
}

describe('the converted example hooks in spawn and worker mode', () => {
  it(
    'gives identical outcomes for protect-paths.py on the same session',
    async () => {
      const setup = exampleHome();
      const { spawn: spawned, worker } = await bothModes(setup, {
        name: 'protect-paths',
        command: `python3 '${path.join(setup.hooksDir, 'protect-paths.py')}'`,
        on_failure: 'deny',
      });
      expect(essence(worker.outcomes)).toEqual(essence(spawned.outcomes));
      // The session really was decided, not failed: four denies, by rule.
      const denied = spawned.outcomes.filter((outcome) => outcome.decision === 'deny');
      expect(denied.map((outcome) => outcome.results[0]?.metadata?.rule)).toEqual([
        '.env',
        'secrets/',
        'secrets/',
        '.env',
      ]);
      expect(spawned.types).not.toContain('hook_failed');
      // One worker per hook id that ran, each started once and stopped at session end.
      expect(spawned.types).not.toContain('worker_started');
      expect(worker.types.filter((type) => type === 'worker_started')).toHaveLength(5);
      expect(worker.types.filter((type) => type === 'worker_stopped')).toHaveLength(5);
    },
    PROCESS_TEST_MS,
  );

  it(
    'gives identical outcomes and identical audit lines for audit-log.mjs on the same session',
    async () => {
      const setup = exampleHome();
      const logFile = path.join(setup.home, 'audit.jsonl');
      const logs: Record<string, unknown>[][] = [];
      const { spawn: spawned, worker } = await bothModes(
        setup,
        { name: 'audit', command: `node '${path.join(setup.hooksDir, 'audit-log.mjs')}'` },
        () => {
          logs.push(
            fs
              .readFileSync(logFile, 'utf8')
              .split('\n')
              .filter((line) => line !== '')
              .map((line) => {
                const { ts: _ts, event_timestamp: _at, ...rest } = JSON.parse(line);
                return rest as Record<string, unknown>;
              }),
          );
          fs.rmSync(logFile);
        },
      );
      expect(essence(worker.outcomes)).toEqual(essence(spawned.outcomes));
      expect(spawned.outcomes.every((outcome) => outcome.decision === 'none')).toBe(true);
      expect(logs[0]).toHaveLength(spawned.outcomes.length);
      expect(logs[1]).toEqual(logs[0]);
      expect(worker.types).not.toContain('hook_failed');
    },
    PROCESS_TEST_MS,
  );

  it(
    'denies every write with the same reason in both modes when protect-paths.txt cannot be read',
    async () => {
      const setup = exampleHome();
      fs.mkdirSync(path.join(setup.hooksDir, 'protect-paths.txt'));
      const { spawn: spawned, worker } = await bothModes(setup, {
        name: 'protect-paths',
        command: `python3 '${path.join(setup.hooksDir, 'protect-paths.py')}'`,
        on_failure: 'deny',
      });
      expect(essence(worker.outcomes)).toEqual(essence(spawned.outcomes));
      expect(spawned.outcomes.filter((outcome) => outcome.decision === 'deny')).toHaveLength(6);
    },
    PROCESS_TEST_MS,
  );

  it(
    'fails every call and fails closed in both modes when the helper is missing (exit_code in spawn mode, worker_exited in worker mode)',
    async () => {
      const setup = exampleHome();
      fs.rmSync(path.join(setup.hooksDir, 'soong_hook.py'));
      const { spawn: spawned, worker } = await bothModes(setup, {
        name: 'protect-paths',
        command: `python3 '${path.join(setup.hooksDir, 'protect-paths.py')}'`,
        on_failure: 'deny',
      });
      const failures = (outcomes: HookOutcome[]) =>
        outcomes.map((outcome) => outcome.results[0]?.failure);
      const blocking = (outcomes: HookOutcome[]) =>
        outcomes.map((outcome) => outcome.decision === 'deny');
      expect(new Set(failures(spawned.outcomes))).toEqual(new Set(['exit_code']));
      expect(new Set(failures(worker.outcomes))).toEqual(new Set(['worker_exited']));
      // PreToolUse and Stop are denied (on_failure "deny"), the observe-only events are not.
      expect(blocking(worker.outcomes)).toEqual(blocking(spawned.outcomes));
      expect(blocking(spawned.outcomes).filter(Boolean)).toHaveLength(8);
    },
    PROCESS_TEST_MS,
  );
});
