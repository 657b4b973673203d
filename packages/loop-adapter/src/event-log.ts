import fs from 'node:fs';
import { type EventRecord, EventRecordSchema } from '@soong-agent/protocol';

/** What {@link readEventLog} found in a session log. */
export interface EventLog {
  /** Every complete, valid record, in file order. */
  records: EventRecord[];
  /** The last line when it was cut off mid-write (no newline and not a whole record). */
  tornLine?: string;
  /** 1-based numbers of complete lines that are not valid event records. */
  invalidLines: number[];
}

/**
 * Reads a JSON-lines event log. Tolerates a torn last line (a writer killed mid-record) and reports
 * it as `tornLine`; complete lines that do not parse as records are reported in `invalidLines`.
 * A missing file reads as an empty log.
 */
export function readEventLog(file: string): EventLog {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      return { records: [], invalidLines: [] };
    throw error;
  }
  const records: EventRecord[] = [];
  const invalidLines: number[] = [];
  const lines = text.split('\n');
  // After the last '\n' comes either '' (clean end) or a line whose write did not finish.
  const last = lines.pop() ?? '';
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    const record = parseRecord(line);
    if (record === undefined) invalidLines.push(index + 1);
    else records.push(record);
  });
  const log: EventLog = { records, invalidLines };
  if (last !== '') {
    // A prefix of a JSON object is never itself a valid object, so a parseable last line is whole.
    const record = parseRecord(last);
    if (record === undefined) log.tornLine = last;
    else records.push(record);
  }
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
