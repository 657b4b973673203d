import { jsonValueDepth, MAX_JSON_DEPTH } from '@soong-agent/protocol';
import type { ModelResponse } from './provider.js';

/** What a secret becomes wherever it is shown or recorded. */
export const REDACTED = '[redacted]';

/** The secrets worth looking for: 4 characters or more (a shorter one would redact ordinary text). */
function usable(secrets: readonly string[]): string[] {
  return secrets.filter((secret) => secret.length >= 4);
}

/** Replaces every secret (4 characters or more) in `text` with `[redacted]`. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of usable(secrets)) result = result.split(secret).join(REDACTED);
  return result;
}

/**
 * The shortest key looked for in what a model server sends back. Real API keys are far longer; a
 * placeholder key for a local server (`none`, `x`) is no secret, and replacing it in the model's
 * text and tool inputs would change what the model wrote.
 */
export const MIN_ECHOED_SECRET_CHARS = 16;

/** The secrets to take out of a model's answer: those of {@link MIN_ECHOED_SECRET_CHARS} or more. */
export function answerSecrets(secrets: readonly string[]): string[] {
  return secrets.filter((secret) => secret.length >= MIN_ECHOED_SECRET_CHARS);
}

/**
 * A model answer with the secrets taken out of everything the server sent (a server that echoes
 * the key must not put it in the records, the transcript or hook stdin): the text, each tool
 * call's id and name, and every string (and object key) of its input. An input nested deeper than
 * `MAX_JSON_DEPTH` is left as it is: the tool batch refuses it and nothing records or shows it.
 */
export function redactResponse(response: ModelResponse, secrets: readonly string[]): ModelResponse {
  const redact = (text: string) => redactSecrets(text, secrets);
  return {
    text: redact(response.text),
    toolCalls: response.toolCalls.map((call) => ({
      ...(call.id === undefined ? {} : { id: redact(call.id) }),
      name: redact(call.name),
      input: redactValue(call.input, secrets),
    })),
  };
}

function redactValue(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === 'string') return redactSecrets(value, secrets);
  if (typeof value !== 'object' || value === null || jsonValueDepth(value) > MAX_JSON_DEPTH)
    return value;
  // A parsed JSON value: its text holds each secret verbatim (keys need no escaping), so the
  // redacted text parses back to the value with every occurrence replaced.
  const text = JSON.stringify(value);
  const redacted = redactSecrets(text, secrets);
  return redacted === text ? value : (JSON.parse(redacted) as unknown);
}

/**
 * Streamed text with the secrets taken out before `emit` sees it, also when a secret arrives split
 * across pieces: the tail that could be the start of a secret is held back until the next piece
 * (or `end`) shows what it is.
 */
export function createStreamRedactor(
  secrets: readonly string[],
  emit: (text: string) => void,
): { push(piece: string): void; end(): void } {
  const candidates = usable(secrets);
  let held = '';
  const heldBack = (text: string): number => {
    let longest = 0;
    for (const secret of candidates) {
      for (let length = Math.min(text.length, secret.length - 1); length > longest; length -= 1) {
        if (secret.startsWith(text.slice(text.length - length))) {
          longest = length;
          break;
        }
      }
    }
    return longest;
  };
  return {
    push(piece) {
      const text = redactSecrets(held + piece, candidates);
      const keep = heldBack(text);
      held = text.slice(text.length - keep);
      const ready = text.slice(0, text.length - keep);
      if (ready !== '') emit(ready);
    },
    end() {
      if (held !== '') emit(held);
      held = '';
    },
  };
}
