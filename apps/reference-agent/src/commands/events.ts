import { existsSync } from 'node:fs';
import path from 'node:path';
import {
  type EventLog,
  isSessionId,
  LoopAdapterError,
  listSessions,
  readEventLog,
  sessionPaths,
} from '@soong-agent/loop-adapter';
import { resolveLocations } from '../agent/session.js';
import { CliError, EXIT_CODES } from '../errors.js';
import type { CommonOptions } from '../program.js';
import { selfCommand } from '../ui/self-command.js';
import { createTimeline } from '../ui/timeline.js';

/** Options of `soong-agent events`. */
export interface EventsCommandOptions extends CommonOptions {
  /** `--json`: the records as JSON lines. @default false */
  json?: boolean;
}

/**
 * `soong-agent events [SESSION_ID]`: a session's event log (the latest by default), rendered like
 * the timeline or, with `--json`, as JSON lines. A torn last line (the agent was killed mid-write)
 * and invalid lines are reported on stderr; the complete records are still shown.
 */
export async function eventsAction(
  sessionId: string | undefined,
  options: EventsCommandOptions,
): Promise<number> {
  const { home } = resolveLocations(options);
  let id = sessionId;
  if (id === undefined) {
    id = listSessions(home).at(-1);
    if (id === undefined) {
      throw new CliError({
        code: 'SESSION_NOT_FOUND',
        message: `no sessions in ${path.join(home, 'sessions')}; run \`${selfCommand()} run\` or \`${selfCommand()} demo\` first`,
      });
    }
  } else if (!isSessionId(id)) {
    throw new CliError({
      code: 'USAGE',
      message: `"${id}" is not a session id (e.g. 20261202T135512Z-3f9a1c)`,
    });
  }
  const file = sessionPaths(home, id).eventLog;
  if (!existsSync(file)) {
    throw new CliError({
      code: 'SESSION_NOT_FOUND',
      message: `no event log for session ${id}: ${file} does not exist`,
    });
  }
  let log: EventLog;
  try {
    log = readEventLog(file);
  } catch (error) {
    if (LoopAdapterError.isInstance(error)) {
      throw new CliError({ code: 'RUNTIME', message: error.message, cause: error });
    }
    throw error;
  }
  if (options.json === true) {
    for (const record of log.records) process.stdout.write(`${JSON.stringify(record)}\n`);
  } else {
    process.stdout.write(`${file}\n`);
    const timeline = createTimeline({ stream: process.stdout, live: false });
    for (const record of log.records) timeline.onRecord(record);
    timeline.close();
  }
  if (log.invalidLines.length > 0) {
    process.stderr.write(
      `soong-agent: ${file}: invalid record on line ${log.invalidLines.join(', ')} (skipped)\n`,
    );
  }
  if (log.tornLine !== undefined) {
    const preview = log.tornLine.length > 80 ? `${log.tornLine.slice(0, 80)}…` : log.tornLine;
    process.stderr.write(
      `soong-agent: ${file}: the last line is torn (the agent was stopped mid-write); ignored: ${preview}\n`,
    );
  }
  return EXIT_CODES.ok;
}
