import type { HookOutcome, HookRunResult } from '@soong-agent/loop-adapter';
import type { EventRecord } from '@soong-agent/protocol';
import picocolors from 'picocolors';
import { formatDuration } from './format-duration.js';
import { formatBytes, printable, splitHints } from './timeline.js';

type Colors = ReturnType<typeof picocolors.createColors>;

/** Lines of a hook's stdout or stderr tail shown by `hooks test` (the tail itself is at most 8 KiB). */
export const REPORT_TAIL_LINES = 40;

/** What `hooks test` knows about one hook run: its result and the records it produced. */
interface HookRun {
  result: HookRunResult;
  records: EventRecord[];
}

// The engine emits hook_started, then the hook's records, for each run in order; results[i]
// belongs to the i-th hook_started.
function groupRuns(records: readonly EventRecord[], results: readonly HookRunResult[]): HookRun[] {
  const runs: HookRun[] = [];
  for (const record of records) {
    if (record.type === 'hook_started') {
      const result = results[runs.length];
      if (result !== undefined) runs.push({ result, records: [] });
    } else {
      runs.at(-1)?.records.push(record);
    }
  }
  return runs;
}

// Failures that leave a run with neither exit code nor signal because nothing ran: never started
// (or refused), cancelled before it was sent, a worker out of restarts, the spawn helper lost.
const NOT_RUN: ReadonlySet<string> = new Set([
  'cwd_invalid',
  'spawn_error',
  'aborted',
  'worker_exited',
  'helper_failed',
]);

function ended(result: HookRunResult, workerPid: number | undefined): string {
  if (result.signal !== null) return `signal ${result.signal}`;
  if (result.exitCode !== null) return `exit ${result.exitCode}`;
  if (result.status === 'failed' && NOT_RUN.has(result.failure ?? '')) return 'not run';
  // A worker answers and stays alive for the session's later calls: it ran, without exiting.
  return workerPid === undefined
    ? 'answered by its worker'
    : `answered by its worker (pid ${workerPid})`;
}

// Hook id → pid of its worker, from the worker_started records (they come before a call's
// hook_started, so they are not among any run's own records).
function workerPids(records: readonly EventRecord[]): Map<string, number> {
  const pids = new Map<string, number>();
  for (const record of records) {
    if (record.type === 'worker_started') pids.set(record.hook_id, record.pid);
  }
  return pids;
}

function streamBlock(name: string, tail: string, bytes: number, c: Colors): string[] {
  if (bytes === 0) return [`  ${c.dim(`${name}: (empty)`)}`];
  const lines = tail.replace(/\n$/, '').split('\n');
  const shown = lines.slice(-REPORT_TAIL_LINES);
  const kept = Buffer.byteLength(tail);
  const omitted: string[] = [];
  if (kept < bytes) omitted.push(`last ${formatBytes(kept)} of ${formatBytes(bytes)}`);
  if (shown.length < lines.length) omitted.push(`last ${shown.length} lines`);
  const scope = omitted.length === 0 ? formatBytes(bytes) : omitted.join(', ');
  return [
    `  ${c.dim(`${name} (${scope}):`)}`,
    ...shown.map((line) => `  ${c.dim('│')} ${printable(line)}`),
  ];
}

function headline(run: HookRun, c: Colors, workerPid: number | undefined): string {
  const { result } = run;
  const failed = run.records.find((record) => record.type === 'hook_failed');
  const event = run.records.find((record) => 'event' in record)?.event;
  const facts = [ended(result, workerPid), formatDuration(result.durationMs)];
  let verdict: string;
  if (result.status === 'failed') {
    const policy =
      failed?.type === 'hook_failed' ? `on_failure=${failed.on_failure}` : 'on_failure=?';
    verdict = `${c.yellow(`failed: ${result.failure ?? 'unknown'}`)} (${policy} → ${result.decision === 'deny' ? c.red('deny') : 'ignored'})`;
  } else {
    verdict =
      result.decision === 'deny'
        ? c.red('deny')
        : result.decision === 'allow'
          ? c.green('allow')
          : result.ask === true
            ? c.yellow('ask (the permission prompt is shown, whatever the risk class)')
            : c.dim('none (no decision)');
  }
  if (result.ignored === true) verdict += c.dim(' (ignored: this event cannot block)');
  const name = `${c.bold(result.hookId)}${event === undefined ? '' : c.dim(` ${event}`)}`;
  return `hook ${name}  ${verdict}  ${c.dim(facts.join(' · '))}`;
}

/** Characters of a hook's context shown by `hooks test`. */
const CONTEXT_SHOWN_CHARS = 2000;

function headOf(text: string): string {
  return text.length <= CONTEXT_SHOWN_CHARS
    ? text
    : `${text.slice(0, CONTEXT_SHOWN_CHARS)}… (${text.length} characters in all)`;
}

/**
 * The `hooks test` report: per hook run its id, decision or failure kind, exit code (or signal),
 * duration, reason or failure message, the context it added, the tails of its stdout and stderr, and its `logs` lines and
 * protocol warnings; then the outcome line. Control characters are shown escaped.
 */
export function formatHookReport(options: {
  records: readonly EventRecord[];
  outcome: HookOutcome;
  /** @default false */
  colors?: boolean;
  /** The project dir: the agent's own hint in a failure message gets a line of its own. @default undefined */
  projectDir?: string;
}): string[] {
  const c = picocolors.createColors(options.colors ?? false);
  const lines: string[] = [];
  const workers = workerPids(options.records);
  for (const run of groupRuns(options.records, options.outcome.results)) {
    const { result } = run;
    lines.push(headline(run, c, workers.get(result.hookId)));
    if (result.reason !== undefined) lines.push(`  reason: ${printable(result.reason)}`);
    // spec §13.1: the context it added (delivered or dropped: the records below say which).
    if (result.context !== undefined) lines.push(`  context: ${printable(headOf(result.context))}`);
    if (result.failureMessage !== undefined) {
      const { text, hints } = splitHints(result.failureMessage, options.projectDir);
      lines.push(`  ${c.yellow('failure')}: ${printable(text)}`);
      for (const hint of hints) lines.push(`  ${c.yellow('hint')}: ${printable(hint)}`);
    }
    if (result.stdoutBytes === 0 && result.stderrBytes === 0) {
      lines.push(`  ${c.dim('stdout, stderr: (empty)')}`);
    } else {
      lines.push(...streamBlock('stdout', result.stdout, result.stdoutBytes, c));
      lines.push(...streamBlock('stderr', result.stderr, result.stderrBytes, c));
    }
    for (const record of run.records) {
      // stderr is shown whole above; logs lines and protocol warnings come from the records.
      if (record.type === 'hook_log' && record.source !== 'stderr')
        lines.push(`  ${c.dim(`${record.source}:`)} ${printable(record.message)}`);
    }
  }
  const { outcome } = options;
  if (outcome.decision === 'deny') {
    lines.push(
      `outcome: ${c.red('deny stands')} (hook ${outcome.hookId ?? '?'}): ${printable(outcome.reason ?? '')} → exit 3`,
    );
  } else {
    const asked =
      outcome.ask === undefined
        ? ''
        : `; hook ${outcome.ask.hookId} asked for the permission prompt: ${printable(outcome.ask.reason)}`;
    lines.push(`outcome: ${outcome.decision === 'allow' ? 'allow' : 'no deny'}${asked} → exit 0`);
  }
  return lines;
}
