import fs from 'node:fs';
import path from 'node:path';
import type { EventRecord } from '@soong-agent/protocol';
import { eventually, makeTempDir } from '@soong-agent/test-utils';
import { describe, expect, it } from 'vitest';
import { readEventLog } from './event-log.js';
import { LoopAdapterError } from './loop-adapter-error.js';
import { type HookSessionHandle, openHookSession } from './open-hook-session.js';
import { createSessionId } from './session.js';
import { hookCommand, recordsOf, WORKERS_DIR, writeHome } from './test-helpers/setup.js';
import { CLOSED_TOOL_TEXT, SKIPPED_TOOL_TEXT } from './tool-gate.js';

// The tool gate from the attacker's side, with real hook processes and real files: a deny must
// never turn into an allow, and nothing runs after close().

const tempDir = () => makeTempDir();
const TIMEOUT = 60_000;
const GUARD_WORKER = path.join(WORKERS_DIR, 'guard-worker.mjs');

function workerGuard(prewrite = false) {
  return {
    PreToolUse: [
      {
        hooks: [
          {
            name: 'guard',
            mode: 'worker' as const,
            command: `node '${GUARD_WORKER}'${prewrite ? ' prewrite' : ''}`,
          },
        ],
      },
    ],
  };
}

async function sessionWith(hooks: Parameters<typeof writeHome>[1], configToml = '') {
  const { home, projectDir } = writeHome(tempDir(), hooks, configToml);
  const session = await openHookSession({ projectDir, home });
  return { home, projectDir, session };
}

function logOf(session: HookSessionHandle): EventRecord[] {
  return readEventLog(session.eventLog).records;
}

// Every hook run and tool call of the log is closed: a hook_started has its end, a tool_started
// its tool_finished or tool_denied.
function expectAllClosed(records: readonly EventRecord[]): void {
  const runs = new Map<string, number>();
  const calls = new Set<string>();
  for (const record of records) {
    const key = `${record.type.startsWith('hook') ? (record as { hook_id: string }).hook_id : ''}/${(record as { call_id?: string }).call_id ?? ''}`;
    if (record.type === 'hook_started') runs.set(key, (runs.get(key) ?? 0) + 1);
    if (record.type === 'hook_finished' || record.type === 'hook_failed')
      runs.set(key, (runs.get(key) ?? 0) - 1);
    if (record.type === 'tool_started') calls.add(record.call_id);
    if (record.type === 'tool_finished' || record.type === 'tool_denied')
      calls.delete(record.call_id);
  }
  expect([...runs].filter(([, open]) => open !== 0)).toEqual([]);
  expect([...calls]).toEqual([]);
}

describe('one worker hook, two callers at once', () => {
  it(
    'gives each call of two gates its own answer: the secret is denied, the other allowed, close() returns',
    async () => {
      const { session } = await sessionWith(workerGuard());
      const first = session.toolGate();
      const second = session.toolGate();
      const [secret, plain] = await Promise.all([
        first.before({
          id: 'a',
          name: 'write_file',
          risk: 'write',
          input: { path: 'secrets/prod.env', content: 'x', delay_ms: 150 },
        }),
        second.before({
          id: 'b',
          name: 'write_file',
          risk: 'write',
          input: { path: 'src/a.ts', content: 'y', delay_ms: 10 },
        }),
      ]);
      expect(secret.run).toBe(false);
      expect(!secret.run && secret.result.content).toMatch(/secrets\/prod\.env is a secret/);
      expect(plain.run).toBe(true);
      await second.after('b', { content: 'written', isError: false });
      await session.close();
      const records = logOf(session);
      expectAllClosed(records);
      // Each call's hook_finished carries its own call's answer.
      const finished = recordsOf(records, 'hook_finished');
      expect(finished.find((record) => record.call_id === 'a')?.reason).toMatch(/prod\.env/);
      expect(finished.find((record) => record.call_id === 'b')?.reason).toMatch(/src\/a\.ts/);
    },
    TIMEOUT,
  );

  it(
    'serves two gates of one session through one worker without ever sending two requests at once',
    async () => {
      const { session } = await sessionWith(workerGuard());
      const gates = [session.toolGate(), session.toolGate(), session.toolGate()];
      const verdicts = await Promise.all(
        gates.map((gate, index) =>
          gate.before({
            id: `c${index}`,
            name: 'read_file',
            risk: 'readonly',
            input: { path: index === 1 ? 'secrets/k.txt' : `f${index}.txt` },
          }),
        ),
      );
      expect(verdicts.map((verdict) => verdict.run)).toEqual([true, false, true]);
      for (const [index, gate] of gates.entries())
        if (index !== 1) await gate.after(`c${index}`, { content: 'ok', isError: false });
      await session.close();
      const records = logOf(session);
      expectAllClosed(records);
      expect(recordsOf(records, 'worker_started')).toHaveLength(1);
    },
    TIMEOUT,
  );
});

describe('a worker that answers a request before it is sent', () => {
  it(
    'never takes that answer: the read of secrets/k.txt is denied by a fresh worker',
    async () => {
      const { session } = await sessionWith(workerGuard(true));
      const gate = session.toolGate();
      const first = await gate.before({
        id: 'r1',
        name: 'read_file',
        risk: 'readonly',
        input: { path: 'notes.txt' },
      });
      expect(first.run).toBe(true);
      await gate.after('r1', { content: 'notes', isError: false });
      // The host is busy without turning its event loop (a synchronous tool, say): meanwhile the
      // worker's "allow" for request 2 lands in the pipe, unread, before request 2 exists.
      const busyUntil = Date.now() + 200;
      while (Date.now() < busyUntil) {
        // spin
      }
      const second = await gate.before({
        id: 'r2',
        name: 'read_file',
        risk: 'readonly',
        input: { path: 'secrets/k.txt' },
      });
      expect(second.run).toBe(false);
      await session.close();
      const records = logOf(session);
      expect(recordsOf(records, 'worker_stopped').map((record) => record.reason)).toContain(
        'protocol_error',
      );
      expect(
        recordsOf(records, 'hook_finished').find((record) => record.call_id === 'r2'),
      ).toMatchObject({ decision: 'deny' });
      expectAllClosed(records);
    },
    TIMEOUT,
  );
});

describe('a gate whose session closes', () => {
  it.each([
    ['a spawn hook', { command: hookCommand('slow-allow.sh', '0.3'), name: 'slow' }],
    ['a worker hook', { command: `node '${GUARD_WORKER}'`, name: 'slow', mode: 'worker' as const }],
  ])(
    'answers run: false when close() comes while %s decides, and the records pair up',
    async (_kind, hook) => {
      const { session, projectDir } = await sessionWith({ PreToolUse: [{ hooks: [hook] }] });
      const gate = session.toolGate();
      const pending = gate.before({
        id: 'late',
        name: 'bash',
        risk: 'dangerous',
        input: { command: 'rm -rf victim', delay_ms: 300 },
      });
      // close() must come while the hook decides: once its hook_started is in the log.
      await eventually(() => logOf(session).some((record) => record.type === 'hook_started'));
      const closing = session.close();
      const verdict = await pending;
      await closing;
      expect(verdict.run).toBe(false);
      expect(!verdict.run && verdict.result.content).toBe(CLOSED_TOOL_TEXT);
      // And after close, nothing runs and nothing is written.
      const after = await gate.before({
        id: 'later',
        name: 'bash',
        risk: 'dangerous',
        input: { command: 'rm -rf victim' },
      });
      expect(after.run).toBe(false);
      const records = logOf(session);
      expectAllClosed(records);
      expect(records.some((record) => (record as { call_id?: string }).call_id === 'later')).toBe(
        false,
      );
      expect(fs.existsSync(projectDir)).toBe(true);
    },
    TIMEOUT,
  );

  it(
    'does not run a call whose worker hook was cut by engine.close()',
    async () => {
      const { session } = await sessionWith(workerGuard());
      const gate = session.toolGate();
      const pending = gate.before({
        id: 'cut',
        name: 'bash',
        risk: 'dangerous',
        input: { command: 'rm -rf victim', delay_ms: 2000 },
      });
      // Cut the call once the worker has it (its hook_started is in the log).
      await eventually(() => logOf(session).some((record) => record.type === 'hook_started'));
      await session.engine.close();
      const verdict = await pending;
      expect(verdict.run).toBe(false);
      await session.close();
      expectAllClosed(logOf(session));
    },
    TIMEOUT,
  );
});

describe('a host that does not await gate.before', () => {
  it(
    'skips a write started before the deny of the write before it settled',
    async () => {
      const { session } = await sessionWith({
        PreToolUse: [
          {
            matcher: { path_prefix: 'secrets' },
            hooks: [{ command: hookCommand('deny.sh', 'secrets are off limits'), name: 'guard' }],
          },
        ],
      });
      const gate = session.toolGate();
      const denied = gate.before({
        id: 'w1',
        name: 'write_file',
        risk: 'write',
        input: { path: 'secrets/k', content: 'x' },
      });
      const next = gate.before({
        id: 'w2',
        name: 'write_file',
        risk: 'write',
        input: { path: 'src/a.ts', content: 'y' },
      });
      const [first, second] = await Promise.all([denied, next]);
      expect(first.run).toBe(false);
      expect(second.run).toBe(false);
      expect(!second.run && second.result).toMatchObject({
        status: 'skipped',
        content: SKIPPED_TOOL_TEXT,
      });
      await session.close();
      const records = logOf(session);
      expect(recordsOf(records, 'tool_skipped')).toMatchObject([
        { call_id: 'w2', denied_call_id: 'w1' },
      ]);
      expectAllClosed(records);
    },
    TIMEOUT,
  );
});

describe('a hook that asks (permissionDecision "ask") with no one to ask', () => {
  it(
    'refuses the call under the default permission, saying which hook asked and why',
    async () => {
      const ask = `cat >/dev/null; echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"confirm deletes"}}'`;
      const { session } = await sessionWith({
        PreToolUse: [{ hooks: [{ command: ask, name: 'asker', protocol: 'claude-code' }] }],
      });
      const verdict = await session.toolGate().before({
        id: 'q1',
        name: 'bash',
        risk: 'dangerous',
        input: { command: 'rm -rf victim' },
      });
      expect(verdict.run).toBe(false);
      expect(!verdict.run && verdict.result.status).toBe('denied');
      expect(!verdict.run && verdict.result.content).toMatch(
        /hook asker asked for confirmation \(confirm deletes\).*no one to ask/,
      );
      await session.close();
      expect(recordsOf(logOf(session), 'permission_denied')).toHaveLength(1);
    },
    TIMEOUT,
  );
});

describe('two sessions under one id, two calls under one id', () => {
  it(
    'refuses a second open session with the same id while the first writes its log (SESSION_IN_USE)',
    async () => {
      const { home, projectDir } = writeHome(tempDir(), {});
      const sessionId = createSessionId();
      const first = await openHookSession({ projectDir, home, sessionId });
      const error = await openHookSession({ projectDir, home, sessionId }).catch(
        (caught: unknown) => caught,
      );
      expect(LoopAdapterError.isInstance(error) && error.code).toBe('SESSION_IN_USE');
      await first.close();
      // Closed: the id may be opened again, and its log goes on without a repeated seq.
      const again = await openHookSession({ projectDir, home, sessionId, source: 'resume' });
      await again.close();
      const seqs = logOf(again).map((record) => record.seq);
      expect(seqs).toEqual(seqs.map((_, index) => index + 1));
    },
    TIMEOUT,
  );

  it(
    'refuses a second open call under an id still in use, and leaves the first one whole',
    async () => {
      const { session } = await sessionWith({});
      const call = {
        id: 'dup',
        name: 'read_file',
        risk: 'readonly' as const,
        input: { path: 'a' },
      };
      expect((await session.toolGate().before(call)).run).toBe(true);
      const error = await session
        .toolGate()
        .before(call)
        .catch((caught: unknown) => caught);
      expect(LoopAdapterError.isInstance(error) && error.code).toBe('INVALID_OPTIONS');
      await session.close();
      const records = logOf(session);
      expect(recordsOf(records, 'tool_started')).toHaveLength(1);
      expectAllClosed(records);
    },
    TIMEOUT,
  );
});

describe('what before and after derive for the host', () => {
  it(
    'gives a path_prefix guard the path of a canonical tool the host gave no paths for',
    async () => {
      const { session } = await sessionWith({
        PreToolUse: [
          {
            matcher: { path_prefix: '.env' },
            hooks: [{ command: hookCommand('deny.sh', 'no .env'), name: 'protect-paths' }],
          },
        ],
      });
      const verdict = await session.toolGate().before({
        id: 'e1',
        name: 'write_file',
        risk: 'write',
        input: { path: '.env', content: 'SECRET=1' },
      });
      expect(verdict.run).toBe(false);
      await session.close();
    },
    TIMEOUT,
  );

  it(
    'returns what the model must see of a 300 KB result: the summary and the artifact path',
    async () => {
      const { session } = await sessionWith({});
      const gate = session.toolGate();
      await gate.before({ id: 'big', name: 'bash', risk: 'dangerous', input: { command: 'x' } });
      const text = `${'a'.repeat(150_000)}MIDDLE${'z'.repeat(150_000)}`;
      const result = await gate.after('big', { content: text, isError: false });
      expect(result.bytes).toBe(300_006);
      expect(result.content.length).toBeLessThan(20_000);
      expect(result.content).not.toContain('MIDDLE');
      expect(result.content).toContain(`full result stored at ${result.artifactRef?.path}`);
      expect(fs.readFileSync(result.artifactRef?.path as string, 'utf8')).toBe(text);
      await session.close();
    },
    TIMEOUT,
  );
});
