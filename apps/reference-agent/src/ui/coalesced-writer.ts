/** A stream writer that joins what one turn of the event loop writes into one write. */
export interface CoalescedWriter {
  /** Queues `text`; it is written, with everything else queued in this turn, on the next one. */
  write(text: string): void;
  /** Writes what is queued now (before a prompt, at the end). Idempotent. */
  flush(): void;
  /** Flushes and stops flushing at process exit. */
  close(): void;
}

/**
 * Queues writes to `stream` and writes them as one chunk from `setImmediate`, so the run loop is
 * not held up by them: `process.stderr` and `stdout` are synchronous on a pipe or terminal, and each
 * write wakes the reader (a terminal, the caller's pipe), which on a busy machine takes the CPU
 * from the session between a hook's end and its tool's start. The timeline's lines of one hook
 * call then leave while the tool runs; none is lost at `process.exit` (flushed on `exit`), and the
 * bytes written are the same, in the same order.
 */
export function createCoalescedWriter(stream: NodeJS.WritableStream): CoalescedWriter {
  let queued: string[] = [];
  let scheduled: NodeJS.Immediate | undefined;
  const flush = () => {
    if (scheduled !== undefined) clearImmediate(scheduled);
    scheduled = undefined;
    if (queued.length === 0) return;
    const text = queued.length === 1 ? queued[0] : queued.join('');
    queued = [];
    stream.write(text as string);
  };
  process.on('exit', flush);
  return {
    write(text) {
      if (text === '') return;
      queued.push(text);
      scheduled ??= setImmediate(flush);
    },
    flush,
    close() {
      flush();
      process.off('exit', flush);
    },
  };
}
