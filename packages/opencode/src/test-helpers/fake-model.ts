import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One answer of the fake model: a tool call or a text. */
export type FakeStep = { tool: string; args: Record<string, unknown> } | { text: string };

/** A request the fake model got (the chat-completions body). */
export interface FakeRequest {
  /** True when OpenCode offered tools (the agent loop; title requests offer none). */
  agent: boolean;
  messages: { role: string; content?: unknown; tool_call_id?: string }[];
}

/** A fake OpenAI-compatible model on 127.0.0.1 (streaming chat completions, no login). */
export interface FakeModel {
  /** `http://127.0.0.1:<port>/v1`, for `options.baseURL`. */
  baseURL: string;
  requests: FakeRequest[];
  /** Resolves once `count` agent requests arrived (rejects after `boundMs`: something must end). */
  agentRequests(count: number, boundMs?: number): Promise<FakeRequest[]>;
  close(): Promise<void>;
}

/**
 * Serves `steps` in order to the agent's requests (those that offer tools); once they are used up
 * it answers `"nothing more"`. A request without tools (OpenCode's title agent) gets a title.
 */
export async function startFakeModel(steps: readonly FakeStep[]): Promise<FakeModel> {
  const requests: FakeRequest[] = [];
  let next = 0;
  const waiters = new Set<() => void>();
  const server = http.createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      body += chunk;
    });
    request.on('end', () => {
      if (!request.url?.endsWith('/chat/completions')) {
        response.writeHead(404).end();
        return;
      }
      const parsed = JSON.parse(body) as { tools?: unknown[]; messages: FakeRequest['messages'] };
      const agent = Array.isArray(parsed.tools) && parsed.tools.length > 0;
      requests.push({ agent, messages: parsed.messages });
      for (const wake of [...waiters]) wake();
      const step: FakeStep = agent
        ? (steps[next++] ?? { text: 'nothing more' })
        : { text: 'A title' };
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      const send = (delta: unknown, finish: string | null = null) =>
        response.write(
          `data: ${JSON.stringify({ id: 'fake', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`,
        );
      if ('tool' in step) {
        const id = `call_${next}`;
        send({
          role: 'assistant',
          tool_calls: [
            {
              index: 0,
              id,
              type: 'function',
              function: { name: step.tool, arguments: JSON.stringify(step.args) },
            },
          ],
        });
        send({}, 'tool_calls');
      } else {
        send({ role: 'assistant', content: step.text });
        send({}, 'stop');
      }
      response.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const agentRequests = () => requests.filter((request) => request.agent);
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    agentRequests(count, boundMs = 120_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (agentRequests().length < count) return;
          cleanup();
          resolve(agentRequests());
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(
            new Error(`the fake model got ${agentRequests().length} agent requests, not ${count}`),
          );
        }, boundMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
