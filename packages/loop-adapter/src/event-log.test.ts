import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeTempDir } from '@soong-agent/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_LOG_MAX_BYTES, readEventLog } from './event-log.js';
import { createJsonlEventSink } from './event-sink.js';
import { LoopAdapterError } from './loop-adapter-error.js';
import { buildFreshDist } from './test-helpers/build-dist.js';

const tempDir = () => makeTempDir();
function codeOf(read: () => unknown): string | undefined {
  try {
    read();
  } catch (error) {
    return LoopAdapterError.isInstance(error) ? error.code : 'not a LoopAdapterError';
  }
  return undefined;
}

const fixtures = path.join(path.dirname(fileURLToPath(import.meta.url)), '__fixtures__');

describe('readEventLog', () => {
  it('returns every record and reports the torn last line when the last write was cut off', async () => {
    const file = path.join(tempDir(), 'events.jsonl');
    const sink = createJsonlEventSink(file, { sessionId: 's' });
    sink.emit({ type: 'user_prompt_submitted', prompt: 'one' });
    sink.emit({ type: 'loop_ended', reason: 'completed' });
    await sink.close();
    fs.appendFileSync(
      file,
      '{"seq":3,"ts":"2026-12-02T00:00:00.000Z","session_id":"s","type":"loop',
    );
    const log = readEventLog(file);
    expect(log.records.map((r) => r.seq)).toEqual([1, 2]);
    expect(log.tornLine).toBe(
      '{"seq":3,"ts":"2026-12-02T00:00:00.000Z","session_id":"s","type":"loop',
    );
    expect(log.invalidLines).toEqual([]);
  });

  it('keeps a whole last record when only its newline is missing', () => {
    const file = path.join(tempDir(), 'events.jsonl');
    fs.writeFileSync(
      file,
      '{"seq":1,"ts":"2026-12-02T00:00:00.000Z","session_id":"s","type":"loop_ended","reason":"completed"}',
    );
    const log = readEventLog(file);
    expect(log.records.map((r) => r.type)).toEqual(['loop_ended']);
    expect(log.tornLine).toBeUndefined();
  });

  it('reports complete lines that are not records when the log holds junk', () => {
    const file = path.join(tempDir(), 'events.jsonl');
    fs.writeFileSync(
      file,
      [
        'not json',
        '{"seq":1,"ts":"2026-12-02T00:00:00.000Z","session_id":"s","type":"loop_ended","reason":"completed"}',
        '{"seq":2,"type":"no_such_record"}',
        '',
      ].join('\n'),
    );
    const log = readEventLog(file);
    expect(log.records.map((r) => r.seq)).toEqual([1]);
    expect(log.invalidLines).toEqual([1, 3]);
  });

  it('returns an empty log when the file does not exist', () => {
    expect(readEventLog(path.join(tempDir(), 'missing.jsonl'))).toEqual({
      records: [],
      invalidLines: [],
    });
  });

  it('leaves out and reports records of another session when given the session id', () => {
    const file = path.join(tempDir(), 'events.jsonl');
    const record = (seq: number, session: string) =>
      `{"seq":${seq},"ts":"2026-12-02T00:00:00.000Z","session_id":"${session}","type":"loop_ended","reason":"completed"}`;
    fs.writeFileSync(
      file,
      [record(1, 'mine'), record(2, 'theirs'), record(3, 'theirs')].join('\n'),
    );
    const log = readEventLog(file, { sessionId: 'mine' });
    expect(log.records.map((r) => r.seq)).toEqual([1]);
    expect(log.foreignLines).toEqual([2, 3]);
    expect(readEventLog(file).records).toHaveLength(3);
  });

  it('throws EVENT_LOG_UNREADABLE at once when the log is a FIFO, a directory or a symlink', () => {
    const dir = tempDir();
    execFileSync('mkfifo', [path.join(dir, 'fifo.jsonl')]);
    fs.mkdirSync(path.join(dir, 'dir.jsonl'));
    fs.symlinkSync('/dev/zero', path.join(dir, 'zero.jsonl'));
    fs.writeFileSync(path.join(dir, 'real.jsonl'), '');
    fs.symlinkSync(path.join(dir, 'real.jsonl'), path.join(dir, 'link.jsonl'));
    for (const name of ['fifo.jsonl', 'dir.jsonl', 'zero.jsonl', 'link.jsonl']) {
      expect(
        codeOf(() => readEventLog(path.join(dir, name))),
        name,
      ).toBe('EVENT_LOG_UNREADABLE');
    }
  });

  it('throws EVENT_LOG_UNREADABLE after reading the limit plus one byte when the log is larger', () => {
    const file = path.join(tempDir(), 'events.jsonl');
    fs.writeFileSync(file, '');
    fs.truncateSync(file, EVENT_LOG_MAX_BYTES + 1);
    expect(codeOf(() => readEventLog(file))).toBe('EVENT_LOG_UNREADABLE');
  });
});

describe('readEventLog after a crash or a full disk', () => {
  let dist: ReturnType<typeof buildFreshDist>;
  beforeAll(() => {
    dist = buildFreshDist();
  }, 120_000);
  afterAll(() => dist.cleanup());

  it('returns every complete record when the writer is killed with SIGKILL mid-stream', async () => {
    const file = path.join(tempDir(), 'events.jsonl');
    const child = spawn(
      process.execPath,
      [path.join(fixtures, 'crash-writer.mjs'), dist.dir, file],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let reported = 0;
    const exited = new Promise<NodeJS.Signals | null>((resolve) => {
      child.on('exit', (_code, signal) => resolve(signal));
    });
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        const counts = chunk.toString().trim().split('\n').map(Number);
        reported = Math.max(reported, ...counts);
        if (reported >= 500) resolve();
      });
      child.on('exit', () => reject(new Error('crash writer exited on its own')));
    });
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');

    const log = readEventLog(file);
    const text = fs.readFileSync(file, 'utf8');
    const completeLines = text.split('\n').length - 1;
    expect(log.invalidLines).toEqual([]);
    const wholeUnterminated = !text.endsWith('\n') && log.tornLine === undefined ? 1 : 0;
    expect(log.records.length).toBe(completeLines + wholeUnterminated);
    expect(log.records.length).toBeGreaterThanOrEqual(reported);
    expect(log.records.map((r) => r.seq)).toEqual(log.records.map((_, index) => index + 1));
    if (log.tornLine !== undefined) {
      expect(log.tornLine).toBe(text.slice(text.lastIndexOf('\n') + 1));
    }
  }, 60_000);

  it('cuts a record the full disk took only part of back out, so the log ends with a whole record', async () => {
    // RLIMIT_FSIZE plays the full disk: the write that crosses it is short, the next one EFBIG.
    const file = path.join(tempDir(), 'events.jsonl');
    const script = `ulimit -f 8; trap '' XFSZ; exec "$0" "$@"`;
    const output = execFileSync(
      '/bin/sh',
      ['-c', script, process.execPath, path.join(fixtures, 'full-disk-writer.mjs'), dist.dir, file],
      { encoding: 'utf8' },
    );
    const result = JSON.parse(output) as { written: number; code: string; again: string };
    expect(result).toMatchObject({ code: 'SINK_WRITE_FAILED', again: 'SINK_WRITE_FAILED' });
    expect(result.written).toBeGreaterThan(0);
    const text = fs.readFileSync(file, 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    const log = readEventLog(file);
    expect(log.tornLine).toBeUndefined();
    expect(log.invalidLines).toEqual([]);
    expect(log.records.map((r) => r.seq)).toEqual(log.records.map((_, index) => index + 1));
    expect(log.records).toHaveLength(result.written);
  }, 60_000);
});
