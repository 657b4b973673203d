import { fileURLToPath } from 'node:url';
import { minimalEnv, type ProcessRun, runProcess } from '@soong-agent/test-utils';
import { describe, expect, it } from 'vitest';
import * as hook from './hook.js';

// Real processes: a hook written with defineHook (it imports '@soong-agent/protocol/hook', the
// built package), fed on stdin as the agent feeds it, in both modes.
const FIXTURE = fileURLToPath(new URL('./__hook-scripts__/define-hook.mjs', import.meta.url));
const PROCESS_TEST_MS = 60_000;

function runFixture(mode: 'spawn' | 'worker' | undefined, chunks: string[]): Promise<ProcessRun> {
  const env = minimalEnv(mode === undefined ? {} : { SOONG_AGENT_HOOK_MODE: mode });
  return runProcess(process.execPath, [FIXTURE], { env, stdin: chunks });
}

function input(act: string, event: 'PreToolUse' | 'Stop' = 'PreToolUse'): Record<string, unknown> {
  const common = {
    protocol_version: 1,
    event,
    session_id: '20261202T120000Z-e4a1c9',
    project_dir: '/tmp/project',
    agent_home: '/tmp/home',
    hook_id: 'guard',
    timestamp: '2026-12-02T12:00:00.000Z',
  };
  if (event === 'Stop') {
    return {
      ...common,
      stop_hook_active: false,
      prevented_count: 0,
      previous_reasons: [],
      last_assistant_message: 'done',
    };
  }
  return {
    ...common,
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

const request = (id: number, act: string) => `${JSON.stringify({ id, input: input(act) })}\n`;
const responses = (stdout: string) =>
  stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as { id: number; output: Record<string, unknown> | null });

describe('@soong-agent/protocol/hook', () => {
  it('exports exactly the pinned runtime names', () => {
    expect(Object.keys(hook).sort()).toEqual(['defineHook']);
  });
});

describe('defineHook', () => {
  it('throws a TypeError naming the value when the handler is not a function', () => {
    expect(() => hook.defineHook('allow' as never)).toThrow(TypeError);
    expect(() => hook.defineHook(undefined as never)).toThrow(/handler must be a function/);
  });

  it(
    'prints the handler output as one JSON line and exits 0 when SOONG_AGENT_HOOK_MODE is spawn or unset',
    async () => {
      for (const mode of ['spawn', undefined] as const) {
        const denied = await runFixture(mode, [JSON.stringify(input('deny'))]);
        expect(denied.code, denied.stderr).toBe(0);
        expect(denied.stdout).toMatch(/^\{.*\}\n$/);
        expect(JSON.parse(denied.stdout)).toMatchObject({ decision: 'deny', reason: /^call 1 / });
        const seen = await runFixture(mode, [JSON.stringify(input('mode'))]);
        expect(JSON.parse(seen.stdout)).toEqual({ decision: 'allow', reason: 'spawn' });
      }
    },
    PROCESS_TEST_MS,
  );

  it(
    'prints nothing and exits 0 when the handler returns undefined or null',
    async () => {
      for (const act of ['none', 'null']) {
        const run = await runFixture('spawn', [JSON.stringify(input(act))]);
        expect(run).toMatchObject({ code: 0, stdout: '' });
      }
    },
    PROCESS_TEST_MS,
  );

  it(
    'reads stdin to its end when it arrives in pieces in spawn mode',
    async () => {
      const text = JSON.stringify(input('deny', 'PreToolUse'));
      const run = await runFixture('spawn', [
        text.slice(0, 40),
        text.slice(40, 90),
        text.slice(90),
      ]);
      expect(JSON.parse(run.stdout)).toMatchObject({ decision: 'deny' });
    },
    PROCESS_TEST_MS,
  );

  it(
    'exits 1 with nothing on stdout and the error on stderr when the handler throws in spawn mode',
    async () => {
      const run = await runFixture('spawn', [JSON.stringify(input('throw'))]);
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain('handler-failure-marker');
    },
    PROCESS_TEST_MS,
  );

  it(
    'exits 1 with nothing on stdout when stdin is not JSON, not a hook input or the output is not JSON',
    async () => {
      const invalid = [
        '{"event": ',
        '',
        JSON.stringify({ ...input('allow'), event: 'Teardown' }),
        JSON.stringify({ ...input('allow'), protocol_version: 2 }),
        JSON.stringify(input('bigint')),
      ];
      for (const text of invalid) {
        const run = await runFixture('spawn', [text]);
        expect(run.code, text).toBe(1);
        expect(run.stdout).toBe('');
        expect(run.stderr).toContain('define-hook.mjs: ');
      }
    },
    PROCESS_TEST_MS,
  );

  it(
    'answers every request with its id in one process, null for no decision, and exits 0 at the end of stdin in worker mode',
    async () => {
      const lines = [
        request(1, 'allow'),
        request(2, 'none'),
        request(3, 'deny'),
        request(7, 'mode'),
      ];
      const all = lines.join('');
      const cut = (lines[0] as string).length + 10;
      // Lines split across writes, and several lines in one write.
      const run = await runFixture('worker', [
        all.slice(0, 30),
        all.slice(30, cut),
        all.slice(cut),
      ]);
      expect(run.code, run.stderr).toBe(0);
      const answers = responses(run.stdout);
      expect(answers.map((answer) => answer.id)).toEqual([1, 2, 3, 7]);
      expect(answers[0]?.output).toMatchObject({ decision: 'allow', reason: /^call 1 of \d+$/ });
      expect(answers[1]?.output).toBeNull();
      expect(answers[2]?.output).toMatchObject({ decision: 'deny', reason: /^call 3 of \d+$/ });
      expect(answers[3]?.output).toEqual({ decision: 'allow', reason: 'worker' });
      const pids = [answers[0], answers[2]].map((answer) =>
        String(answer?.output?.reason).split(' ').at(-1),
      );
      expect(pids[0]).toBe(pids[1]);
    },
    PROCESS_TEST_MS,
  );

  it(
    'answers the requests before a throwing one, then exits 1 without answering it in worker mode',
    async () => {
      const run = await runFixture('worker', [
        request(1, 'allow'),
        request(2, 'throw'),
        request(3, 'allow'),
      ]);
      expect(run.code).toBe(1);
      expect(responses(run.stdout).map((answer) => answer.id)).toEqual([1]);
      expect(run.stderr).toContain('handler-failure-marker');
    },
    PROCESS_TEST_MS,
  );

  it(
    'exits 1 when a request line is not JSON, has no numeric id or carries no hook input in worker mode',
    async () => {
      for (const bad of [
        'not json\n',
        '{"input":{}}\n',
        '{"id":"1","input":{}}\n',
        '[1]\n',
        '{"id":1,"input":{"event":"Stop"}}\n',
      ]) {
        const run = await runFixture('worker', [request(1, 'allow'), bad, request(2, 'allow')]);
        expect(run.code, bad).toBe(1);
        expect(responses(run.stdout).map((answer) => answer.id)).toEqual([1]);
        expect(run.stderr).toContain('define-hook.mjs: ');
      }
    },
    PROCESS_TEST_MS,
  );

  it(
    'exits 0 with no output when stdin ends before any request in worker mode',
    async () => {
      const run = await runFixture('worker', ['\n']);
      expect(run).toMatchObject({ code: 0, stdout: '' });
    },
    PROCESS_TEST_MS,
  );
});
