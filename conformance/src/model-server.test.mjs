import { afterEach, describe, expect, it } from 'vitest';
import { FINAL_TEXT, startModelServer } from './model-server.mjs';

/** The data objects of an SSE body, in order. */
const events = (text) =>
  text
    .split('\n\n')
    .map((frame) =>
      frame
        .split('\n')
        .find((line) => line.startsWith('data: '))
        ?.slice(6),
    )
    .filter((data) => data !== undefined && data !== '[DONE]')
    .map((data) => JSON.parse(data));

const servers = [];
async function server() {
  const started = await startModelServer({
    call: (tools) =>
      tools.includes('shell_tool')
        ? { name: 'shell_tool', input: { command: 'touch x' } }
        : undefined,
  });
  servers.push(started);
  return started;
}
afterEach(async () => {
  for (const started of servers.splice(0)) await started.close();
});

const post = async (url, body) => {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    text: await response.text(),
  };
};

describe('startModelServer', () => {
  it('answers an Anthropic request with the tool call, then with text once a tool result is there', async () => {
    const fake = await server();
    const tools = [{ name: 'shell_tool', input_schema: { type: 'object' } }];
    const first = await post(`${fake.url}/v1/messages?beta=true`, {
      model: 'm',
      stream: true,
      tools,
      messages: [{ role: 'user', content: 'go' }],
    });
    expect(first.type).toBe('text/event-stream');
    const started = events(first.text);
    expect(started.map((event) => event.type)).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(started[1].content_block).toMatchObject({ type: 'tool_use', name: 'shell_tool' });
    expect(JSON.parse(started[2].delta.partial_json)).toEqual({ command: 'touch x' });
    expect(started[4].delta.stop_reason).toBe('tool_use');
    const second = await post(`${fake.url}/v1/messages`, {
      model: 'm',
      stream: true,
      tools,
      messages: [
        { role: 'user', content: 'go' },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'TOKEN-1' }] },
      ],
    });
    expect(events(second.text)[2].delta).toEqual({ type: 'text_delta', text: FINAL_TEXT });
    expect(fake.told('TOKEN-1')).toBe(true);
    expect(fake.told('TOKEN-2')).toBe(false);
  });

  it('speaks the Responses, Gemini and chat-completions wires', async () => {
    const fake = await server();
    const responses = events(
      (
        await post(`${fake.url}/v1/responses`, {
          model: 'm',
          stream: true,
          tools: [{ type: 'function', name: 'shell_tool' }],
          input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'go' }] }],
        })
      ).text,
    );
    expect(responses.at(-1).type).toBe('response.completed');
    expect(responses.at(-1).response.output[0]).toMatchObject({
      type: 'function_call',
      name: 'shell_tool',
    });

    const gemini = events(
      (
        await post(`${fake.url}/v1beta/models/g:streamGenerateContent?alt=sse`, {
          contents: [{ role: 'user', parts: [{ text: 'go' }] }],
          tools: [{ functionDeclarations: [{ name: 'shell_tool' }] }],
        })
      ).text,
    );
    expect(gemini[0].candidates[0].content.parts[0].functionCall).toEqual({
      name: 'shell_tool',
      args: { command: 'touch x' },
    });

    const chat = events(
      (
        await post(`${fake.url}/v1/chat/completions`, {
          model: 'm',
          stream: true,
          tools: [{ type: 'function', function: { name: 'shell_tool' } }],
          messages: [
            { role: 'user', content: 'go' },
            { role: 'tool', tool_call_id: 'c', content: 'ok' },
          ],
        })
      ).text,
    );
    expect(chat[1].choices[0].delta).toEqual({ content: FINAL_TEXT });
    expect(fake.modelRequests().map((request) => request.wire)).toEqual([
      'responses',
      'gemini',
      'chat',
    ]);
  });

  it('asks for `calls` calls, one a turn, counting the results on every wire, then answers text', async () => {
    const fake = await startModelServer({
      call: (_tools, results) => ({
        name: 'shell_tool',
        input: { command: `true ${results + 1}` },
      }),
      calls: 2,
    });
    servers.push(fake);
    const chatTools = [{ type: 'function', function: { name: 'shell_tool' } }];
    const chatResult = { role: 'tool', tool_call_id: 'c', content: 'ok' };
    const chat = async (results) =>
      events(
        (
          await post(`${fake.url}/v1/chat/completions`, {
            model: 'm',
            stream: true,
            tools: chatTools,
            messages: [{ role: 'user', content: 'go' }, ...Array(results).fill(chatResult)],
          })
        ).text,
      );
    expect((await chat(1))[1].choices[0].delta.tool_calls[0].function.arguments).toBe(
      JSON.stringify({ command: 'true 2' }),
    );
    expect((await chat(2))[1].choices[0].delta).toEqual({ content: FINAL_TEXT });

    // Anthropic: two results in one message count as two.
    const anthropic = events(
      (
        await post(`${fake.url}/v1/messages`, {
          model: 'm',
          stream: true,
          tools: [{ name: 'shell_tool', input_schema: { type: 'object' } }],
          messages: [
            { role: 'user', content: 'go' },
            {
              role: 'user',
              content: [
                { type: 'tool_result', tool_use_id: 'a', content: 'ok' },
                { type: 'tool_result', tool_use_id: 'b', content: 'ok' },
              ],
            },
          ],
        })
      ).text,
    );
    expect(anthropic[2].delta).toEqual({ type: 'text_delta', text: FINAL_TEXT });

    const gemini = events(
      (
        await post(`${fake.url}/v1beta/models/g:streamGenerateContent?alt=sse`, {
          contents: [
            { role: 'user', parts: [{ text: 'go' }] },
            { role: 'user', parts: [{ functionResponse: { name: 'shell_tool', response: {} } }] },
          ],
          tools: [{ functionDeclarations: [{ name: 'shell_tool' }] }],
        })
      ).text,
    );
    expect(gemini[0].candidates[0].content.parts[0].functionCall.args).toEqual({
      command: 'true 2',
    });
    const responses = events(
      (
        await post(`${fake.url}/v1/responses`, {
          model: 'm',
          stream: true,
          tools: [{ type: 'function', name: 'shell_tool' }],
          input: [
            { type: 'function_call_output', call_id: 'a', output: 'ok' },
            { type: 'function_call_output', call_id: 'b', output: 'ok' },
          ],
        })
      ).text,
    );
    expect(responses.at(-1).response.output[0].type).toBe('message');
    expect(fake.modelRequests().map((request) => request.answer)).toEqual([
      'call',
      'text',
      'text',
      'call',
      'text',
    ]);
  });

  it('answers a request that offers no tools with text, and side probes with JSON', async () => {
    const fake = await server();
    const answer = events(
      (await post(`${fake.url}/v1/messages`, { model: 'm', stream: true, messages: [] })).text,
    );
    expect(answer[1].content_block.type).toBe('text');
    const models = await fetch(`${fake.url}/v1/models`);
    expect((await models.json()).data[0].id).toBe('conformance-model');
    expect(fake.modelRequests()).toHaveLength(1);
  });
});
