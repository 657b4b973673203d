import fs from 'node:fs';
import path from 'node:path';
import { EventRecordSchema } from '@soong-agent/protocol';
import { makeTempDir } from '@soong-agent/test-utils';
import { describe, expect, it } from 'vitest';
import { readEventLog } from './event-log.js';
import { createJsonlEventSink, createMemoryEventSink } from './event-sink.js';
import { LoopAdapterError } from './loop-adapter-error.js';

const tempDir = () => makeTempDir();

describe('createJsonlEventSink', () => {
  it('writes one valid JSON line per record with seq from 1 when emitting', async () => {
    const file = path.join(tempDir(), 'sessions', 's1', 'events.jsonl');
    const seen: number[] = [];
    const sink = createJsonlEventSink(file, { sessionId: 's1', onRecord: (r) => seen.push(r.seq) });
    const first = sink.emit({ type: 'user_prompt_submitted', prompt: 'hi' });
    sink.emit({ type: 'loop_ended', reason: 'completed' });
    await sink.close();
    expect(first.seq).toBe(1);
    expect(seen).toEqual([1, 2]);
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe('');
    const records = lines.slice(0, 2).map((line) => EventRecordSchema.parse(JSON.parse(line)));
    expect(records.map((r) => [r.seq, r.type, r.session_id])).toEqual([
      [1, 'user_prompt_submitted', 's1'],
      [2, 'loop_ended', 's1'],
    ]);
    expect(new Date(records[0]?.ts ?? '').toISOString()).toBe(records[0]?.ts);
  });

  it('writes each record as the exact bytes of its JSON, stamps first, when a body has multi-byte text or stamp keys', async () => {
    const file = path.join(tempDir(), 'events.jsonl');
    const sink = createJsonlEventSink(file, { sessionId: 's1' });
    const prompt = 'héllo ✓ 🧪 '.repeat(50);
    const first = sink.emit({ type: 'user_prompt_submitted', prompt });
    const second = sink.emit({ type: 'loop_ended', reason: 'completed', seq: 99, session_id: 'x' });
    await sink.close();
    const expected = `${JSON.stringify(first)}\n${JSON.stringify(second)}\n`;
    expect(fs.readFileSync(file).equals(Buffer.from(expected, 'utf8'))).toBe(true);
    expect(Object.keys(second).slice(0, 4)).toEqual(['seq', 'ts', 'session_id', 'type']);
    expect([second.seq, second.session_id]).toEqual([2, 's1']);
    // Whole lines only: a reopened log reads every record and continues its seq.
    const again = createJsonlEventSink(file, { sessionId: 's1' });
    expect(again.emit({ type: 'loop_ended', reason: 'completed' }).seq).toBe(3);
    await again.close();
    expect(readEventLog(file).records.map((record) => record.seq)).toEqual([1, 2, 3]);
  });

  it('throws INVALID_OPTIONS and leaves the target untouched when the log path is a planted symlink', () => {
    const root = tempDir();
    const target = path.join(root, 'hooks.json');
    fs.writeFileSync(target, '{"version":1}');
    const dir = path.join(root, 'sessions', 's1');
    fs.mkdirSync(dir, { recursive: true });
    fs.symlinkSync(target, path.join(dir, 'events.jsonl'));
    let caught: unknown;
    try {
      createJsonlEventSink(path.join(dir, 'events.jsonl'), { sessionId: 's1' });
    } catch (error) {
      caught = error;
    }
    expect(LoopAdapterError.isInstance(caught) && caught.code).toBe('INVALID_OPTIONS');
    expect(fs.readFileSync(target, 'utf8')).toBe('{"version":1}');
  });

  it('creates the folder with mode 0700 and the file with mode 0600 when they do not exist', async () => {
    const dir = path.join(tempDir(), 'sessions', 's1');
    const sink = createJsonlEventSink(path.join(dir, 'events.jsonl'), { sessionId: 's1' });
    sink.emit({ type: 'loop_ended', reason: 'completed' });
    await sink.close();
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.join(dir, 'events.jsonl')).mode & 0o777).toBe(0o600);
  });

  it('continues seq without gaps when appending to an existing log', async () => {
    const file = path.join(tempDir(), 'events.jsonl');
    const first = createJsonlEventSink(file, { sessionId: 's1' });
    first.emit({ type: 'loop_ended', reason: 'completed' });
    first.emit({ type: 'loop_ended', reason: 'completed' });
    await first.close();
    fs.appendFileSync(file, '{"seq":3,"ts":"2026');
    const second = createJsonlEventSink(file, { sessionId: 's1' });
    second.emit({ type: 'loop_ended', reason: 'aborted' });
    await second.close();
    const log = readEventLog(file);
    expect(log.records.map((r) => r.seq)).toEqual([1, 2, 3]);
    expect(log.invalidLines).toEqual([3]);
    expect(log.tornLine).toBeUndefined();
  });

  it('throws SINK_CLOSED when emitting after close', async () => {
    const sink = createJsonlEventSink(path.join(tempDir(), 'events.jsonl'), { sessionId: 's1' });
    await sink.close();
    await sink.close();
    let error: unknown;
    try {
      sink.emit({ type: 'loop_ended', reason: 'completed' });
    } catch (caught) {
      error = caught;
    }
    expect(LoopAdapterError.isInstance(error) && error.code).toBe('SINK_CLOSED');
  });
});

describe('createMemoryEventSink', () => {
  it('keeps its own seq, ts and session_id first when a body carries those keys', () => {
    const sink = createMemoryEventSink({ sessionId: 'mem' });
    const record = sink.emit({ type: 'loop_ended', reason: 'completed', seq: 99, session_id: 'x' });
    expect(Object.keys(record).slice(0, 4)).toEqual(['seq', 'ts', 'session_id', 'type']);
    expect([record.seq, record.session_id]).toEqual([1, 'mem']);
  });

  it('keeps stamped records in order when emitting', async () => {
    const sink = createMemoryEventSink({ sessionId: 'mem' });
    sink.emit({ type: 'user_prompt_submitted', prompt: 'a' });
    sink.emit({ type: 'loop_ended', reason: 'completed' });
    expect(sink.records.map((r) => [r.seq, r.type, r.session_id])).toEqual([
      [1, 'user_prompt_submitted', 'mem'],
      [2, 'loop_ended', 'mem'],
    ]);
    for (const record of sink.records) EventRecordSchema.parse(record);
    await sink.close();
    expect(() => sink.emit({ type: 'loop_ended', reason: 'completed' })).toThrow(LoopAdapterError);
  });
});
