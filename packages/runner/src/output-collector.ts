/**
 * Counts every byte of one output stream and keeps at most `limit` of them, decoded as UTF-8.
 * Decoding is incremental (`stream: true`), so a character split across chunks decodes right.
 */
export class OutputCollector {
  /** Bytes produced so far, kept or not. */
  bytes = 0;
  /** True once a byte was dropped. */
  truncated = false;
  private text = '';
  private readonly decoder = new TextDecoder('utf-8');

  constructor(private readonly limit: number) {}

  /** Account for one chunk; returns true when this chunk passed the limit. */
  push(chunk: Uint8Array): boolean {
    const room = this.limit - this.bytes;
    this.bytes += chunk.length;
    if (room >= chunk.length) {
      this.text += this.decoder.decode(chunk, { stream: true });
      return false;
    }
    if (room > 0) this.text += this.decoder.decode(chunk.subarray(0, room), { stream: true });
    const passed = !this.truncated;
    this.truncated = true;
    return passed;
  }

  /** The kept text. When truncated, a character cut by the limit is left out, not replaced. */
  finish(): string {
    if (!this.truncated) this.text += this.decoder.decode();
    return this.text;
  }
}
