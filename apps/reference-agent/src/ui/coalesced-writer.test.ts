import { spawnSync } from 'node:child_process';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createCoalescedWriter } from './coalesced-writer.js';

/** A stream that keeps every write it gets, one entry a write. */
function recorder() {
  const writes: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      writes.push(chunk.toString());
      done();
    },
  });
  return { stream, writes };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('createCoalescedWriter', () => {
  it('writes what one turn queued as one write on the next turn, the same bytes in order', async () => {
    const { stream, writes } = recorder();
    const writer = createCoalescedWriter(stream);
    writer.write('a\n');
    writer.write('');
    writer.write('b\n');
    writer.write('c');
    expect(writes).toEqual([]);
    await nextTurn();
    expect(writes).toEqual(['a\nb\nc']);
    writer.write('d\n');
    await nextTurn();
    expect(writes).toEqual(['a\nb\nc', 'd\n']);
    writer.close();
  });

  it('writes at once on flush and close, and stops listening for exit once closed', async () => {
    const { stream, writes } = recorder();
    const exitListeners = process.listenerCount('exit');
    const writer = createCoalescedWriter(stream);
    expect(process.listenerCount('exit')).toBe(exitListeners + 1);
    writer.write('one\n');
    writer.flush();
    expect(writes).toEqual(['one\n']);
    writer.flush();
    writer.write('two\n');
    writer.close();
    expect(writes).toEqual(['one\n', 'two\n']);
    expect(process.listenerCount('exit')).toBe(exitListeners);
    await nextTurn();
    expect(writes).toEqual(['one\n', 'two\n']);
  });

  it('loses nothing when the process exits in the turn that queued it (built module)', () => {
    const built = fileURLToPath(
      new URL('../../dist/unbundled/ui/coalesced-writer.js', import.meta.url),
    );
    const script = `import(${JSON.stringify(built)}).then(({ createCoalescedWriter }) => {
      const writer = createCoalescedWriter(process.stderr);
      writer.write('first line\\n');
      writer.write('last line\\n');
      process.exit(3);
    });`;
    const result = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    expect(result.status).toBe(3);
    expect(result.stderr).toBe('first line\nlast line\n');
  });
});
