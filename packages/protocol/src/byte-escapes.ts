/**
 * A runner's `\xHH` escape of an invalid output byte (`@soong-agent/runner` `decodeOutput`: always
 * `\x80`–`\xff`, lowercase) where the backslash starts an escape: the run of backslashes before the
 * `x` is odd.
 */
const BYTE_ESCAPE = /(\\+)(x[89a-f][0-9a-f])/g;

/**
 * Hook stdout as JSON text, with the runner's `\xHH` escapes of invalid bytes made valid inside
 * JSON strings (`\\xHH`), so that a JSON answer whose string held a raw invalid byte still parses,
 * and the string keeps the escape as text (a `reason` of `caf\xe9`). `\x` is no JSON escape, so
 * valid JSON text is returned unchanged: this only turns text that could not parse into text that
 * can. Every parse of hook stdout (protocol, dialects, worker responses) goes through it.
 */
export function jsonTextWithByteEscapes(text: string): string {
  if (!text.includes('\\x')) return text;
  return text.replace(BYTE_ESCAPE, (whole, backslashes: string, byte: string) =>
    backslashes.length % 2 === 1 ? `${backslashes}\\${byte}` : whole,
  );
}
