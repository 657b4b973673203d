/** Default bytes kept from the start of a summarised text. */
export const SUMMARY_HEAD_BYTES = 4096;
/** Default bytes kept from the end of a summarised text. */
export const SUMMARY_TAIL_BYTES = 4096;

/** Options of {@link summarizeText}. */
export interface SummarizeTextOptions {
  /** Bytes (UTF-8) kept from the start. @default 4096 */
  headBytes?: number;
  /** Bytes (UTF-8) kept from the end. @default 4096 */
  tailBytes?: number;
}

/**
 * Head and tail of `text` with a middle line giving the omitted, total byte and line counts:
 *
 * ```
 * <head>
 * [... 123456 bytes omitted; 130000 bytes, 2001 lines in total ...]
 * <tail>
 * ```
 *
 * A text that fits in `headBytes + tailBytes` is returned unchanged. Cuts fall on character
 * boundaries: no UTF-8 character (or surrogate pair) is ever split, so the kept parts may be a few
 * bytes shorter than asked.
 */
export function summarizeText(text: string, options: SummarizeTextOptions = {}): string {
  const headBytes = options.headBytes ?? SUMMARY_HEAD_BYTES;
  const tailBytes = options.tailBytes ?? SUMMARY_TAIL_BYTES;
  const totalBytes = Buffer.byteLength(text, 'utf8');
  if (totalBytes <= headBytes + tailBytes) return text;
  const head = takeHead(text, headBytes);
  const tail = takeTail(text, tailBytes);
  const omitted = totalBytes - Buffer.byteLength(head) - Buffer.byteLength(tail);
  return `${head}\n[... ${omitted} bytes omitted; ${totalBytes} bytes, ${countLines(text)} lines in total ...]\n${tail}`;
}

/** Lines of `text`: newline count, plus one for an unterminated last line. */
export function countLines(text: string): number {
  if (text === '') return 0;
  let lines = 0;
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) lines++;
  return text.endsWith('\n') ? lines : lines + 1;
}

/** The longest prefix of `text` of at most `maxBytes` UTF-8 bytes that splits no character. */
export function takeHead(text: string, maxBytes: number): string {
  let slice = text.slice(0, maxBytes);
  while (Buffer.byteLength(slice) > maxBytes || endsWithHighSurrogate(slice)) {
    slice = shrinkEnd(slice, maxBytes);
  }
  return slice;
}

/** The longest suffix of `text` of at most `maxBytes` UTF-8 bytes that splits no character. */
export function takeTail(text: string, maxBytes: number): string {
  let slice = maxBytes === 0 ? '' : text.slice(-maxBytes);
  while (Buffer.byteLength(slice) > maxBytes || startsWithLowSurrogate(slice)) {
    slice = shrinkStart(slice, maxBytes);
  }
  return slice;
}

// One UTF-16 unit is at least one UTF-8 byte, so `maxBytes` units always cover `maxBytes` bytes;
// shrink from there until the bytes fit and no surrogate pair is cut.
function shrinkEnd(slice: string, maxBytes: number): string {
  const over = Buffer.byteLength(slice) - maxBytes;
  // Each unit is at most 3 bytes; drop at least one unit, more when far over.
  return slice.slice(0, slice.length - Math.max(1, Math.floor(over / 3)));
}

function shrinkStart(slice: string, maxBytes: number): string {
  const over = Buffer.byteLength(slice) - maxBytes;
  return slice.slice(Math.max(1, Math.floor(over / 3)));
}

function endsWithHighSurrogate(value: string): boolean {
  const code = value.charCodeAt(value.length - 1);
  return code >= 0xd800 && code <= 0xdbff;
}

function startsWithLowSurrogate(value: string): boolean {
  const code = value.charCodeAt(0);
  return code >= 0xdc00 && code <= 0xdfff;
}
