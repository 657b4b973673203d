// Provider overhead per model turn: each provider (dist/unbundled/model/*.js, tsc's output before the bundle) against a local HTTP server on
// 127.0.0.1 that streams a canned answer (text in small pieces plus one tool call). Overhead = the
// client's time for `complete()` minus the server's own time for the request (first byte in to
// last byte out): request mapping, JSON, HTTP on loopback, SSE parsing, joining the answer.
// Target: under 2 ms per turn. No assertions on wall time.
import { createServer } from 'node:http';

const { createOpenAIProvider } = await import(
  new URL('../dist/unbundled/model/openai.js', import.meta.url)
);
const { createAnthropicProvider } = await import(
  new URL('../dist/unbundled/model/anthropic.js', import.meta.url)
);

const TURNS = Number(process.env.BENCH_TURNS ?? 300);
const WARMUP = 30;
const TEXT = 'I will read the file, then fix the off-by-one in the loop and run the tests. '.repeat(
  3,
);
const ARGS = JSON.stringify({ path: 'src/range.js', offset: 0, limit: 200 });
const sse = (data, event) => `${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`;
const pieces = (text, size) => text.match(new RegExp(`[\\s\\S]{1,${size}}`, 'g')) ?? [];

function openaiFrames() {
  const base = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'm' };
  const chunk = (delta, finish = null) =>
    sse({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] });
  return [
    chunk({ role: 'assistant', content: '' }),
    ...pieces(TEXT, 6).map((content) => chunk({ content })),
    chunk({
      tool_calls: [
        {
          index: 0,
          id: 'call_a',
          type: 'function',
          function: { name: 'read_file', arguments: '' },
        },
      ],
    }),
    ...pieces(ARGS, 8).map((part) =>
      chunk({ tool_calls: [{ index: 0, function: { arguments: part } }] }),
    ),
    chunk({}, 'tool_calls'),
    'data: [DONE]\n\n',
  ].join('');
}

function anthropicFrames() {
  return [
    sse(
      {
        type: 'message_start',
        message: { id: 'msg_1', type: 'message', role: 'assistant', content: [] },
      },
      'message_start',
    ),
    sse(
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      'content_block_start',
    ),
    ...pieces(TEXT, 6).map((text) =>
      sse(
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } },
        'content_block_delta',
      ),
    ),
    sse({ type: 'content_block_stop', index: 0 }, 'content_block_stop'),
    sse(
      {
        type: 'content_block_start',
        index: 1,
        content_block: { type: 'tool_use', id: 'toolu_a', name: 'read_file', input: {} },
      },
      'content_block_start',
    ),
    ...pieces(ARGS, 8).map((partial_json) =>
      sse(
        {
          type: 'content_block_delta',
          index: 1,
          delta: { type: 'input_json_delta', partial_json },
        },
        'content_block_delta',
      ),
    ),
    sse({ type: 'content_block_stop', index: 1 }, 'content_block_stop'),
    sse({ type: 'message_delta', delta: { stop_reason: 'tool_use' } }, 'message_delta'),
    sse({ type: 'message_stop' }, 'message_stop'),
  ].join('');
}

// A conversation of 10 tool rounds and the six built-in tools, as a mid-session request looks.
const schema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: { path: { type: 'string' }, offset: { type: 'integer' }, limit: { type: 'integer' } },
  required: ['path'],
  additionalProperties: false,
};
const tools = ['read_file', 'list_dir', 'grep', 'write_file', 'edit_file', 'bash'].map((name) => ({
  name,
  description: `The ${name} tool of the reference agent.`,
  inputSchema: schema,
}));
const messages = [{ role: 'user', content: 'fix the off-by-one in src/range.js' }];
for (let round = 0; round < 10; round += 1) {
  const id = `call_${round}`;
  messages.push({
    role: 'assistant',
    content: 'Reading.',
    toolCalls: [{ id, name: 'read_file', input: { path: 'src/range.js' } }],
  });
  messages.push({
    role: 'tool',
    callId: id,
    name: 'read_file',
    content: 'x'.repeat(2000),
    isError: round % 3 === 0,
  });
}

async function measure(name, frames, create) {
  const serverMs = [];
  const server = createServer((req, res) => {
    const started = process.hrtime.bigint();
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(frames, () => serverMs.push(Number(process.hrtime.bigint() - started) / 1e6));
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${server.address().port}`;
  const provider = create(url);
  const overheads = [];
  const totals = [];
  for (let turn = 0; turn < WARMUP + TURNS; turn += 1) {
    const before = serverMs.length;
    const started = process.hrtime.bigint();
    const response = await provider.complete({ messages, tools, onText: () => {} });
    const total = Number(process.hrtime.bigint() - started) / 1e6;
    if (response.toolCalls.length !== 1) throw new Error(`${name}: expected one tool call`);
    // The server's callback may land just after the client resolved.
    while (serverMs.length === before) await new Promise((resolve) => setImmediate(resolve));
    if (turn >= WARMUP) {
      totals.push(total);
      overheads.push(total - serverMs[serverMs.length - 1]);
    }
  }
  server.closeAllConnections();
  server.close();
  const sorted = (values) => [...values].sort((a, b) => a - b);
  const at = (values, q) =>
    sorted(values)[Math.min(values.length - 1, Math.floor(values.length * q))];
  return {
    provider: name,
    'turn median ms': at(totals, 0.5).toFixed(2),
    'overhead median ms': at(overheads, 0.5).toFixed(2),
    'overhead p95 ms': at(overheads, 0.95).toFixed(2),
  };
}

const common = { model: 'bench-model', apiKey: 'bench-key', keyEnv: 'BENCH_KEY', maxTokens: 1024 };
const rows = [
  await measure('openai', openaiFrames(), (url) =>
    createOpenAIProvider({ ...common, baseUrl: `${url}/v1` }),
  ),
  await measure('anthropic', anthropicFrames(), (url) =>
    createAnthropicProvider({ ...common, baseUrl: url }),
  ),
];
console.log(
  `\nprovider overhead per turn, ${TURNS} turns each after ${WARMUP} warm-up (21-message conversation, 6 tools, streamed text + 1 tool call; target < 2 ms)`,
);
console.table(rows);
