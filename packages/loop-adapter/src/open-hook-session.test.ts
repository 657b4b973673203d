import fs from 'node:fs';
import path from 'node:path';
import type { EventRecord } from '@soong-agent/protocol';
import { eventually, makeTempDir } from '@soong-agent/test-utils';
import { describe, expect, it } from 'vitest';
import { readEventLog } from './event-log.js';
import { type HookSessionHandle, openHookSession } from './open-hook-session.js';
import { hookCommand, recordsOf, recordTypes, writeHome } from './test-helpers/setup.js';
import { executeToolBatch } from './tool-batch.js';
import type { PermissionCallback, ToolCall, ToolDefinition } from './tool-call.js';
import { SKIPPED_TOOL_TEXT, type ToolGate, UNFINISHED_TOOL_TEXT } from './tool-gate.js';

const tempDir = () => makeTempDir();
const PROCESS_TIMEOUT = 60_000;

function tool(name: string, risk: ToolDefinition['risk'], output = `${name} ran`): ToolDefinition {
  return {
    name,
    risk,
    paths: (input) => {
      const file = (input as { path?: unknown }).path;
      return typeof file === 'string' ? [file] : [];
    },
    execute: async () => ({ content: output, isError: false }),
  };
}

const TOOLS = new Map<string, ToolDefinition>([
  ['read_file', tool('read_file', 'readonly')],
  ['write_file', tool('write_file', 'write')],
  ['bash', tool('bash', 'dangerous', 'x'.repeat(5000))],
]);

// A PreToolUse guard that denies writes under secrets/, and observers on the other events.
const GUARDED = {
  SessionStart: [{ hooks: [{ command: hookCommand('allow.sh'), name: 'start' }] }],
  PreToolUse: [
    {
      matcher: { path_prefix: ['secrets'] },
      hooks: [{ command: hookCommand('deny.sh', 'secrets are off limits'), name: 'guard' }],
    },
  ],
  PostToolUse: [{ hooks: [{ command: hookCommand('allow.sh'), name: 'post' }] }],
  Stop: [{ hooks: [{ command: hookCommand('stop-once.sh'), name: 'tests-first' }] }],
  SessionEnd: [{ hooks: [{ command: hookCommand('allow.sh'), name: 'end' }] }],
  Notification: [{ hooks: [{ command: hookCommand('allow.sh'), name: 'notify' }] }],
};

const STEP: ToolCall[] = [
  { id: 'c1', name: 'read_file', input: { path: 'README.md' } },
  { id: 'c2', name: 'write_file', input: { path: 'secrets/key', content: 'k' } },
  { id: 'c3', name: 'read_file', input: { path: 'a.txt' } },
  { id: 'c4', name: 'bash', input: { command: 'ls' } },
];

// Runs STEP through a gate the way a host that executes its own tools does.
async function runThroughGate(gate: ToolGate, calls: readonly ToolCall[] = STEP) {
  const results = [];
  for (const call of calls) {
    const verdict = await gate.before(call);
    if (!verdict.run) {
      results.push(verdict.result);
      continue;
    }
    const executed = await (TOOLS.get(call.name) as ToolDefinition).execute(call.input, {
      callId: call.id,
    });
    results.push(await gate.after(call.id, executed));
  }
  return results;
}

// Everything but timestamps, durations and the session id: the same script gives the same text.
function normalisedLog(session: HookSessionHandle): string {
  return fs
    .readFileSync(session.eventLog, 'utf8')
    .replaceAll(session.sessionId, 'SESSION')
    .replace(/"ts":"[^"]+"/g, '"ts":"T"')
    .replace(/"duration_ms":[0-9.]+/g, '"duration_ms":0');
}

function types(session: HookSessionHandle): string[] {
  return recordTypes(readEventLog(session.eventLog).records);
}

describe('openHookSession', () => {
  it(
    'opens the session every host uses: dir, log, transcript, session_started, config_loaded, SessionStart',
    async () => {
      const { home, projectDir } = writeHome(tempDir(), GUARDED);
      const session = await openHookSession({ projectDir, home, knownTools: ['read_file'] });
      expect(session.dir).toBe(path.join(home, 'sessions', session.sessionId));
      expect(fs.statSync(session.dir).mode & 0o777).toBe(0o700);
      expect(fs.existsSync(session.transcript.file)).toBe(true);
      const records = readEventLog(session.eventLog).records;
      expect(records.map((record) => record.type)).toEqual([
        'session_started',
        'config_loaded',
        'hook_started',
        'hook_finished',
      ]);
      expect(records[0]).toMatchObject({ source: 'startup', project_dir: projectDir });
      expect(records[1]).toMatchObject({ rules: 6, hooks_enabled: true });
      expect(records[2]).toMatchObject({ hook_id: 'start', event: 'SessionStart' });
      await session.close();
    },
    PROCESS_TIMEOUT,
  );

  it(
    'gate: records in order, a hook deny skips the permission callback, a write denial skips the rest of the step',
    async () => {
      const { home, projectDir } = writeHome(tempDir(), GUARDED);
      const asked: string[] = [];
      const permission: PermissionCallback = async ({ call }) => {
        asked.push(call.id);
        return { allow: true };
      };
      const session = await openHookSession({ projectDir, home, tools: TOOLS, permission });
      await session.userPrompt('tidy up');
      const results = await runThroughGate(session.toolGate());
      expect(results.map((result) => [result.callId, result.status, result.content])).toEqual([
        ['c1', 'ok', 'read_file ran'],
        ['c2', 'denied', 'denied by hook guard: secrets are off limits'],
        ['c3', 'skipped', SKIPPED_TOOL_TEXT],
        ['c4', 'skipped', SKIPPED_TOOL_TEXT],
      ]);
      // Only the call no hook denied reached the permission callback.
      expect(asked).toEqual(['c1']);
      await session.close();
      expect(types(session).slice(4)).toEqual([
        'user_prompt_submitted',
        'tool_started',
        'tool_finished',
        'hook_started',
        'hook_finished',
        'tool_started',
        'hook_started',
        'hook_finished',
        'hook_denied',
        'tool_denied',
        'tool_skipped',
        'tool_skipped',
        'hook_started',
        'hook_finished',
      ]);
      const end = readEventLog(session.eventLog).records.at(-2) as EventRecord;
      expect(end).toMatchObject({ hook_id: 'end', event: 'SessionEnd' });
    },
    PROCESS_TIMEOUT,
  );

  it(
    'gate: a permission denial of a readonly call lets later readonly calls run; unknown tools and declared risks',
    async () => {
      const { home, projectDir } = writeHome(tempDir(), {});
      const permission: PermissionCallback = async ({ call, tool }) =>
        call.id === 'r1' ? { allow: false, reason: `no ${tool.name}` } : { allow: true };
      const session = await openHookSession({ projectDir, home, tools: TOOLS, permission });
      const gate = session.toolGate();
      expect(await gate.before({ id: 'r1', name: 'read_file', input: {} })).toMatchObject({
        run: false,
        result: { status: 'denied', content: 'denied by permission: no read_file' },
      });
      expect(await gate.before({ id: 'r2', name: 'read_file', input: {} })).toEqual({ run: true });
      await gate.after('r2', { content: 'fine', isError: false });
      // A tool no registry knows runs when the host declares its risk; without one it is unknown.
      expect(
        await gate.before({ id: 'm1', name: 'mcp__docs__search', input: {}, risk: 'readonly' }),
      ).toEqual({ run: true });
      await gate.after('m1', { content: 'found', isError: false });
      // The first non-readonly call after a readonly denial halts the step.
      expect(await gate.before({ id: 'w1', name: 'write_file', input: {} })).toMatchObject({
        run: false,
        result: { status: 'skipped' },
      });
      await expect(gate.after('w1', { content: '', isError: false })).rejects.toThrow(
        /no call "w1" is waiting/,
      );
      // The next step starts without a denial: a tool nobody declared is unknown, not skipped.
      expect(await session.toolGate().before({ id: 'u1', name: 'nope', input: {} })).toMatchObject({
        run: false,
        result: { status: 'error', content: 'unknown tool' },
      });
      await session.close();
      const records = readEventLog(session.eventLog).records;
      expect(
        recordsOf(records, 'tool_started').map((record) => [record.tool, record.risk]),
      ).toEqual([
        ['read_file', 'readonly'],
        ['read_file', 'readonly'],
        ['mcp__docs__search', 'readonly'],
        ['nope', 'dangerous'],
      ]);
      expect(recordsOf(records, 'tool_skipped')[0]).toMatchObject({
        call_id: 'w1',
        denied_call_id: 'r1',
      });
    },
    PROCESS_TIMEOUT,
  );

  it(
    'the same scripted step through executeToolBatch and through the gate gives the same event log',
    async () => {
      const root = tempDir();
      const { home, projectDir } = writeHome(
        root,
        GUARDED,
        '[hooks]\ninline_result_bytes = 1024\n',
      );
      const permission: PermissionCallback = async () => ({ allow: true });
      const logs: string[] = [];
      const results: unknown[] = [];
      for (const viaGate of [false, true]) {
        const session = await openHookSession({ projectDir, home, tools: TOOLS, permission });
        await session.userPrompt('tidy up');
        const step = STEP.map((call) =>
          call.id === 'c2' ? { ...call, input: { path: 'notes/key', content: 'k' } } : call,
        );
        const run = viaGate
          ? await runThroughGate(session.toolGate(), step)
          : await executeToolBatch(step, { tools: TOOLS, engine: session.engine, permission });
        await session.stop('done');
        await session.close();
        logs.push(normalisedLog(session));
        // What the model sees of a large result names its artifact, in this session's folder.
        results.push(
          run.map((result) => ({
            ...result,
            content: result.content.replaceAll(session.sessionId, '<session>'),
            artifactRef: undefined,
          })),
        );
      }
      expect(logs[1]).toBe(logs[0]);
      expect(results[1]).toEqual(results[0]);
      // The 5000-byte bash result went to the artifact store; hooks got a summary.
      const log = readEventLog(path.join(home, 'sessions', listLast(home), 'events.jsonl'));
      const finished = recordsOf(log.records, 'tool_finished').find(
        (record) => record.call_id === 'c4',
      );
      expect(finished?.bytes).toBe(5000);
      expect(fs.readFileSync(finished?.artifact_ref?.path as string, 'utf8')).toBe(
        'x'.repeat(5000),
      );
      // The gate returns what the model must see: the head and tail, the size and where it is.
      const bash = (results[1] as { callId: string; content: string }[]).find(
        (result) => result.callId === 'c4',
      );
      expect(bash?.content).toMatch(/\[tool result: 5000 bytes; full result stored at \S+\]$/);
    },
    PROCESS_TIMEOUT,
  );

  it(
    'stop: a Stop deny continues with the hook-context message, which the transcript gets too',
    async () => {
      const { home, projectDir } = writeHome(tempDir(), GUARDED);
      const session = await openHookSession({ projectDir, home, tools: TOOLS });
      await session.userPrompt('fix it');
      const first = await session.stop('done');
      expect(first.continue).toBe(true);
      const second = await session.stop('done, tests pass');
      expect(second.continue).toBe(false);
      await session.close();
      const lines = fs.readFileSync(session.transcript.file, 'utf8').trim().split('\n');
      expect(lines.map((line) => JSON.parse(line).message.content)).toEqual([
        'fix it',
        expect.stringContaining('run the tests first'),
      ]);
      expect(recordsOf(readEventLog(session.eventLog).records, 'stop_hook_prevented')).toHaveLength(
        1,
      );
    },
    PROCESS_TIMEOUT,
  );

  it(
    'close is idempotent, waits for a running hook, runs SessionEnd once with its reason, then refuses work',
    async () => {
      const root = tempDir();
      const startedFile = path.join(root, 'started');
      const { home, projectDir } = writeHome(root, {
        UserPromptSubmit: [
          {
            hooks: [
              {
                command: `cat >/dev/null; touch '${startedFile}'; sleep 0.3; echo '{"decision":"allow"}'`,
                name: 'slow',
              },
            ],
          },
        ],
        SessionEnd: [
          { hooks: [{ command: hookCommand('record.sh', path.join(root, 'end.json')) }] },
        ],
      });
      const session = await openHookSession({ projectDir, home });
      const prompt = session.userPrompt('hello');
      await eventually(() => fs.existsSync(startedFile));
      const first = session.close('aborted');
      const second = session.close('error');
      expect(second).toBe(first);
      await Promise.all([first, second, prompt]);
      await session.close();
      const records = readEventLog(session.eventLog).records;
      // The running prompt hook finished before SessionEnd ran; nothing after the log closed.
      expect(
        records.slice(2).map((record) => [record.type, 'event' in record && record.event]),
      ).toEqual([
        ['user_prompt_submitted', false],
        ['hook_started', 'UserPromptSubmit'],
        ['hook_finished', 'UserPromptSubmit'],
        ['hook_started', 'SessionEnd'],
        ['hook_finished', 'SessionEnd'],
      ]);
      expect(JSON.parse(fs.readFileSync(path.join(root, 'end.json'), 'utf8'))).toMatchObject({
        event: 'SessionEnd',
        reason: 'aborted',
      });
      await expect(session.userPrompt('again')).rejects.toMatchObject({ code: 'ENGINE_CLOSED' });
      expect(() => session.transcript.user('x')).toThrow(/closed/);
    },
    PROCESS_TIMEOUT,
  );

  it(
    'close ends a call the host never gave a result for: no tool_started stays open',
    async () => {
      const { home, projectDir } = writeHome(tempDir(), {});
      const session = await openHookSession({ projectDir, home, tools: TOOLS });
      const gate = session.toolGate();
      expect(await gate.before({ id: 'c1', name: 'read_file', input: {} })).toEqual({ run: true });
      await session.close();
      await expect(gate.after('c1', { content: 'late', isError: false })).rejects.toMatchObject({
        code: 'ENGINE_CLOSED',
      });
      const records = readEventLog(session.eventLog).records;
      expect(records.slice(2).map((record) => record.type)).toEqual([
        'tool_started',
        'tool_finished',
      ]);
      expect(records[3]).toMatchObject({
        call_id: 'c1',
        is_error: true,
        error_text: UNFINISHED_TOOL_TEXT,
      });
    },
    PROCESS_TIMEOUT,
  );

  it(
    'notify runs the Notification hooks (observe only: a deny is ignored)',
    async () => {
      const root = tempDir();
      const { home, projectDir } = writeHome(root, {
        Notification: [{ hooks: [{ command: hookCommand('deny.sh', 'quiet'), name: 'n' }] }],
      });
      const session = await openHookSession({ projectDir, home });
      const outcome = await session.notify('permission_prompt', 'allow bash?');
      expect(outcome.decision).toBe('none');
      await session.close();
      expect(types(session).slice(2)).toEqual([
        'hook_started',
        'hook_finished',
        'hook_decision_ignored',
      ]);
    },
    PROCESS_TIMEOUT,
  );

  it(
    'a claude-code hook reads transcript_path: the prompt and the call it is asked about are there',
    async () => {
      const root = tempDir();
      // Denies unless the transcript exists and names this very call: a real Claude Code guard
      // reading the conversation.
      const script = path.join(root, 'guard.cjs');
      fs.writeFileSync(
        script,
        `let raw = '';
process.stdin.on('data', (chunk) => { raw += chunk; });
process.stdin.on('end', () => {
  const input = JSON.parse(raw);
  const fs = require('node:fs');
  const lines = fs.readFileSync(input.transcript_path, 'utf8').trim().split('\\n').map((l) => JSON.parse(l));
  const prompt = lines.find((l) => l.type === 'user' && typeof l.message.content === 'string');
  const used = lines.some((l) => l.type === 'assistant' && l.message.content.some((b) => b.type === 'tool_use' && b.id === input.tool_use_id && b.name === input.tool_name));
  if (prompt && prompt.message.content === 'please read' && used) process.exit(0);
  process.stderr.write('transcript does not show the call');
  process.exit(2);
});
`,
      );
      const { home, projectDir } = writeHome(root, {
        PreToolUse: [
          {
            hooks: [
              {
                command: `node '${script}'`,
                protocol: 'claude-code',
                name: 'cc',
                on_failure: 'deny',
              },
            ],
          },
        ],
      });
      const session = await openHookSession({ projectDir, home, tools: TOOLS });
      await session.userPrompt('please read');
      const gate = session.toolGate();
      expect(await gate.before({ id: 'toolu_1', name: 'read_file', input: { path: 'a' } })).toEqual(
        {
          run: true,
        },
      );
      const result = await gate.after('toolu_1', { content: 'A', isError: false });
      expect(result.status).toBe('ok');
      await session.close();
      const lines = fs.readFileSync(session.transcript.file, 'utf8').trim().split('\n');
      expect(lines.map((line) => JSON.parse(line).type)).toEqual(['user', 'assistant', 'user']);
    },
    PROCESS_TIMEOUT,
  );
});

function listLast(home: string): string {
  return fs
    .readdirSync(path.join(home, 'sessions'))
    .filter((name) => /^\d{8}T/.test(name))
    .sort()
    .at(-1) as string;
}
