import { decodeOutput, OutputDecoder } from './decode-output.js';

const EMPTY = new Uint8Array(0);

/**
 * One chunk of a child's stream as bytes. Node delivers Buffers; Bun (OpenCode runs plugins in it)
 * may deliver strings from a stream it decoded itself, which the byte counting and the line
 * splitting cannot take as they are.
 */
export function chunkBytes<T extends Uint8Array>(chunk: T | string): T | Buffer {
  return typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
}

/**
 * Counts every byte of one output stream, keeps at most `limit` of them (the head), and keeps a
 * rolling window of the last `tailLimit` bytes (the tail), both decoded as UTF-8 with each invalid
 * byte shown as `\xHH` ({@link decodeOutput}). Decoding of the head is incremental, so a character
 * split across chunks decodes right.
 */
export class OutputCollector {
  /** Bytes produced so far, kept or not. */
  bytes = 0;
  /** True once a byte was dropped. */
  truncated = false;
  private text = '';
  private readonly decoder = new OutputDecoder();
  // The tail: chunks from tailChunks[tailFirst] on, whose total length minus the first one's is
  // below tailLimit (an index, not shift(), so a flood of tiny chunks stays linear).
  private tailChunks: Uint8Array[] = [];
  private tailFirst = 0;
  private tailLength = 0;

  constructor(
    private readonly limit: number,
    private readonly tailLimit = 0,
  ) {}

  /** Account for one chunk; returns true when this chunk passed the limit. */
  push(data: Uint8Array | string): boolean {
    const chunk = chunkBytes(data);
    this.pushTail(chunk);
    const room = this.limit - this.bytes;
    this.bytes += chunk.length;
    if (room >= chunk.length) {
      this.text += this.decoder.write(chunk);
      return false;
    }
    if (room > 0) this.text += this.decoder.write(chunk.subarray(0, room));
    const passed = !this.truncated;
    this.truncated = true;
    return passed;
  }

  /**
   * The kept text. When truncated, a character cut by the limit is left out, not escaped; a
   * character the child left unfinished at the end of its output is escaped byte by byte.
   */
  finish(): string {
    if (this.truncated) this.decoder.drop();
    else this.text += this.decoder.end();
    return this.text;
  }

  /**
   * The last `tailLimit` bytes of the stream, decoded. A character cut at the start of the window
   * is left out, not escaped; invalid bytes (e.g. a character the child left unfinished) are shown
   * as `\xHH`.
   */
  tail(): string {
    if (this.tailLength === 0) return '';
    const joined = Buffer.concat(this.tailChunks.slice(this.tailFirst), this.tailLength);
    let start = Math.max(0, joined.length - this.tailLimit);
    // Skip UTF-8 continuation bytes (10xxxxxx) at the cut: they belong to a character cut off.
    if (this.bytes > this.tailLimit) {
      const end = Math.min(start + 3, joined.length);
      while (start < end && ((joined[start] as number) & 0xc0) === 0x80) start += 1;
    }
    return decodeOutput(joined.subarray(start));
  }

  private pushTail(chunk: Uint8Array): void {
    if (this.tailLimit === 0 || chunk.length === 0) return;
    this.tailChunks.push(chunk);
    this.tailLength += chunk.length;
    // Drop whole chunks from the front while the rest still covers the window.
    while (
      this.tailLength - (this.tailChunks[this.tailFirst] as Uint8Array).length >=
      this.tailLimit
    ) {
      this.tailLength -= (this.tailChunks[this.tailFirst] as Uint8Array).length;
      this.tailChunks[this.tailFirst] = EMPTY; // release the dropped chunk now
      this.tailFirst += 1;
    }
    if (this.tailFirst > 1024) {
      this.tailChunks = this.tailChunks.slice(this.tailFirst);
      this.tailFirst = 0;
    }
  }
}
