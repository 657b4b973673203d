import type { EventRecord } from '@soong-agent/protocol';
import {
  abortOnSignals,
  loadSessionSetup,
  notifyingAsk,
  runSession,
  type SessionOutcome,
} from '../agent/session.js';
import type { CommonOptions } from '../common-options.js';
import { CliError, EXIT_CODES } from '../errors.js';
import { createPermissionCallback, createTerminalAsk } from '../permissions.js';
import { createCoalescedWriter } from '../ui/coalesced-writer.js';
import { createTimeline, hookProtocols, printableLines } from '../ui/timeline.js';

/** Options of `soong-agent run`. */
export interface RunCommandOptions extends CommonOptions {
  /** `--model`: `scripted:FILE` (FILE relative to the current dir), `openai:MODEL`, `anthropic:MODEL`. @default `[model]` of config.toml */
  model?: string;
  /** `--base-url`: the model API's address, over `base_url` of `[model]` and `OPENAI_BASE_URL` / `ANTHROPIC_BASE_URL`. @default undefined */
  baseUrl?: string;
  /** `--yes`: permission `ask` becomes `allow` (never `deny`). @default false */
  yes?: boolean;
  /** `--json`: event records as JSON lines on stdout instead of the timeline. @default false */
  json?: boolean;
  /** `--max-turns`: model calls before the loop ends with `max_turns`. @default 20 */
  maxTurns?: number;
  /** commander's `--no-hooks`: false when given. @default true */
  hooks?: boolean;
}

/** How a run interacts with the user; `demo` turns prompting off so it runs the same everywhere. */
export interface RunPresentation {
  /** Ask on the terminal for `ask` permissions. @default true */
  interactive?: boolean;
  /** The user typed `run` (it takes `--no-hooks`): a broken hooks.json says how to run without. @default false */
  noHooksHint?: boolean;
}

/** The exit code of a finished session (spec §6): 0 completed, 1 max_turns or error, 130/143 aborted. */
export function exitCodeFor(outcome: SessionOutcome, signal: NodeJS.Signals | undefined): number {
  switch (outcome.reason) {
    case 'completed':
      return EXIT_CODES.ok;
    case 'aborted':
      return signal === 'SIGTERM' ? 143 : 130;
    case 'error':
      return CliError.isInstance(outcome.error) ? outcome.error.exitCode : EXIT_CODES.runtime;
    default:
      return EXIT_CODES.runtime;
  }
}

/** Runs one session with a timeline on stderr (or JSON lines on stdout) and reports how it ended. */
export async function runWithPresentation(
  prompt: string,
  options: RunCommandOptions,
  presentation: RunPresentation = {},
): Promise<{ exitCode: number; outcome: SessionOutcome }> {
  const { config, provider } = loadSessionSetup(
    options,
    presentation.noHooksHint === true ? 'run' : undefined,
  );
  const json = options.json === true;
  // Both written a turn later as one chunk: a write to a pipe or terminal wakes its reader, which
  // must not stand between a hook's end and its tool's start (same bytes, same order).
  const records = json ? createCoalescedWriter(process.stdout) : undefined;
  const timeline = json
    ? undefined
    : createTimeline({
        stream: process.stderr,
        protocols: hookProtocols(config),
        coalesce: true,
      });
  // Hook runs whose answer was lost with the runner's spawn helper: the run cannot exit 0.
  let helperLost = 0;
  const onRecord = (record: EventRecord) => {
    if (record.type === 'hook_failed' && record.failure === 'helper_failed') helperLost += 1;
    if (records !== undefined) records.write(`${JSON.stringify(record)}\n`);
    else timeline?.onRecord(record);
  };
  const signals = abortOnSignals();
  const terminalAsk =
    presentation.interactive === false ? undefined : createTerminalAsk({ signal: signals.signal });
  // A permission question is a wait for the user: Notification hooks run first (spec §2.3).
  const notifier =
    terminalAsk === undefined
      ? undefined
      : notifyingAsk((question: string) => {
          if (timeline !== undefined) return timeline.suspend(() => terminalAsk(question));
          // The records so far come before the question on the terminal.
          records?.flush();
          return terminalAsk(question);
        });
  const permission = createPermissionCallback({
    permissions: config.settings.permissions,
    projectDir: config.projectDir,
    yes: options.yes === true,
    ...(notifier === undefined ? {} : { ask: notifier.ask }),
  });
  let outcome: SessionOutcome;
  try {
    outcome = await runSession({
      config,
      provider,
      prompt,
      permission,
      onRecord,
      ...(timeline === undefined ? {} : { onText: (text: string) => timeline.text(text) }),
      signal: signals.signal,
      ...(notifier === undefined ? {} : { onOpen: notifier.bind }),
      noHooks: options.hooks === false,
      ...(options.maxTurns === undefined ? {} : { maxTurns: options.maxTurns }),
    });
  } finally {
    signals.dispose();
    timeline?.close();
    records?.close();
  }
  let exitCode = exitCodeFor(outcome, signals.received());
  if (helperLost > 0 && exitCode === EXIT_CODES.ok) {
    exitCode = EXIT_CODES.runtime;
    process.stderr.write(
      `soong-agent: the runner's spawn helper was lost during ${helperLost} hook run${helperLost === 1 ? '' : 's'} (hook_failed helper_failed in the event log); the session went on, each of those hooks handled by its on_failure\n`,
    );
  }
  if (outcome.reason === 'error') {
    const message = outcome.error instanceof Error ? outcome.error.message : String(outcome.error);
    process.stderr.write(`soong-agent: ${message}\n`);
  } else if (outcome.reason === 'max_turns') {
    process.stderr.write(`soong-agent: stopped after ${outcome.turns} model turns (--max-turns)\n`);
  }
  if (!json && outcome.reason === 'completed') {
    // Raw into a pipe or file; on a terminal, the model's escape sequences are shown, not obeyed.
    const text = process.stdout.isTTY ? printableLines(outcome.finalText) : outcome.finalText;
    process.stdout.write(`${text}\n`);
  }
  return { exitCode, outcome };
}

/** `soong-agent run PROMPT`. */
export async function runAction(prompt: string, options: RunCommandOptions): Promise<number> {
  return (await runWithPresentation(prompt, options, { noHooksHint: true })).exitCode;
}
