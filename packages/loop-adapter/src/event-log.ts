import { type RegularFileSyncRead, readRegularFileSync } from '@soong-agent/config';
import { type EventRecord, EventRecordSchema } from '@soong-agent/protocol';
import { LoopAdapterError } from './loop-adapter-error.js';

/** What {@link readEventLog} found in a session log. */
export interface EventLog {
  /** Every complete, valid record, in file order. */
  records: EventRecord[];
  /** The last line when it was cut off mid-write (no newline and not a whole record). */
  tornLine?: string;
  /** 1-based numbers of complete lines that are not valid event records. */
  invalidLines: number[];
  /**
   * With {@link ReadEventLogOptions.sessionId}: 1-based numbers of lines holding valid records of
   * another session (a log copied or forged into this session's folder); they are not in `records`.
   */
  foreignLines?: number[];
}

/** Options of {@link readEventLog}. */
export interface ReadEventLogOptions {
  /** The session the log belongs to (its folder name): records of any other session are foreign. */
  sessionId?: string;
}

/** Event logs larger than this are refused by {@link readEventLog} rather than read. */
export const EVENT_LOG_MAX_BYTES = 128 * 1024 * 1024;

/**
 * Reads a JSON-lines event log. Tolerates a torn last line (a writer killed mid-record) and reports
 * it as `tornLine`; complete lines that do not parse as records are reported in `invalidLines`.
 * A missing file reads as an empty log. The disk is not trusted: a symlink at `file`, a FIFO, a
 * device or a file past {@link EVENT_LOG_MAX_BYTES} (read to at most that plus one byte, whatever
 * `stat` says) is an `EVENT_LOG_UNREADABLE` error, never a hang or an unbounded read. With
 * `sessionId`, records whose `session_id` differs are left out and reported in `foreignLines`.
 */
export function readEventLog(file: string, options: ReadEventLogOptions = {}): EventLog {
  let read: RegularFileSyncRead;
  try {
    read = readRegularFileSync(file, { maxBytes: EVENT_LOG_MAX_BYTES, followSymlinks: false });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') {
      return options.sessionId === undefined
        ? { records: [], invalidLines: [] }
        : { records: [], invalidLines: [], foreignLines: [] };
    }
    throw new LoopAdapterError({
      code: 'EVENT_LOG_UNREADABLE',
      message: `cannot read event log ${file}: ${code === 'ELOOP' ? 'it is a symlink (refused)' : (error as Error).message}`,
      cause: error,
    });
  }
  if ('problem' in read) {
    throw new LoopAdapterError({
      code: 'EVENT_LOG_UNREADABLE',
      message: `cannot read event log ${file}: ${
        read.problem === 'too large'
          ? `larger than ${EVENT_LOG_MAX_BYTES} bytes`
          : read.problem === 'directory'
            ? 'it is a directory'
            : 'not a regular file (a FIFO, device or socket)'
      }`,
    });
  }
  const text = read.bytes.toString('utf8');
  const records: EventRecord[] = [];
  const invalidLines: number[] = [];
  const foreignLines: number[] = [];
  const keep = (record: EventRecord, lineNumber: number) => {
    if (options.sessionId === undefined || record.session_id === options.sessionId) {
      records.push(record);
    } else {
      foreignLines.push(lineNumber);
    }
  };
  const lines = text.split('\n');
  // After the last '\n' comes either '' (clean end) or a line whose write did not finish.
  const last = lines.pop() ?? '';
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    const record = parseRecord(line);
    if (record === undefined) invalidLines.push(index + 1);
    else keep(record, index + 1);
  });
  const log: EventLog = { records, invalidLines };
  if (last !== '') {
    // A prefix of a JSON object is never itself a valid object, so a parseable last line is whole.
    const record = parseRecord(last);
    if (record === undefined) log.tornLine = last;
    else keep(record, lines.length + 1);
  }
  if (options.sessionId !== undefined) log.foreignLines = foreignLines;
  return log;
}

function parseRecord(line: string): EventRecord | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  const parsed = EventRecordSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}
