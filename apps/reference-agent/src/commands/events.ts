import { lstatSync } from 'node:fs';
import path from 'node:path';
import {
  type EventLog,
  isSessionId,
  LoopAdapterError,
  listSessions,
  readEventLog,
  sessionPaths,
} from '@soong-agent/loop-adapter';
import type { EventRecord } from '@soong-agent/protocol';
import { resolveLocations } from '../agent/locations.js';
import type { CommonOptions } from '../common-options.js';
import { CliError, EXIT_CODES, type ExitCode } from '../errors.js';
import { selfCommand } from '../ui/self-command.js';
import { createTimeline, printable } from '../ui/timeline.js';

/** Options of `soong-agent events`. */
export interface EventsCommandOptions extends CommonOptions {
  /** `--json`: the records as JSON lines. @default false */
  json?: boolean;
}

/** What a log without `loop_ended` left open: tool calls and hook runs that never closed. */
export interface UnfinishedWork {
  tools: { call_id: string; tool: string }[];
  hooks: { hook_id: string; event: string }[];
}

/**
 * The tool calls (`tool_started` without `tool_finished` / `tool_denied`) and hook runs
 * (`hook_started` without `hook_finished` / `hook_failed`) a log leaves open, in start order.
 */
export function unfinishedWork(records: readonly EventRecord[]): UnfinishedWork {
  const tools = new Map<string, { call_id: string; tool: string }>();
  const hooks: { hook_id: string; event: string }[] = [];
  for (const record of records) {
    if (record.type === 'tool_started') {
      tools.set(record.call_id, { call_id: record.call_id, tool: record.tool });
    } else if (record.type === 'tool_finished' || record.type === 'tool_denied') {
      tools.delete(record.call_id);
    } else if (record.type === 'hook_started') {
      hooks.push({ hook_id: record.hook_id, event: record.event });
    } else if (record.type === 'hook_finished' || record.type === 'hook_failed') {
      const open = hooks.findLastIndex(
        (hook) => hook.hook_id === record.hook_id && hook.event === record.event,
      );
      if (open !== -1) hooks.splice(open, 1);
    }
  }
  return { tools: [...tools.values()], hooks };
}

// A session id starts with its UTC start time; one more than this ahead of the clock was not
// written by this machine's agent (a planted folder posing as "the latest").
const FUTURE_SLACK_MS = 60 * 60 * 1000;

function sessionStartMs(id: string): number {
  const match = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z/.exec(id);
  if (match === null) return Number.NaN;
  const [, year, month, day, hours, minutes, seconds] = match.map(Number) as number[];
  return Date.UTC(year as number, (month as number) - 1, day, hours, minutes, seconds);
}

/**
 * The session to show: the one named, or the latest whose log can be trusted. A folder dated in the
 * future, a log that cannot be read safely, or one holding another session's records is skipped
 * (named on stderr), and the next latest is shown.
 */
function chooseSession(
  home: string,
  sessionId: string | undefined,
  warn: (text: string) => void,
): { id: string; file: string; log: EventLog } {
  if (sessionId !== undefined) {
    if (!isSessionId(sessionId)) {
      throw new CliError({
        code: 'USAGE',
        message: `"${printable(sessionId)}" is not a session id (e.g. 20261202T135512Z-3f9a1c)`,
      });
    }
    return { id: sessionId, ...readSessionLog(home, sessionId) };
  }
  const ids = listSessions(home);
  if (ids.length === 0) {
    throw new CliError({
      code: 'SESSION_NOT_FOUND',
      message: `no sessions in ${path.join(home, 'sessions')}; run \`${selfCommand()} run\` or \`${selfCommand()} demo\` first`,
    });
  }
  const now = Date.now();
  let firstRefusal: CliError | undefined;
  for (const id of [...ids].reverse()) {
    if (sessionStartMs(id) > now + FUTURE_SLACK_MS) {
      warn(
        `skipped session ${id}: dated in the future (not written by this agent); name it to see it`,
      );
      continue;
    }
    try {
      const read = readSessionLog(home, id);
      if ((read.log.foreignLines ?? []).length > 0) {
        warn(`skipped session ${id}: its log holds records of another session; name it to see it`);
        continue;
      }
      return { id, ...read };
    } catch (error) {
      if (!CliError.isInstance(error)) throw error;
      firstRefusal ??= error;
      warn(`skipped session ${id}: ${error.message}`);
    }
  }
  throw (
    firstRefusal ??
    new CliError({
      code: 'SESSION_NOT_FOUND',
      message: `no session in ${path.join(home, 'sessions')} can be shown (see above); name one to see it anyway`,
    })
  );
}

function readSessionLog(home: string, id: string): { file: string; log: EventLog } {
  const { dir, eventLog: file } = sessionPaths(home, id);
  // The folder itself must be a folder: a symlink would let any place on disk pose as a session.
  const folder = lstatSync(dir, { throwIfNoEntry: false });
  if (folder !== undefined && !folder.isDirectory()) {
    throw new CliError({
      code: 'RUNTIME',
      message: `${dir} is ${folder.isSymbolicLink() ? 'a symlink' : 'not a folder'}, not a session folder (refused)`,
    });
  }
  if (lstatSync(file, { throwIfNoEntry: false }) === undefined) {
    throw new CliError({
      code: 'SESSION_NOT_FOUND',
      message: `no event log for session ${id}: ${file} does not exist`,
    });
  }
  try {
    return { file, log: readEventLog(file, { sessionId: id }) };
  } catch (error) {
    if (LoopAdapterError.isInstance(error)) {
      throw new CliError({ code: 'RUNTIME', message: error.message, cause: error });
    }
    throw error;
  }
}

/**
 * `soong-agent events [SESSION_ID]`: a session's event log (the latest by default), rendered like
 * the timeline or, with `--json`, as JSON lines. A torn last line (the agent was killed mid-write)
 * and invalid lines are reported on stderr; the complete records are still shown. Exit 1 when the
 * session did not end (no `loop_ended`: killed, crashed or still running — the unfinished tool
 * calls and hooks are named) or when the log holds records of another session.
 */
export async function eventsAction(
  sessionId: string | undefined,
  options: EventsCommandOptions,
): Promise<number> {
  const { home } = resolveLocations(options);
  const warn = (text: string) => process.stderr.write(`soong-agent: ${printable(text)}\n`);
  const { id, file, log } = chooseSession(home, sessionId, warn);
  if (options.json === true) {
    for (const record of log.records) process.stdout.write(`${JSON.stringify(record)}\n`);
  } else {
    process.stdout.write(`${file}\n`);
    const timeline = createTimeline({ stream: process.stdout, live: false });
    for (const record of log.records) timeline.onRecord(record);
    timeline.close();
  }
  let code: ExitCode = EXIT_CODES.ok;
  if (log.invalidLines.length > 0) {
    warn(`${file}: invalid record on line ${log.invalidLines.join(', ')} (skipped)`);
  }
  if (log.tornLine !== undefined) {
    const preview = log.tornLine.length > 80 ? `${log.tornLine.slice(0, 80)}…` : log.tornLine;
    warn(`${file}: the last line is torn (the agent was stopped mid-write); ignored: ${preview}`);
  }
  const foreign = log.foreignLines ?? [];
  if (foreign.length > 0) {
    warn(
      `${file}: line ${foreign.join(', ')} holds records of another session, not ${id} (copied or forged into this folder; skipped)`,
    );
    code = EXIT_CODES.runtime;
  }
  if (!log.records.some((record) => record.type === 'loop_ended')) {
    const open = unfinishedWork(log.records);
    const parts = [
      ...open.tools.map((tool) => `tool ${tool.tool} (${tool.call_id})`),
      ...open.hooks.map((hook) => `hook ${hook.hook_id} (${hook.event})`),
    ];
    warn(
      `session ${id} did not end: no loop_ended record (the agent was killed or crashed, or is still running)${parts.length > 0 ? `; unfinished: ${parts.join(', ')}` : ''}`,
    );
    code = EXIT_CODES.runtime;
  }
  return code;
}
