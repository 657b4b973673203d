import fs from 'node:fs';
import path from 'node:path';
import type { EventRecord, EventRecordBody } from '@soong-agent/protocol';
import { readEventLog } from './event-log.js';
import { checkOption, LoopAdapterError } from './loop-adapter-error.js';

/** Where session records go. `emit` stamps `seq`, `ts` and `session_id` and returns the record. */
export interface EventSink {
  /** Appends one record; `seq` starts at 1 and has no gaps. Throws `SINK_CLOSED` after `close`. */
  emit(record: EventRecordBody): EventRecord;
  /** Flushes (fsync for files) and closes. Idempotent. */
  close(): Promise<void>;
}

/** Options of {@link createJsonlEventSink}. */
export interface JsonlEventSinkOptions {
  /** The session id stamped on every record. */
  sessionId: string;
  /** Called with each record after it is written (e.g. a live timeline). @default undefined */
  onRecord?: (record: EventRecord) => void;
}

/**
 * An append-only JSON-lines log: the folder is created with mode 0700, the file with 0600, each
 * record is one `write` of one whole line, and `close` fsyncs. Appending to an existing log
 * continues its `seq`.
 */
export function createJsonlEventSink(file: string, options: JsonlEventSinkOptions): EventSink {
  checkOption(
    typeof options?.sessionId === 'string' && options.sessionId !== '',
    'sessionId',
    options?.sessionId,
    'pass createSessionId()',
  );
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  // A planted symlink must not redirect the log (e.g. onto a hooks file): refuse to follow one.
  if (fs.lstatSync(file, { throwIfNoEntry: false })?.isSymbolicLink()) {
    throw new LoopAdapterError({
      code: 'INVALID_OPTIONS',
      message: `event log ${file} is a symbolic link; refusing to follow it (remove the link)`,
    });
  }
  let seq = 0;
  let needsNewline = false;
  if (fs.existsSync(file)) {
    const existing = readEventLog(file);
    for (const record of existing.records) seq = Math.max(seq, record.seq);
    needsNewline = existing.tornLine !== undefined;
  }
  const { O_WRONLY, O_APPEND, O_CREAT, O_NOFOLLOW } = fs.constants;
  let fd: number | undefined = fs.openSync(file, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW, 0o600);
  if (needsNewline) fs.writeSync(fd, '\n');
  const { sessionId, onRecord } = options;
  return {
    emit(body) {
      if (fd === undefined) throw closedError(file);
      const record = stamp(body, ++seq, sessionId);
      fs.writeSync(fd, `${JSON.stringify(record)}\n`);
      onRecord?.(record);
      return record;
    },
    async close() {
      if (fd === undefined) return;
      const closing = fd;
      fd = undefined;
      try {
        fs.fsyncSync(closing);
      } finally {
        fs.closeSync(closing);
      }
    },
  };
}

/** Options of {@link createMemoryEventSink}. */
export interface MemoryEventSinkOptions {
  /** The session id stamped on every record. */
  sessionId: string;
  /** Called with each record after it is stored. @default undefined */
  onRecord?: (record: EventRecord) => void;
}

/** A sink that keeps records in memory (`records`), for tests and for `hooks test`. */
export function createMemoryEventSink(
  options: MemoryEventSinkOptions,
): EventSink & { records: EventRecord[] } {
  const records: EventRecord[] = [];
  let closed = false;
  return {
    records,
    emit(body) {
      if (closed) throw closedError('memory sink');
      const record = stamp(body, records.length + 1, options.sessionId);
      records.push(record);
      options.onRecord?.(record);
      return record;
    },
    async close() {
      closed = true;
    },
  };
}

function stamp(body: EventRecordBody, seq: number, sessionId: string): EventRecord {
  const stamps = { seq, ts: new Date().toISOString(), session_id: sessionId };
  // Stamps first (key order in the log), and again after the body so a body cannot override them.
  return Object.assign({ ...stamps }, body, stamps) as EventRecord;
}

function closedError(where: string): LoopAdapterError {
  return new LoopAdapterError({
    code: 'SINK_CLOSED',
    message: `event sink ${where} is closed; emit records before close()`,
  });
}
