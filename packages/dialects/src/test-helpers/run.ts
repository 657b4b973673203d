import type { DialectContext, DialectRun } from '../dialect.js';

/** A finished run: exit 0, empty streams, unless overridden. */
export const run = (overrides: Partial<DialectRun> = {}): DialectRun => ({
  exitCode: 0,
  signal: null,
  stdout: '',
  stderrTail: '',
  stderrBytes: 0,
  ...overrides,
});

/** The context of the encoder tests. */
export const CONTEXT: DialectContext = Object.freeze({
  sessionId: 's1',
  projectDir: '/p',
  agentHome: '/h',
  transcriptPath: '/h/t.jsonl',
  hookId: 'cc',
});
