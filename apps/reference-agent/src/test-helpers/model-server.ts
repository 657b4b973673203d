import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the fake model server received. */
export interface ServedRequest {
  method: string;
  path: string;
  /** When the request arrived (`performance.now()`). */
  at: number;
  headers: IncomingHttpHeaders;
  // biome-ignore lint/suspicious/noExplicitAny: tests read the vendor's JSON shapes freely
  body: any;
}

/** How the fake server answers one request. */
export type Reply =
  | { status: number; headers?: Record<string, string>; body: string }
  /**
   * A 200 `text/event-stream` answer made of these raw SSE frames; `destroy` cuts the connection
   * after them, `hold` keeps it open without ending the answer (until the client gives up).
   */
  | { frames: string[]; destroy?: boolean; hold?: boolean }
  /** The test writes the answer itself (status, headers, body, pace). */
  | { respond(res: ServerResponse): void };

/** A canned answer of the model: text and tool calls. */
export interface Answer {
  text?: string;
  /** `arguments` is sent as the raw JSON text instead of `input` (e.g. one too deep to serialise). */
  toolCalls?: { id: string; name: string; input?: unknown; arguments?: string }[];
}

/**
 * A model API on 127.0.0.1 that answers each request with the next reply (a function gets the
 * request) and records what it received. Replies run out: 500, so a test sees the extra call.
 * `handlingMs` is the server's own time per request, from the request's first byte to its end.
 */
export async function startModelServer(replies: (Reply | ((request: ServedRequest) => Reply))[]) {
  const requests: ServedRequest[] = [];
  const handlingMs: number[] = [];
  let next = 0;
  const server = createServer((req, res) => {
    const started = process.hrtime.bigint();
    const at = performance.now();
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
      const request: ServedRequest = {
        method: req.method ?? '',
        at,
        path: req.url ?? '',
        headers: req.headers,
        body,
      };
      requests.push(request);
      const entry = replies[next];
      next += 1;
      const reply =
        entry === undefined
          ? { status: 500, body: '{"error":{"message":"the test server has no more replies"}}' }
          : typeof entry === 'function'
            ? entry(request)
            : entry;
      const done = () => handlingMs.push(Number(process.hrtime.bigint() - started) / 1e6);
      if ('respond' in reply) {
        reply.respond(res);
        return;
      }
      if ('frames' in reply) {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        if (reply.destroy === true) {
          // Cut the connection once the frames are flushed: the answer started, then broke.
          res.write(reply.frames.join(''), () => {
            res.socket?.destroy();
            done();
          });
          return;
        }
        for (const frame of reply.frames) res.write(frame);
        if (reply.hold === true) {
          done();
          return;
        }
        res.end(done);
        return;
      }
      res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
      res.end(reply.body, done);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    handlingMs,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const sse = (data: unknown, event?: string) =>
  `${event === undefined ? '' : `event: ${event}\n`}data: ${JSON.stringify(data)}\n\n`;

/** Splits text into pieces of a few characters, as a model streams it (at most ~100 pieces). */
function pieces(text: string, size = 7): string[] {
  const result: string[] = [];
  const step = Math.max(size, Math.ceil(text.length / 100));
  for (let index = 0; index < text.length; index += step)
    result.push(text.slice(index, index + step));
  return result;
}

/** The vendors' wire formats, as their APIs send and receive them (recorded shapes). */
export interface Vendor {
  name: 'openai' | 'anthropic';
  /** The SSE frames of an answer. */
  frames(answer: Answer): string[];
  /** The frames that open a text answer, before its first text delta. */
  textStart(): string[];
  /** One text delta frame. */
  textDelta(text: string): string;
  /** The error body the API sends with a status. */
  errorBody(status: number, message: string): string;
  /** Tool names offered in a request. */
  toolNames(body: ServedRequest['body']): string[];
  /** The tool results a request carries, in order. */
  toolResults(body: ServedRequest['body']): { id: string; content: string; isError: boolean }[];
  /** The tool calls of the assistant messages a request carries. */
  assistantCalls(body: ServedRequest['body']): { id: string; name: string; input: unknown }[];
  /** The system message a request carries. */
  system(body: ServedRequest['body']): string | undefined;
  /** Text of the last user-role text message. */
  lastUserText(body: ServedRequest['body']): string | undefined;
  /** The key as the request carried it. */
  key(headers: IncomingHttpHeaders): string | undefined;
}

const openaiChunk = {
  id: 'chatcmpl-Bx1',
  object: 'chat.completion.chunk',
  created: 1764700000,
  model: 'gpt-test',
};

export const openaiVendor: Vendor = {
  name: 'openai',
  textStart: () => [
    sse({
      ...openaiChunk,
      choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }],
    }),
  ],
  textDelta: (text) =>
    sse({ ...openaiChunk, choices: [{ index: 0, delta: { content: text }, finish_reason: null }] }),
  frames({ text = '', toolCalls = [] }) {
    const base = openaiChunk;
    const frames = openaiVendor.textStart();
    for (const piece of pieces(text)) frames.push(openaiVendor.textDelta(piece));
    toolCalls.forEach((call, index) => {
      const args = call.arguments ?? JSON.stringify(call.input);
      frames.push(
        sse({
          ...base,
          choices: [
            {
              index: 0,
              delta: {
                tool_calls: [
                  {
                    index,
                    id: call.id,
                    type: 'function',
                    function: { name: call.name, arguments: '' },
                  },
                ],
              },
              finish_reason: null,
            },
          ],
        }),
      );
      for (const piece of pieces(args, 5)) {
        frames.push(
          sse({
            ...base,
            choices: [
              {
                index: 0,
                delta: { tool_calls: [{ index, function: { arguments: piece } }] },
                finish_reason: null,
              },
            ],
          }),
        );
      }
    });
    frames.push(
      sse({
        ...base,
        choices: [
          { index: 0, delta: {}, finish_reason: toolCalls.length > 0 ? 'tool_calls' : 'stop' },
        ],
      }),
    );
    frames.push('data: [DONE]\n\n');
    return frames;
  },
  errorBody: (status, message) =>
    JSON.stringify({
      error: { message, type: status === 401 ? 'invalid_request_error' : 'requests', code: null },
    }),
  toolNames: (body) => body.tools.map((tool: { function: { name: string } }) => tool.function.name),
  toolResults: (body) =>
    body.messages
      .filter((message: { role: string }) => message.role === 'tool')
      .map((message: { tool_call_id: string; content: string }) => ({
        id: message.tool_call_id,
        content: message.content.replace(/^Error: /, ''),
        isError: message.content.startsWith('Error: '),
      })),
  assistantCalls: (body) =>
    body.messages
      .filter((message: { role: string }) => message.role === 'assistant')
      .flatMap(
        (message: {
          tool_calls?: { id: string; function: { name: string; arguments: string } }[];
        }) =>
          (message.tool_calls ?? []).map((call) => ({
            id: call.id,
            name: call.function.name,
            input: JSON.parse(call.function.arguments),
          })),
      ),
  lastUserText: (body) =>
    body.messages.filter((message: { role: string }) => message.role === 'user').at(-1)?.content,
  system: (body) =>
    body.messages.find((message: { role: string }) => message.role === 'system')?.content,
  key: (headers) => headers.authorization?.replace(/^Bearer /, ''),
};

export const anthropicVendor: Vendor = {
  name: 'anthropic',
  textStart: () => anthropicVendor.frames({ text: 'x' }).slice(0, 2),
  textDelta: (text) =>
    sse(
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } },
      'content_block_delta',
    ),
  frames({ text = '', toolCalls = [] }) {
    const frames = [
      sse(
        {
          type: 'message_start',
          message: {
            id: 'msg_01',
            type: 'message',
            role: 'assistant',
            model: 'claude-test',
            content: [],
            stop_reason: null,
            usage: { input_tokens: 10, output_tokens: 1 },
          },
        },
        'message_start',
      ),
    ];
    let index = 0;
    if (text !== '') {
      frames.push(
        sse(
          { type: 'content_block_start', index, content_block: { type: 'text', text: '' } },
          'content_block_start',
        ),
      );
      frames.push(sse({ type: 'ping' }, 'ping'));
      for (const piece of pieces(text)) {
        frames.push(
          sse(
            { type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } },
            'content_block_delta',
          ),
        );
      }
      frames.push(sse({ type: 'content_block_stop', index }, 'content_block_stop'));
      index += 1;
    }
    for (const call of toolCalls) {
      frames.push(
        sse(
          {
            type: 'content_block_start',
            index,
            content_block: { type: 'tool_use', id: call.id, name: call.name, input: {} },
          },
          'content_block_start',
        ),
      );
      for (const piece of pieces(call.arguments ?? JSON.stringify(call.input), 5)) {
        frames.push(
          sse(
            {
              type: 'content_block_delta',
              index,
              delta: { type: 'input_json_delta', partial_json: piece },
            },
            'content_block_delta',
          ),
        );
      }
      frames.push(sse({ type: 'content_block_stop', index }, 'content_block_stop'));
      index += 1;
    }
    frames.push(
      sse(
        {
          type: 'message_delta',
          delta: {
            stop_reason: toolCalls.length > 0 ? 'tool_use' : 'end_turn',
            stop_sequence: null,
          },
          usage: { output_tokens: 20 },
        },
        'message_delta',
      ),
    );
    frames.push(sse({ type: 'message_stop' }, 'message_stop'));
    return frames;
  },
  errorBody: (status, message) =>
    JSON.stringify({
      type: 'error',
      error: {
        type:
          status === 401
            ? 'authentication_error'
            : status === 429
              ? 'rate_limit_error'
              : 'api_error',
        message,
      },
    }),
  toolNames: (body) => body.tools.map((tool: { name: string }) => tool.name),
  toolResults: (body) =>
    body.messages.flatMap(
      (message: {
        role: string;
        content: { type: string; tool_use_id: string; content: string; is_error?: boolean }[];
      }) =>
        message.role !== 'user'
          ? []
          : message.content
              .filter((block) => block.type === 'tool_result')
              .map((block) => ({
                id: block.tool_use_id,
                content: block.content,
                isError: block.is_error === true,
              })),
    ),
  assistantCalls: (body) =>
    body.messages.flatMap(
      (message: {
        role: string;
        content: { type: string; id: string; name: string; input: unknown }[];
      }) =>
        message.role !== 'assistant'
          ? []
          : message.content
              .filter((block) => block.type === 'tool_use')
              .map((block) => ({ id: block.id, name: block.name, input: block.input })),
    ),
  lastUserText: (body) => {
    const texts = body.messages.flatMap(
      (message: { role: string; content: { type: string; text?: string }[] }) =>
        message.role !== 'user'
          ? []
          : message.content.filter((block) => block.type === 'text').map((block) => block.text),
    );
    return texts.at(-1);
  },
  system: (body) => body.system,
  key: (headers) => headers['x-api-key'] as string | undefined,
};

/** Both vendors, for tests that run once per provider. */
export const modelVendors: readonly Vendor[] = [openaiVendor, anthropicVendor];
