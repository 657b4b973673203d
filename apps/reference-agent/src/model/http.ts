import {
  DEFAULT_MODEL_MAX_RESPONSE_BYTES,
  DEFAULT_MODEL_REQUEST_TIMEOUT_SECONDS,
  DEFAULT_MODEL_STREAM_IDLE_TIMEOUT_SECONDS,
} from '@soong-agent/config';
import { jsonValueDepth, MAX_JSON_DEPTH } from '@soong-agent/protocol';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { CliError } from '../errors.js';
import type { ModelRequest, ModelResponse } from './provider.js';
import { answerSecrets, createStreamRedactor, redactResponse, redactSecrets } from './redact.js';

/** Retries of a 429 or 5xx answer (and of a reset connection) before the call fails. */
export const MODEL_MAX_RETRIES = 4;
/** The longest wait between retries; a `retry-after` asking for more fails the call at once. */
export const MODEL_MAX_RETRY_DELAY_MS = 60_000;
/** Characters of the API's own error message kept in our one-line error. */
const API_MESSAGE_MAX_CHARS = 300;
/** Bytes of an error body read to find the API's message. */
const ERROR_BODY_MAX_BYTES = 64 * 1024;
/** The longest single SSE event accepted (a tool call's arguments arrive in many small events). */
const SSE_MAX_EVENT_BYTES = 16 * 1024 * 1024;
/** Connection failures worth another attempt (the server was reached and dropped us). */
const RETRYABLE_NETWORK_CODES = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);

/** A streamed answer that does not follow the provider's protocol. */
export class MalformedStreamError extends Error {
  override name = 'MalformedStreamError';
}

/** One streaming POST to a model API: where, how to authenticate, what to keep out of errors. */
export interface ModelHttpRequest {
  /** `openai` or `anthropic`, for messages. */
  vendor: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
  /** The env variable the key came from, named in a refused-key error. */
  keyEnv: string;
  /** Strings never to show in an error (the key). */
  secrets: readonly string[];
  signal?: AbortSignal;
  /** @default MODEL_MAX_RETRIES */
  maxRetries?: number;
  /** First backoff delay, doubled each retry (with jitter). @default 500 */
  baseDelayMs?: number;
  /** @default DEFAULT_MODEL_CALL_LIMITS */
  limits?: ModelCallLimits;
}

/** The bounds of one model call: `[model]` of config.toml. */
export interface ModelCallLimits {
  /** `stream_idle_timeout`: seconds without a stream event (keep-alives do not count). */
  streamIdleTimeout: number;
  /** `request_timeout`: seconds for the whole call, retries included. */
  requestTimeout: number;
  /** `max_response_bytes`: bytes of one answer. */
  maxResponseBytes: number;
}

/** The bounds config.toml gives when `[model]` sets none. */
export const DEFAULT_MODEL_CALL_LIMITS: Readonly<ModelCallLimits> = Object.freeze({
  streamIdleTimeout: DEFAULT_MODEL_STREAM_IDLE_TIMEOUT_SECONDS,
  requestTimeout: DEFAULT_MODEL_REQUEST_TIMEOUT_SECONDS,
  maxResponseBytes: DEFAULT_MODEL_MAX_RESPONSE_BYTES,
});

function oneLine(text: string, max = API_MESSAGE_MAX_CHARS): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/** The API's own words from an error body (`{error: {message}}` in both vendors' formats). */
function apiMessage(body: string): string {
  try {
    const parsed = JSON.parse(body) as {
      error?: { message?: unknown } | string;
      message?: unknown;
    };
    const error = parsed.error;
    if (typeof error === 'string') return error;
    if (typeof error?.message === 'string') return error.message;
    if (typeof parsed.message === 'string') return parsed.message;
  } catch {
    // not JSON: the body itself
  }
  return body;
}

/** Milliseconds to wait as a `retry-after-ms` / `retry-after` header asks (seconds or an HTTP date). */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const ms = Number(headers.get('retry-after-ms') ?? Number.NaN);
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

async function readBounded(response: Response): Promise<string> {
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < ERROR_BODY_MAX_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } catch {
    // what arrived is enough
  } finally {
    reader.cancel().catch(() => {});
  }
  return Buffer.concat(chunks).toString('utf8').slice(0, ERROR_BODY_MAX_BYTES);
}

function networkCode(error: unknown): string | undefined {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause;
  if (typeof cause?.code === 'string') return cause.code;
  return undefined;
}

/** What a refused request means, by status. */
function refusalMessage(request: ModelHttpRequest, status: number, message: string): string {
  const origin = new URL(request.url).origin;
  const said = message === '' ? '' : `: ${message}`;
  if (status === 401 || status === 403)
    return `the ${request.vendor} API at ${origin} refused the key from ${request.keyEnv} (${status})${said}`;
  if (status === 404)
    return `the ${request.vendor} API at ${origin} does not know the model or endpoint (404)${said}`;
  if (status === 429)
    return `the ${request.vendor} API at ${origin} is rate limiting (429) and retries ran out${said}`;
  if (status >= 500)
    return `the ${request.vendor} API at ${origin} failed (${status}) and retries ran out${said}`;
  return `the ${request.vendor} API at ${origin} refused the request (${status})${said}`;
}

function fail(request: ModelHttpRequest, message: string): CliError {
  return new CliError({ code: 'RUNTIME', message: redactSecrets(message, request.secrets) });
}

/** Redirect statuses; none is followed to another origin (the key would go with it). */
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Same-origin 307/308 redirects followed in one call before it fails. */
export const MODEL_MAX_REDIRECTS = 5;

function seconds(value: number): string {
  return `${value} s`;
}

/** What a failed connection attempt really was, in words (`bad port` is fetch's own refusal). */
function connectionProblem(error: unknown, url: URL): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause;
  const code = typeof cause?.code === 'string' ? cause.code : undefined;
  const port = url.port === '' ? (url.protocol === 'https:' ? '443' : '80') : url.port;
  const where = `${url.hostname}:${port}`;
  if (code === 'ECONNREFUSED')
    return `connection refused by ${where} (ECONNREFUSED): is the server running?`;
  if (code === 'ENOTFOUND') return `no such host ${url.hostname} (ENOTFOUND)`;
  if (code === 'ETIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT')
    return `connecting to ${where} timed out (${code})`;
  if (code !== undefined)
    return `${code}${typeof cause?.message === 'string' ? ` (${oneLine(cause.message, 120)})` : ''}`;
  if (cause?.message === 'bad port')
    return `port ${port} is one fetch refuses to connect to (a blocked port of the Fetch standard); serve the API on another port`;
  if (typeof cause?.message === 'string') return oneLine(cause.message);
  return oneLine(String((error as Error | undefined)?.message ?? error));
}

/**
 * Why a redirect is not followed, or where the one that is goes: a same-origin 307/308 (method
 * and body kept), at most {@link MODEL_MAX_REDIRECTS} times. Another origin would receive the key and the
 * conversation; a 301/302/303 would turn the POST into a GET.
 */
function redirectRefusal(
  request: ModelHttpRequest,
  response: Response,
  from: URL,
  redirects: number,
): { refusal: string } | { next: URL } {
  const origin = new URL(request.url).origin;
  const api = `the ${request.vendor} API at ${origin}`;
  const location = response.headers.get('location');
  let target: URL | undefined;
  try {
    target = location === null ? undefined : new URL(location, from);
  } catch {
    target = undefined;
  }
  if (target === undefined)
    return {
      refusal: `${api} answered with a redirect (${response.status}) without a usable location`,
    };
  if (target.origin !== origin)
    return {
      refusal: `${api} redirects (${response.status}) to another origin, ${target.origin}; not followed, so the key and the conversation never reach it: set base_url to that address if you trust it`,
    };
  if (response.status !== 307 && response.status !== 308)
    return {
      refusal: `${api} redirects (${response.status}) to ${target.pathname}, which would turn the POST into a GET; not followed: set base_url to the address it points to`,
    };
  if (redirects >= MODEL_MAX_REDIRECTS)
    return {
      refusal: `${api} redirected more than ${MODEL_MAX_REDIRECTS} times; not followed further`,
    };
  return { next: target };
}

/**
 * POSTs `body` as JSON and feeds each server-sent event of the answer to `onEvent`, resolving when
 * the stream ends. Retries 429 and 5xx (honouring `retry-after-ms` / `retry-after`, else
 * exponential backoff with jitter) and a connection reset before the answer, at most `maxRetries`
 * times; a stream already flowing is never retried (its text is on the terminal). A redirect is
 * followed only within the origin and only as 307/308 ({@link MODEL_MAX_REDIRECTS} at most). The
 * call is bounded ({@link ModelCallLimits}): no event for `streamIdleTimeout` (comments and `ping`
 * events are keep-alives and do not count), more than `requestTimeout` in all, or more than
 * `maxResponseBytes` of answer each fail it. Every failure is a one-line `CliError` `RUNTIME`
 * (exit 1) with the secrets redacted; an abort rejects with the signal's reason. `onEvent` (and
 * `onEnd`) throw {@link MalformedStreamError} for a stream that does not follow the protocol; that
 * becomes a one-line "malformed stream" error.
 */
export async function streamServerSentEvents(
  request: ModelHttpRequest,
  onEvent: (event: EventSourceMessage) => void,
  /** Called once the stream ended without a failure; may throw {@link MalformedStreamError}. */
  onEnd?: () => void,
): Promise<void> {
  const outer = request.signal;
  if (outer?.aborted) throw outer.reason;
  const limits = request.limits ?? DEFAULT_MODEL_CALL_LIMITS;
  const maxRetries = request.maxRetries ?? MODEL_MAX_RETRIES;
  const baseDelayMs = request.baseDelayMs ?? 500;
  const origin = new URL(request.url).origin;
  const api = `the ${request.vendor} API at ${origin}`;
  const body = JSON.stringify(request.body);
  // One signal for the whole call: the caller's abort, the idle bound and the total bound.
  const call = new AbortController();
  const signal = call.signal;
  const onOuterAbort = () => call.abort(outer?.reason);
  outer?.addEventListener('abort', onOuterAbort, { once: true });
  const expire = (message: string) => {
    if (!signal.aborted) call.abort(fail(request, message));
  };
  const total = setTimeout(
    () =>
      expire(
        `${api} did not finish its answer within ${seconds(limits.requestTimeout)} (request_timeout in [model] of config.toml)`,
      ),
    limits.requestTimeout * 1000,
  );
  let idle: ReturnType<typeof setTimeout> | undefined;
  const touch = () => {
    clearTimeout(idle);
    idle = setTimeout(
      () =>
        expire(
          `${api} sent no data for ${seconds(limits.streamIdleTimeout)} (keep-alives do not count; stream_idle_timeout in [model] of config.toml)`,
        ),
      limits.streamIdleTimeout * 1000,
    );
  };
  try {
    let url = new URL(request.url);
    let redirects = 0;
    let response: Response | undefined;
    for (let attempt = 0; ; attempt += 1) {
      let retryDelay: number | undefined;
      touch();
      try {
        response = await fetch(url, {
          method: 'POST',
          headers: {
            ...request.headers,
            'content-type': 'application/json',
            accept: 'text/event-stream',
          },
          body,
          redirect: 'manual',
          signal,
        });
      } catch (error) {
        if (signal.aborted) throw signal.reason;
        const code = networkCode(error);
        if (code === undefined || !RETRYABLE_NETWORK_CODES.has(code) || attempt >= maxRetries) {
          throw fail(request, `cannot reach ${api}: ${connectionProblem(error, url)}`);
        }
      }
      if (response !== undefined) {
        if (REDIRECT_STATUSES.has(response.status)) {
          await response.body?.cancel().catch(() => {});
          const redirect = redirectRefusal(request, response, url, redirects);
          if ('refusal' in redirect) throw fail(request, redirect.refusal);
          url = redirect.next;
          redirects += 1;
          response = undefined;
          attempt -= 1; // a redirect is not a retry
          continue;
        }
        if (response.ok) break;
        const retryable = response.status === 429 || response.status >= 500;
        const wait = retryAfterMs(response.headers);
        if (!retryable || attempt >= maxRetries || (wait ?? 0) > MODEL_MAX_RETRY_DELAY_MS) {
          const text = oneLine(apiMessage(await readBounded(response)));
          const asked =
            wait !== undefined && wait > MODEL_MAX_RETRY_DELAY_MS
              ? ` (it asks to retry after ${Math.ceil(wait / 1000)} s)`
              : '';
          throw fail(request, `${refusalMessage(request, response.status, text)}${asked}`);
        }
        await response.body?.cancel().catch(() => {});
        retryDelay = wait;
        response = undefined;
      }
      // The wait between attempts is ours, not the server's: only the total bound runs.
      clearTimeout(idle);
      const backoff = Math.min(baseDelayMs * 2 ** attempt, 8000);
      await sleep(retryDelay ?? backoff / 2 + Math.random() * (backoff / 2), signal);
    }

    const type = response.headers.get('content-type') ?? '';
    if (!type.includes('text/event-stream')) {
      const text = oneLine(await readBounded(response), 120);
      throw fail(
        request,
        `${api} answered ${type === '' ? 'without a content type' : type}, not a stream${text === '' ? '' : `: ${text}`}`,
      );
    }
    if (response.body === null) throw fail(request, `${api} sent no body`);
    await readEvents(request, response.body, { signal, touch, limits, api }, onEvent, onEnd);
  } finally {
    clearTimeout(total);
    clearTimeout(idle);
    outer?.removeEventListener('abort', onOuterAbort);
  }
}

/** Reads the answer's events (see {@link streamServerSentEvents}): bounded in size, `touch` per event. */
async function readEvents(
  request: ModelHttpRequest,
  stream: ReadableStream<Uint8Array>,
  call: { signal: AbortSignal; touch: () => void; limits: ModelCallLimits; api: string },
  onEvent: (event: EventSourceMessage) => void,
  onEnd: (() => void) | undefined,
): Promise<void> {
  const { signal, api } = call;
  let failure: unknown;
  const parser = createParser({
    maxBufferSize: SSE_MAX_EVENT_BYTES,
    onEvent: (event) => {
      if (failure !== undefined) return;
      // Anthropic's `ping` events are keep-alives, as SSE comments are (the parser drops those).
      if (event.event !== 'ping') call.touch();
      try {
        onEvent(event);
      } catch (error) {
        failure = error;
      }
    },
    onError: (error) => {
      failure ??= new MalformedStreamError(error.message);
    },
  });
  call.touch();
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let bytes = 0;
  try {
    for (;;) {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch (error) {
        if (signal.aborted) throw signal.reason;
        throw fail(
          request,
          `the connection to ${api} broke mid-answer: ${networkCode(error) ?? oneLine(String((error as Error).message))}`,
        );
      }
      if (chunk.done) {
        parser.feed(decoder.decode());
        break;
      }
      bytes += chunk.value.byteLength;
      if (bytes > call.limits.maxResponseBytes) {
        throw fail(
          request,
          `${api} sent more than ${call.limits.maxResponseBytes} bytes in one answer (max_response_bytes in [model] of config.toml)`,
        );
      }
      parser.feed(decoder.decode(chunk.value, { stream: true }));
      if (failure !== undefined) break;
    }
    if (failure === undefined) parser.reset({ consume: true });
    if (failure === undefined) {
      try {
        onEnd?.();
      } catch (error) {
        failure = error;
      }
    }
  } finally {
    reader.cancel().catch(() => {});
  }
  if (failure !== undefined) {
    if (failure instanceof MalformedStreamError)
      throw fail(request, `malformed stream from ${api}: ${oneLine(failure.message)}`);
    throw failure;
  }
}

/** Parses one event's JSON data; anything else is a {@link MalformedStreamError}. */
export function parseEventJson(data: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    throw new MalformedStreamError(`an event's data is not JSON: ${oneLine(data, 80)}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new MalformedStreamError(`an event's data is not a JSON object: ${oneLine(data, 80)}`);
  return value as Record<string, unknown>;
}

/** `value` when it is a string, else undefined. */
export function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** A tool's JSON Schema as sent to an API: our `$schema` key dropped (some servers reject it). */
export function schemaForApi(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = schema;
  return { type: 'object', ...rest };
}

/** Parses a tool call's arguments; text that is not a JSON object reaches the tool as it is (its validation reports it). */
export function parseToolArguments(text: string): unknown {
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** What a call's input becomes in the conversation we send when it nests too deep to serialise. */
export const TOO_DEEP_INPUT_NOTE = {
  not_sent: `the arguments nested more than ${MAX_JSON_DEPTH} levels deep; the call was refused`,
} as const;

/**
 * A tool call's input as the conversation we send carries it: the input itself, or
 * {@link TOO_DEEP_INPUT_NOTE} for one nested deeper than `MAX_JSON_DEPTH` (the batch refused that
 * call; serialising it would overflow the stack and end the run).
 */
export function toolInputForApi(input: unknown): unknown {
  return jsonValueDepth(input) > MAX_JSON_DEPTH ? TOO_DEEP_INPUT_NOTE : input;
}

/** How a provider reaches its API: the key, where it came from, the retry policy. */
export interface ApiConnection {
  apiKey: string;
  /** The env variable the key came from (named in a refused-key error). */
  keyEnv: string;
  /** Retries of 429 / 5xx. @default MODEL_MAX_RETRIES */
  maxRetries?: number;
  /** First backoff delay in ms. @default 500 */
  retryBaseDelayMs?: number;
  /** @default DEFAULT_MODEL_CALL_LIMITS */
  limits?: ModelCallLimits;
}

/** What a provider makes of the events of one answer. */
export interface StreamedAnswer {
  onEvent(data: string): void;
  result(): ModelResponse;
}

/**
 * One streamed model turn: posts `body` ({@link streamServerSentEvents}), feeds each event's data
 * to the answer `makeAnswer` builds and returns its `result()` once the stream ended (both may
 * throw {@link MalformedStreamError}). The key ({@link answerSecrets}: not a short placeholder) is
 * taken out of everything the server sent before anyone sees it: the streamed text
 * (`request.onText`) and the answer ({@link redactResponse}).
 */
export async function completeStreaming(
  target: { vendor: string; url: string; headers: Record<string, string>; body: unknown },
  connection: ApiConnection,
  request: ModelRequest,
  makeAnswer: (onText: ((text: string) => void) | undefined) => StreamedAnswer,
): Promise<ModelResponse> {
  const secrets = [connection.apiKey];
  const echoed = answerSecrets(secrets);
  const text =
    request.onText === undefined ? undefined : createStreamRedactor(echoed, request.onText);
  const answer = makeAnswer(text === undefined ? undefined : (piece) => text.push(piece));
  let response: ModelResponse | undefined;
  await streamServerSentEvents(
    {
      ...target,
      keyEnv: connection.keyEnv,
      secrets,
      ...(request.signal === undefined ? {} : { signal: request.signal }),
      ...(connection.maxRetries === undefined ? {} : { maxRetries: connection.maxRetries }),
      ...(connection.retryBaseDelayMs === undefined
        ? {}
        : { baseDelayMs: connection.retryBaseDelayMs }),
      ...(connection.limits === undefined ? {} : { limits: connection.limits }),
    },
    (event) => answer.onEvent(event.data),
    () => {
      response = answer.result();
    },
  );
  if (response === undefined) throw new Error('the stream ended without an answer');
  text?.end();
  return redactResponse(response, echoed);
}
