// A fake model API on 127.0.0.1 speaking the four wire formats the agents use, scripted by one rule
// (see `answerFor`) and recording every request, so a case can check what the model was told.
import { createServer } from 'node:http';

/** @typedef {{ name: string, input: Record<string, unknown> }} ScriptedCall */
/**
 * The script of one case: the tool call the model asks for (in the agent's own tool names), once a
 * turn until the conversation holds `calls` tool results (default 1), then plain text. A request
 * that offers no tools (a title or routing side request) gets text.
 * `call` gets the offered tools and how many results came back so far.
 * @typedef {{ call?: (tools: string[], results: number) => ScriptedCall | undefined, calls?: number,
 *   finalText?: string }} Script
 */

/** The final answer the model gives once the tool call has been answered. */
export const FINAL_TEXT = 'All done.';

const sse = (data, event) =>
  `${event === undefined ? '' : `event: ${event}\n`}data: ${JSON.stringify(data)}\n\n`;

/**
 * What a request says, whatever its wire: the tool names offered and how many tool results the
 * conversation already holds (once they reach the script's `calls`, the model ends the turn).
 */
function readRequest(wire, body) {
  switch (wire) {
    case 'anthropic':
      return {
        tools: (body.tools ?? []).map((tool) => tool.name),
        results: countWhere(body.messages, (message) =>
          Array.isArray(message.content)
            ? message.content.filter((block) => block.type === 'tool_result').length
            : 0,
        ),
      };
    case 'responses':
      return {
        tools: (body.tools ?? []).map((tool) => tool.name ?? tool.type),
        results: countWhere(body.input, (item) => (/_output$/.test(String(item.type)) ? 1 : 0)),
      };
    case 'gemini':
      return {
        tools: (body.tools ?? []).flatMap((tool) =>
          (tool.functionDeclarations ?? []).map((declaration) => declaration.name),
        ),
        results: countWhere(
          body.contents,
          (content) =>
            (content.parts ?? []).filter((part) => part.functionResponse !== undefined).length,
        ),
      };
    case 'chat':
      return {
        tools: (body.tools ?? []).map((tool) => tool.function?.name),
        results: countWhere(body.messages, (message) => (message.role === 'tool' ? 1 : 0)),
      };
    default:
      throw new Error(`unknown wire ${wire}`);
  }
}

/** The sum of `count(item)` over a list that may be missing. */
function countWhere(items, count) {
  return Array.isArray(items) ? items.reduce((sum, item) => sum + count(item), 0) : 0;
}

/** The model's answer to one request: a tool call (until `script.calls` were answered) or text. */
function answerFor(script, { tools, results }) {
  if (results < (script.calls ?? 1) && tools.length > 0 && script.call !== undefined) {
    const call = script.call(tools, results);
    if (call !== undefined) return { call };
  }
  return { text: script.finalText ?? FINAL_TEXT };
}

let counter = 0;
const nextId = (prefix) => `${prefix}${Date.now().toString(36)}${(counter++).toString(36)}`;

/** Anthropic messages API, streamed. */
function anthropicFrames(answer, model) {
  const frames = [
    sse(
      {
        type: 'message_start',
        message: {
          id: nextId('msg_'),
          type: 'message',
          role: 'assistant',
          model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 10, output_tokens: 1 },
        },
      },
      'message_start',
    ),
  ];
  if (answer.call === undefined) {
    frames.push(
      sse(
        { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
        'content_block_start',
      ),
      sse(
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: answer.text } },
        'content_block_delta',
      ),
      sse({ type: 'content_block_stop', index: 0 }, 'content_block_stop'),
    );
  } else {
    frames.push(
      sse(
        {
          type: 'content_block_start',
          index: 0,
          content_block: {
            type: 'tool_use',
            id: nextId('toolu_'),
            name: answer.call.name,
            input: {},
          },
        },
        'content_block_start',
      ),
      sse(
        {
          type: 'content_block_delta',
          index: 0,
          delta: { type: 'input_json_delta', partial_json: JSON.stringify(answer.call.input) },
        },
        'content_block_delta',
      ),
      sse({ type: 'content_block_stop', index: 0 }, 'content_block_stop'),
    );
  }
  frames.push(
    sse(
      {
        type: 'message_delta',
        delta: {
          stop_reason: answer.call === undefined ? 'end_turn' : 'tool_use',
          stop_sequence: null,
        },
        usage: { output_tokens: 5 },
      },
      'message_delta',
    ),
    sse({ type: 'message_stop' }, 'message_stop'),
  );
  return frames;
}

/** OpenAI Responses API, streamed (what Codex speaks). */
function responsesFrames(answer, model) {
  const responseId = nextId('resp_');
  const base = { id: responseId, object: 'response', created_at: 1764700000, model };
  let sequence = 0;
  const event = (type, data) => sse({ type, sequence_number: sequence++, ...data }, type);
  const item =
    answer.call === undefined
      ? {
          type: 'message',
          id: nextId('msg_'),
          status: 'completed',
          role: 'assistant',
          content: [{ type: 'output_text', text: answer.text, annotations: [] }],
        }
      : {
          type: 'function_call',
          id: nextId('fc_'),
          status: 'completed',
          call_id: nextId('call_'),
          name: answer.call.name,
          arguments: JSON.stringify(answer.call.input),
        };
  return [
    event('response.created', { response: { ...base, status: 'in_progress', output: [] } }),
    event('response.output_item.added', {
      output_index: 0,
      item: { ...item, status: 'in_progress' },
    }),
    ...(answer.call === undefined
      ? [
          event('response.output_text.delta', {
            item_id: item.id,
            output_index: 0,
            content_index: 0,
            delta: answer.text,
          }),
        ]
      : []),
    event('response.output_item.done', { output_index: 0, item }),
    event('response.completed', {
      response: {
        ...base,
        status: 'completed',
        output: [item],
        usage: {
          input_tokens: 10,
          input_tokens_details: { cached_tokens: 0 },
          output_tokens: 5,
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: 15,
        },
      },
    }),
  ];
}

/** Gemini generateContent / streamGenerateContent (`alt=sse`). */
function geminiChunk(answer, model) {
  const part =
    answer.call === undefined
      ? { text: answer.text }
      : { functionCall: { name: answer.call.name, args: answer.call.input } };
  return {
    candidates: [{ content: { role: 'model', parts: [part] }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
    modelVersion: model,
  };
}

/** OpenAI chat completions, streamed (what Copilot's BYOK provider and ours speak). */
function chatFrames(answer, model) {
  const base = {
    id: nextId('chatcmpl-'),
    object: 'chat.completion.chunk',
    created: 1764700000,
    model,
  };
  const chunk = (delta, finish = null) =>
    sse({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] });
  const frames = [chunk({ role: 'assistant', content: '' })];
  if (answer.call === undefined) {
    frames.push(chunk({ content: answer.text }), chunk({}, 'stop'));
  } else {
    frames.push(
      chunk({
        tool_calls: [
          {
            index: 0,
            id: nextId('call_'),
            type: 'function',
            function: { name: answer.call.name, arguments: JSON.stringify(answer.call.input) },
          },
        ],
      }),
      chunk({}, 'tool_calls'),
    );
  }
  frames.push(
    sse({
      ...base,
      choices: [],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    }),
    'data: [DONE]\n\n',
  );
  return frames;
}

/** Which wire a request speaks, from its path. */
function wireOf(path) {
  if (/\/messages(\?|$)/.test(path)) return 'anthropic';
  if (/\/responses(\?|$)/.test(path)) return 'responses';
  if (/:(stream)?[gG]enerateContent/.test(path)) return 'gemini';
  if (/\/chat\/completions(\?|$)/.test(path)) return 'chat';
  return undefined;
}

/** Answers the side endpoints the CLIs probe (model lists, token counts) with plausible JSON. */
function sideReply(path) {
  if (/\/models(\?|$)/.test(path))
    return {
      object: 'list',
      data: [
        { id: 'conformance-model', object: 'model', created: 1764700000, owned_by: 'conformance' },
      ],
      models: [],
    };
  if (/count_tokens/.test(path)) return { input_tokens: 10 };
  if (/:countTokens/.test(path)) return { totalTokens: 10 };
  return {};
}

/**
 * One request the server got: `atMs` since the server started (0.1 ms steps), `answer` what a
 * model request was answered with (side probes have none).
 * @typedef {{ method: string, path: string, wire: string | undefined, atMs: number, body: any,
 *   answer?: 'call' | 'text' }} RecordedRequest
 */

/**
 * Starts the fake model for one case.
 * @param {Script} script
 */
export async function startModelServer(script) {
  /** @type {RecordedRequest[]} */
  const requests = [];
  const startedAt = performance.now();
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body;
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
      const path = req.url ?? '';
      const wire = req.method === 'POST' ? wireOf(path) : undefined;
      /** @type {RecordedRequest} */
      const request = {
        method: req.method ?? '',
        path,
        wire,
        atMs: Math.round((performance.now() - startedAt) * 10) / 10,
        body,
      };
      requests.push(request);
      if (wire === undefined || /count_tokens/.test(path)) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(sideReply(path)));
        return;
      }
      const answer = answerFor(script, readRequest(wire, body));
      request.answer = answer.call === undefined ? 'text' : 'call';
      const model = typeof body?.model === 'string' ? body.model : 'conformance-model';
      const streamed =
        wire === 'gemini' ? /streamGenerateContent/.test(path) : body?.stream !== false;
      if (!streamed) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(wire === 'gemini' ? geminiChunk(answer, model) : {}));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const frames =
        wire === 'anthropic'
          ? anthropicFrames(answer, model)
          : wire === 'responses'
            ? responsesFrames(answer, model)
            : wire === 'gemini'
              ? [sse(geminiChunk(answer, model))]
              : chatFrames(answer, model);
      res.end(frames.join(''));
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    /** The model requests (not side probes) in order. */
    modelRequests: () => requests.filter((request) => request.wire !== undefined),
    /** Whether any model request carried this text (a deny reason, a context line). */
    told: (text) =>
      requests.some(
        (request) => request.wire !== undefined && JSON.stringify(request.body).includes(text),
      ),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve(undefined));
      }),
  };
}
