import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One scripted model answer: text, or tool calls (OpenAI `tool_calls`). */
export type ScriptedAnswer =
  | { text: string }
  | { calls: { id: string; name: string; input: Record<string, unknown> }[] };

/** A chat message as pi sends it to an OpenAI-compatible API. */
export interface SentMessage {
  role: string;
  content?: unknown;
  tool_call_id?: string;
  tool_calls?: { id: string; function: { name: string; arguments: string } }[];
}

/**
 * An OpenAI-compatible chat completions API on 127.0.0.1 (streaming, no login) that answers each
 * request with the next scripted answer and keeps every request body. When the script runs out it
 * answers "(no more answers)", so a test sees an extra model call in `requests`.
 */
export async function startFakeOpenAI(script: readonly ScriptedAnswer[]) {
  const requests: { messages: SentMessage[] }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        messages: SentMessage[];
      };
      const answer = script[requests.length] ?? { text: '(no more answers)' };
      requests.push(body);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const chunk of streamOf(answer)) res.write(`data: ${JSON.stringify(chunk)}\n\n`);
      res.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function streamOf(answer: ScriptedAnswer): unknown[] {
  const chunk = (delta: unknown, finish: string | null) => ({
    id: 'chatcmpl-fake',
    object: 'chat.completion.chunk',
    created: 1764900000,
    model: 'fake',
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  if ('text' in answer) {
    return [chunk({ role: 'assistant', content: answer.text }, null), chunk({}, 'stop')];
  }
  const toolCalls = answer.calls.map((call, index) => ({
    index,
    id: call.id,
    type: 'function',
    function: { name: call.name, arguments: JSON.stringify(call.input) },
  }));
  return [chunk({ role: 'assistant', tool_calls: toolCalls }, null), chunk({}, 'tool_calls')];
}

/** The text of a message's content (a string, or its text parts). */
export function messageText(message: SentMessage): string {
  const { content } = message;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: { type?: string; text?: string }) => (part.type === 'text' ? part.text : ''))
    .join('');
}
