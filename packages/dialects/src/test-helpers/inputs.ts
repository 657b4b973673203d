import type { HookEvent } from '@soong-agent/protocol';
import type { DialectContext, DialectRun } from '../dialect.js';

/** A context as the engine passes it. */
export const context: DialectContext = {
  sessionId: '20261203T053000Z-abc123',
  projectDir: '/work/project',
  agentHome: '/home/u/.soong-agent',
  transcriptPath: '/home/u/.soong-agent/sessions/20261203T053000Z-abc123/transcript.jsonl',
  hookId: 'guard',
};

const common = {
  protocol_version: 1,
  session_id: context.sessionId,
  project_dir: context.projectDir,
  agent_home: context.agentHome,
  hook_id: 'guard',
  timestamp: '2026-12-03T05:30:00.000Z',
};

const tool = (name: string, input: unknown) => ({
  name,
  call_id: 'call_1',
  input,
  risk: 'dangerous',
  tags: ['dangerous'],
  paths: [],
});

/** Our §2.1 input for one event. */
export function ourInput(
  event: HookEvent,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  switch (event) {
    case 'PreToolUse':
      return { ...common, event, tool: tool('bash', { command: 'rm -rf /' }), ...extra };
    case 'PostToolUse':
      return {
        ...common,
        event,
        tool: tool('bash', { command: 'ls' }),
        result: { is_error: false, bytes: 6, content: 'a\nb\nc\n' },
        duration_ms: 12,
        ...extra,
      };
    case 'UserPromptSubmit':
      return { ...common, event, prompt: 'fix the bug', ...extra };
    case 'Stop':
      return {
        ...common,
        event,
        stop_hook_active: false,
        prevented_count: 0,
        previous_reasons: [],
        last_assistant_message: 'done',
        ...extra,
      };
    default:
      return { ...common, event, source: 'startup', ...extra };
  }
}

/** A tool call of ours. */
export function toolInput(
  name: string,
  input: unknown,
  event: HookEvent = 'PreToolUse',
): Record<string, unknown> {
  return ourInput(event, { tool: tool(name, input) });
}

/** A finished run. */
export function run(exitCode: number | null, stdout = '', stderr = ''): DialectRun {
  return {
    exitCode,
    signal: exitCode === null ? 'SIGKILL' : null,
    stdout,
    stderrTail: stderr,
    stderrBytes: Buffer.byteLength(stderr),
  };
}

export const json = (value: unknown) => JSON.stringify(value);
