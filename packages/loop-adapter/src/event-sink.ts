import fs from 'node:fs';
import path from 'node:path';
import type { EventRecord, EventRecordBody } from '@soong-agent/protocol';
import { readEventLog } from './event-log.js';
import { isoNow } from './iso-now.js';
import { checkOption, LoopAdapterError } from './loop-adapter-error.js';

/** Where session records go. `emit` stamps `seq`, `ts` and `session_id` and returns the record. */
export interface EventSink {
  /**
   * Appends one record; `seq` starts at 1 and has no gaps. Throws `SINK_CLOSED` after `close`, and
   * `SINK_WRITE_FAILED` when the disk refuses the write (full, read-only, a file size limit): the
   * partial line is cut off again, and every later `emit` throws the same error.
   */
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
 * record is one `write` of one whole line (short writes are continued; a failed one is truncated
 * away, so no torn record sits between whole ones), and `close` fsyncs. Appending to an existing
 * log continues its `seq`.
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
  const unlock = lockEventLog(file);
  let seq = 0;
  let needsNewline = false;
  if (fs.existsSync(file)) {
    const existing = readEventLog(file);
    for (const record of existing.records) seq = Math.max(seq, record.seq);
    needsNewline = existing.tornLine !== undefined;
  }
  const { O_WRONLY, O_APPEND, O_CREAT, O_NOFOLLOW } = fs.constants;
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW, 0o600);
  } catch (error) {
    unlock();
    throw error;
  }
  // Where the next record starts: a write that fails is cut back to here, so the log never holds
  // half a record followed by whole ones.
  let size = fs.fstatSync(fd).size;
  let failure: LoopAdapterError | undefined;
  const append = (descriptor: number, text: string) => {
    if (failure !== undefined) throw failure;
    const length = Buffer.byteLength(text, 'utf8');
    let written = 0;
    try {
      // One write(2) is one whole line on a healthy disk (the string as it is, no Buffer made); a
      // full one (or a file size limit) can take part of it and then fail: keep writing the rest
      // until all of it is there or an error says why.
      written = fs.writeSync(descriptor, text);
      if (written < length) {
        const bytes = Buffer.from(text, 'utf8');
        while (written < length) {
          const count = fs.writeSync(descriptor, bytes, written, length - written);
          if (count === 0) throw Object.assign(new Error('wrote 0 bytes'), { code: 'EIO' });
          written += count;
        }
      }
    } catch (error) {
      try {
        fs.ftruncateSync(descriptor, size);
      } catch {
        // The log keeps a torn last line; readers tolerate that, and nothing follows it.
      }
      failure = writeFailedError(file, error);
      throw failure;
    }
    size += written;
  };
  if (needsNewline) append(fd, '\n');
  const { sessionId, onRecord } = options;
  return {
    emit(body) {
      if (fd === undefined) throw closedError(file);
      const record = stamp(body, seq + 1, sessionId);
      append(fd, `${JSON.stringify(record)}\n`);
      seq += 1;
      onRecord?.(record);
      return record;
    },
    async close() {
      if (fd === undefined) return;
      const closing = fd;
      fd = undefined;
      try {
        fs.fsyncSync(closing);
      } catch (error) {
        throw failure ?? writeFailedError(file, error);
      } finally {
        fs.closeSync(closing);
        unlock();
      }
    },
  };
}

// Logs this process writes now (their absolute paths).
const openLogs = new Set<string>();

/**
 * One writer per log: two would stamp the same `seq`. Held in this process by a set, across
 * processes by `<log>.lock` holding the writer's pid (a lock whose pid is gone is stale and taken
 * over). Returns the release.
 */
function lockEventLog(file: string): () => void {
  const key = path.resolve(file);
  const lock = `${key}.lock`;
  const inUse = (by: string) =>
    new LoopAdapterError({
      code: 'SESSION_IN_USE',
      message: `event log ${key} is already being written by ${by}: two writers would give records the same seq; open the session under another id (createSessionId()), or close the other one first`,
    });
  if (openLogs.has(key)) throw inUse('another sink of this process');
  for (let attempt = 0; ; attempt += 1) {
    try {
      fs.writeFileSync(lock, `${process.pid}\n`, { flag: 'wx', mode: 0o600 });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw error;
      const holder = lockHolder(lock);
      if (holder !== undefined && holder !== process.pid && isAlive(holder)) {
        throw inUse(`process ${holder} (its lock is ${lock})`);
      }
      // Stale: its writer is gone (or was this process, which holds no sink on it any more).
      fs.rmSync(lock, { force: true });
    }
  }
  openLogs.add(key);
  return () => {
    if (!openLogs.delete(key)) return;
    if (lockHolder(lock) === process.pid) fs.rmSync(lock, { force: true });
  };
}

function lockHolder(lock: string): number | undefined {
  try {
    if (!fs.lstatSync(lock).isFile()) return Number.NaN;
    const pid = Number.parseInt(fs.readFileSync(lock, 'utf8'), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid)) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function writeFailedError(file: string, error: unknown): LoopAdapterError {
  const reason = error instanceof Error ? error.message : String(error);
  return new LoopAdapterError({
    code: 'SINK_WRITE_FAILED',
    message: `cannot write the event log ${file}: ${reason} (is the disk full or read-only?); the log ends with the last whole record`,
    cause: error,
  });
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
  const ts = isoNow();
  // Stamps first (key order in the log), and set again after the body so a body cannot override
  // them (a literal with a spread: several times cheaper than Object.assign on the hot path).
  const record = { seq, ts, session_id: sessionId, ...body } as EventRecord;
  record.seq = seq;
  record.ts = ts;
  record.session_id = sessionId;
  return record;
}

function closedError(where: string): LoopAdapterError {
  return new LoopAdapterError({
    code: 'SINK_CLOSED',
    message: `event sink ${where} is closed; emit records before close()`,
  });
}
