import { PassThrough } from 'node:stream';
import type { EventRecord } from '@soong-agent/protocol';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { colorEnabled, createTimeline, formatBytes, LIVE_INDICATOR_DELAY_MS } from './timeline.js';

function capture() {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk: Buffer) => {
    text += chunk.toString();
  });
  return { stream, text: () => text };
}

let seq = 0;
function record(body: Record<string, unknown>): EventRecord {
  seq += 1;
  return { seq, ts: new Date(0).toISOString(), session_id: 's', ...body } as EventRecord;
}

describe('colorEnabled', () => {
  it('follows FORCE_COLOR, then NO_COLOR, then the TTY when deciding on colour', () => {
    expect(colorEnabled({ isTTY: true }, {})).toBe(true);
    expect(colorEnabled({ isTTY: false }, {})).toBe(false);
    expect(colorEnabled({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(colorEnabled({ isTTY: false }, { FORCE_COLOR: '1', NO_COLOR: '1' })).toBe(true);
    expect(colorEnabled({ isTTY: true }, { FORCE_COLOR: '' })).toBe(true);
  });

  it.each(['0', 'false'])('turns colour off on a terminal when FORCE_COLOR is %j', (value) => {
    expect(colorEnabled({ isTTY: true }, { FORCE_COLOR: value })).toBe(false);
  });
});

describe('formatBytes', () => {
  it('uses B, KB and MB when the size grows', () => {
    expect([formatBytes(12), formatBytes(2048), formatBytes(3 * 1024 * 1024)]).toEqual([
      '12 B',
      '2.0 KB',
      '3.0 MB',
    ]);
  });
});

describe('createTimeline', () => {
  it('prints one plain line per hook run, tool call, model turn and Stop prevention when colours are off', () => {
    const out = capture();
    const timeline = createTimeline({ stream: out.stream, colors: false, live: false });
    const records = [
      record({ type: 'session_started', source: 'startup', project_dir: '/p', agent_home: '/h' }),
      record({
        type: 'config_loaded',
        hooks_fingerprint: null,
        rules: 0,
        warnings: [],
        hooks_enabled: false,
        no_hooks: true,
      }),
      record({
        type: 'config_loaded',
        hooks_fingerprint: null,
        rules: 0,
        warnings: [],
        hooks_enabled: true,
      }),
      record({
        type: 'config_loaded',
        hooks_fingerprint: 'ab'.repeat(32),
        rules: 1,
        warnings: [],
        hooks_enabled: true,
      }),
      record({
        type: 'model_turn',
        turn: 0,
        request_tail: { role: 'user', text: 'go' },
        text: 'reading',
        tool_calls: 2,
      }),
      record({
        type: 'tool_started',
        call_id: 'call_1',
        tool: 'read_file',
        input: { path: '/p/secrets/.env' },
        risk: 'readonly',
      }),
      record({ type: 'hook_started', hook_id: 'guard', event: 'PreToolUse', command: 'x' }),
      record({
        type: 'hook_finished',
        hook_id: 'guard',
        event: 'PreToolUse',
        decision: 'deny',
        reason: 'protected',
        duration_ms: 12,
        exit_code: 0,
      }),
      record({
        type: 'hook_denied',
        hook_id: 'guard',
        event: 'PreToolUse',
        reason: 'protected',
        call_id: 'call_1',
      }),
      record({
        type: 'tool_denied',
        call_id: 'call_1',
        tool: 'read_file',
        source: 'hook',
        reason: 'protected',
        hook_id: 'guard',
      }),
      record({
        type: 'tool_started',
        call_id: 'call_3',
        tool: 'list_dir',
        input: { path: '/p' },
        risk: 'readonly',
      }),
      record({
        type: 'tool_finished',
        call_id: 'call_3',
        tool: 'list_dir',
        is_error: false,
        bytes: 2048,
        duration_ms: 1234.5,
      }),
      record({
        type: 'tool_skipped',
        call_id: 'call_2',
        tool: 'write_file',
        denied_call_id: 'call_1',
      }),
      record({
        type: 'tool_started',
        call_id: 'call_4',
        tool: 'bash',
        input: { command: 'pnpm test' },
        risk: 'dangerous',
      }),
      record({
        type: 'tool_finished',
        call_id: 'call_4',
        tool: 'bash',
        is_error: true,
        bytes: 61,
        duration_ms: 41,
        error_text: 'exit code 127\nsh: 1: pnpm: \x1b[31mnot found\n',
      }),
      record({
        type: 'stop_hook_prevented',
        hook_id: 'tests',
        event: 'Stop',
        reason: 'tests were not run',
        prevented_count: 1,
      }),
      record({ type: 'loop_ended', reason: 'completed' }),
    ];
    for (const item of records) timeline.onRecord(item);
    timeline.close();
    const lines = out.text().trimEnd().split('\n');
    expect(lines).toEqual([
      'session s project /p · home /h',
      'config hooks disabled (--no-hooks)',
      'config no hooks.json: no hooks',
      'config 1 hook rule · hooks.json sha256:abababababab',
      'model turn 0 → 2 tool calls “reading”',
      '  hook guard PreToolUse deny 12ms protected',
      'tool read_file secrets/.env denied by hook guard: protected',
      'tool list_dir . ok 2.0 KB 1.2s',
      'tool write_file skipped (call_1 was denied; batch halted)',
      'tool bash pnpm test error 61 B 41ms: exit code 127 sh: 1: pnpm: \\x1b[31mnot found',
      'stop prevented by tests (1): tests were not run',
      'end completed',
    ]);
    expect(out.text()).not.toContain('\x1b[');
  });

  it('shows hook_context_added with its hook, event, size, artifact and text when a hook added context', () => {
    const out = capture();
    const timeline = createTimeline({ stream: out.stream, colors: false, live: false });
    timeline.onRecord(
      record({
        type: 'hook_context_added',
        hook_id: 'lint',
        event: 'PostToolUse',
        bytes: 25,
        text: 'src/a.ts:3: unused import',
      }),
    );
    timeline.onRecord(
      record({
        type: 'hook_context_added',
        hook_id: 'notes',
        event: 'SessionStart',
        bytes: 40000,
        artifact_ref: {
          id: 'a'.repeat(64),
          path: '/h/artifacts/x',
          bytes: 40000,
          sha256: 'a'.repeat(64),
        },
      }),
    );
    timeline.close();
    expect(out.text().trimEnd().split('\n')).toEqual([
      '    context from lint (PostToolUse) 25 B “src/a.ts:3: unused import”',
      '    context from notes (SessionStart) 39.1 KB → artifact /h/artifacts/x',
    ]);
  });

  it('streams model text on one growing line, escaped and indented, ended by the next record', async () => {
    const out = capture();
    const timeline = createTimeline({ stream: out.stream, colors: false, live: false });
    timeline.text('Let me ');
    timeline.text('look.\r\nSecond \x1b[2Jline');
    timeline.onRecord(
      record({
        type: 'model_turn',
        turn: 0,
        request_tail: { role: 'user', text: 'hi' },
        text: 'x',
        tool_calls: 0,
      }),
    );
    timeline.text('tail');
    timeline.close();
    await new Promise((resolve) => setImmediate(resolve));
    expect(out.text()).toBe(
      'model Let me look.\n      Second \\x1b[2Jline\nmodel turn 0 → no tool calls “x”\nmodel tail\n',
    );
  });

  // The live indicator runs on timers and the clock only (no process): fake timers drive it.
  afterEach(() => {
    vi.useRealTimers();
  });

  it('draws no live indicator when live is off even while a hook runs', async () => {
    vi.useFakeTimers();
    const out = capture();
    const timeline = createTimeline({ stream: out.stream, colors: false, live: false });
    timeline.onRecord(
      record({ type: 'hook_started', hook_id: 'slow', event: 'Stop', command: 'sleep 1' }),
    );
    // Well past the delay after which a live timeline draws its running line.
    await vi.advanceTimersByTimeAsync(LIVE_INDICATOR_DELAY_MS + 150);
    timeline.close();
    expect(out.text()).toBe('');
  });

  it('draws a running line for a hook still running after the delay when live is on', async () => {
    const out = capture();
    vi.useFakeTimers();
    const timeline = createTimeline({ stream: out.stream, colors: false, live: true });
    timeline.onRecord(
      record({ type: 'hook_started', hook_id: 'slow', event: 'Stop', command: 'sleep 1' }),
    );
    await vi.advanceTimersByTimeAsync(600);
    timeline.onRecord(
      record({
        type: 'hook_finished',
        hook_id: 'slow',
        event: 'Stop',
        decision: 'none',
        duration_ms: 600,
        exit_code: 0,
      }),
    );
    timeline.close();
    expect(out.text()).toContain('… running slow (');
    expect(out.text()).toContain('hook slow Stop none');
  });

  it('times a tool from the end of its PreToolUse hooks when drawing the running line', async () => {
    vi.useFakeTimers();
    const out = capture();
    let clock = 0;
    const timeline = createTimeline({
      stream: out.stream,
      colors: false,
      live: true,
      now: () => clock,
    });
    timeline.onRecord(
      record({
        type: 'tool_started',
        call_id: 'call_1',
        tool: 'bash',
        input: { command: 'make' },
        risk: 'dangerous',
      }),
    );
    const hook = { hook_id: 'slow-guard', event: 'PreToolUse', call_id: 'call_1' };
    timeline.onRecord(record({ type: 'hook_started', ...hook, command: 'x' }));
    clock = 5000;
    timeline.onRecord(
      record({
        type: 'hook_finished',
        ...hook,
        decision: 'allow',
        duration_ms: 5000,
        exit_code: 0,
      }),
    );
    clock = 5400;
    // the indicator redraws every 100 ms of timer time; let a few redraws pass
    await vi.advanceTimersByTimeAsync(350);
    timeline.close();
    expect(out.text()).toContain('… running bash (call_1) (0.4s)');
    expect(out.text()).not.toContain('(5.4s)');
  });
});

describe('a failing hook of another agent', () => {
  it("names the hook's dialect on its failed line", async () => {
    const out = capture();
    const timeline = createTimeline({
      stream: out.stream,
      colors: false,
      live: false,
      protocols: new Map([
        ['guard', 'codex'],
        ['mine', 'soong'],
      ]),
    });
    for (const hookId of ['guard', 'mine']) {
      timeline.onRecord(
        record({
          type: 'hook_failed',
          hook_id: hookId,
          event: 'PreToolUse',
          failure: 'protocol_error',
          message: 'stdout starts like JSON but is not a JSON object',
          on_failure: 'ignore',
          duration_ms: 3,
        }),
      );
    }
    timeline.close();
    await new Promise((resolve) => setImmediate(resolve));
    const lines = out.text().split('\n');
    expect(lines[0]).toContain('hook guard PreToolUse (codex hook) failed:protocol_error');
    expect(lines[1]).toContain('hook mine PreToolUse failed:protocol_error');
  });
});

describe('a hook stderr tail on the timeline', () => {
  it("keeps the end of a long stderr, a Python traceback's error line, and the head of a logs line", async () => {
    const out = capture();
    const timeline = createTimeline({ stream: out.stream, colors: false, live: false });
    const frames = Array.from(
      { length: 6 },
      (_, index) =>
        `  File "/home/u/.soong-agent/hooks/guard.py", line ${index + 10}, in step_${index}\n    step_${index + 1}()`,
    );
    const traceback = `Traceback (most recent call last):\n${frames.join('\n')}\nKeyError: 'tool'\n`;
    const logs = `first words of a long log line ${'x'.repeat(300)} last words`;
    for (const [source, message] of [
      ['stderr', traceback],
      ['logs', logs],
    ] as const) {
      timeline.onRecord(
        record({ type: 'hook_log', hook_id: 'guard', event: 'PreToolUse', source, message }),
      );
    }
    timeline.onRecord(
      record({
        type: 'hook_failed',
        hook_id: 'guard',
        event: 'PreToolUse',
        failure: 'exit_code',
        message: 'hook exited with code 1',
        exit_code: 1,
        on_failure: 'ignore',
        duration_ms: 3,
      }),
    );
    timeline.close();
    await new Promise((resolve) => setImmediate(resolve));
    const [, stderr, logged] = out.text().split('\n');
    expect(stderr).toMatch(/^ {4}stderr: …/);
    expect(stderr).toMatch(/step_6\(\) KeyError: 'tool'$/);
    expect(stderr).not.toContain('Traceback');
    expect(logged).toMatch(/^ {4}logs: first words of a long log line x+…$/);
  });
});

describe('a coalescing timeline', () => {
  const hookCall = [
    record({
      type: 'model_turn',
      turn: 0,
      request_tail: { role: 'user', text: 'go' },
      text: '',
      tool_calls: 1,
    }),
    record({
      type: 'tool_started',
      call_id: 'c1',
      tool: 'bash',
      input: { command: 'true' },
      risk: 'dangerous',
    }),
    record({
      type: 'hook_started',
      hook_id: 'guard',
      event: 'PreToolUse',
      call_id: 'c1',
      command: 'x',
    }),
    record({
      type: 'hook_finished',
      hook_id: 'guard',
      event: 'PreToolUse',
      call_id: 'c1',
      decision: 'none',
      duration_ms: 3,
      exit_code: 0,
    }),
    record({
      type: 'tool_finished',
      call_id: 'c1',
      tool: 'bash',
      is_error: false,
      bytes: 0,
      duration_ms: 2,
    }),
  ];

  it('writes nothing during the turn, then the same text as a line-by-line timeline in one write', async () => {
    const plain = capture();
    const direct = createTimeline({ stream: plain.stream, colors: false, live: false });
    const out = capture();
    let writes = 0;
    out.stream.on('data', () => {
      writes += 1;
    });
    const timeline = createTimeline({
      stream: out.stream,
      colors: false,
      live: false,
      coalesce: true,
    });
    for (const item of hookCall) {
      direct.onRecord(item);
      timeline.onRecord(item);
    }
    timeline.text('All done.');
    direct.text('All done.');
    await Promise.resolve();
    expect(out.text()).toBe('');
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toBe(1);
    timeline.close();
    direct.close();
    await new Promise((resolve) => setImmediate(resolve));
    expect(out.text()).not.toBe('');
    expect(out.text()).toBe(plain.text());
  });

  it('puts every line before a question on the stream before the question is asked', async () => {
    const out = capture();
    const timeline = createTimeline({
      stream: out.stream,
      colors: false,
      live: false,
      coalesce: true,
    });
    for (const item of hookCall.slice(0, 4)) timeline.onRecord(item);
    let seenByQuestion = '';
    await timeline.suspend(async () => {
      await Promise.resolve();
      seenByQuestion = out.text();
    });
    timeline.close();
    expect(seenByQuestion).toContain('hook guard PreToolUse none');
  });
});
