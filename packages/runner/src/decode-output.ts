import { isUtf8 } from 'node:buffer';

/**
 * Length of the well-formed UTF-8 sequence at `bytes[at]` (Unicode table 3-7: no overlong forms,
 * no surrogates, nothing above U+10FFFF): its length, `0` when the byte starts no such sequence, or
 * `-1` when the bytes up to `end` are a proper beginning of one (more may follow in a stream).
 */
function sequenceLength(bytes: Uint8Array, at: number, end: number): number {
  const first = bytes[at] as number;
  if (first < 0x80) return 1;
  let continuations: number;
  let low = 0x80;
  let high = 0xbf;
  if (first >= 0xc2 && first <= 0xdf) continuations = 1;
  else if (first === 0xe0) [continuations, low] = [2, 0xa0];
  else if (first === 0xed) [continuations, high] = [2, 0x9f];
  else if (first >= 0xe1 && first <= 0xef) continuations = 2;
  else if (first === 0xf0) [continuations, low] = [3, 0x90];
  else if (first === 0xf4) [continuations, high] = [3, 0x8f];
  else if (first >= 0xf1 && first <= 0xf3) continuations = 3;
  else return 0;
  for (let offset = 1; offset <= continuations; offset++) {
    if (at + offset >= end) return -1;
    const byte = bytes[at + offset] as number;
    if (byte < low || byte > high) return 0;
    low = 0x80;
    high = 0xbf;
  }
  return continuations + 1;
}

/** `\xHH` for one byte that is not part of a well-formed character (lowercase hex). */
function escapeByte(byte: number): string {
  return `\\x${byte.toString(16).padStart(2, '0')}`;
}

/**
 * Decodes `bytes[0..end)`; returns the text and where an unfinished sequence at the end begins
 * (`end` when there is none, or when `final`: then its bytes are escaped too).
 */
function decodeSpan(
  bytes: Uint8Array,
  end: number,
  final: boolean,
): { text: string; consumed: number } {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, end);
  if (isUtf8(buffer)) return { text: buffer.toString('utf8'), consumed: end };
  let text = '';
  let runStart = 0;
  let at = 0;
  while (at < end) {
    const length = sequenceLength(bytes, at, end);
    if (length > 0) {
      at += length;
      continue;
    }
    if (length === -1 && !final) {
      text += buffer.toString('utf8', runStart, at);
      return { text, consumed: at };
    }
    // Each byte that starts no well-formed character on its own is escaped; the next byte is
    // looked at afresh (a stray continuation byte is escaped in its turn).
    text += buffer.toString('utf8', runStart, at) + escapeByte(bytes[at] as number);
    at += 1;
    runStart = at;
  }
  return { text: text + buffer.toString('utf8', runStart, end), consumed: end };
}

/**
 * Decodes UTF-8 output of a child process without losing a byte: well-formed UTF-8 is kept as it
 * is, and each byte that is not part of a well-formed character is shown as `\xHH` (two lowercase
 * hex digits, as Python's `backslashreplace`), where a plain decoder would put U+FFFD and lose its
 * value. Invalid bytes are always `\x80`–`\xff` (ASCII bytes are always valid). The result is
 * well-formed text, so a JSON record holding it is valid JSON. A literal `\xff` the child printed
 * looks the same: the escape is for people, not a reversible encoding of backslashes.
 */
export function decodeOutput(bytes: Uint8Array): string {
  return decodeSpan(bytes, bytes.length, true).text;
}

/**
 * {@link decodeOutput} over a stream of chunks: a character split across chunks decodes whole.
 * `end()` escapes the bytes of a character the stream left unfinished; `drop()` forgets them
 * (output cut at a byte limit: the cut character is left out, not escaped).
 */
export class OutputDecoder {
  private pending: Uint8Array = new Uint8Array(0);

  /** The text of `chunk`, holding back an unfinished character at its end. */
  write(chunk: Uint8Array): string {
    const bytes = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    const { text, consumed } = decodeSpan(bytes, bytes.length, false);
    this.pending = bytes.subarray(consumed);
    return text;
  }

  /** The bytes held back, each escaped (the stream ended inside a character). */
  end(): string {
    const text = decodeOutput(this.pending);
    this.pending = new Uint8Array(0);
    return text;
  }

  /** Forgets the bytes held back. */
  drop(): void {
    this.pending = new Uint8Array(0);
  }
}
