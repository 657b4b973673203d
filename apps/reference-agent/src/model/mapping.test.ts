import { describe, expect, it } from 'vitest';
import { CliError } from '../errors.js';
import { toAnthropicMessages, toAnthropicTools } from './anthropic.js';
import { retryAfterMs } from './http.js';
import { toOpenAIMessages, toOpenAITools } from './openai.js';
import type { ChatMessage } from './provider.js';
import { redactSecrets } from './redact.js';
import { selectModelProvider, takeApiKey } from './select.js';

const conversation: ChatMessage[] = [
  { role: 'user', content: 'first' },
  // an aborted loop left no answer: two user messages in a row
  { role: 'user', content: 'second' },
  {
    role: 'assistant',
    content: '',
    toolCalls: [
      { id: 'c1', name: 'read_file', input: { path: 'a' } },
      { id: 'c2', name: 'bash', input: { command: 'ls' } },
    ],
  },
  { role: 'tool', callId: 'c1', name: 'read_file', content: 'text', isError: false },
  { role: 'tool', callId: 'c2', name: 'bash', content: 'denied by hook h: no', isError: true },
  { role: 'assistant', content: '' },
  { role: 'user', content: 'Stop hook "h" prevented completion: run the tests' },
];

describe('toAnthropicMessages', () => {
  it('merges same-role neighbours and leaves out an empty assistant text when the conversation has them', () => {
    expect(toAnthropicMessages(conversation)).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'first' },
          { type: 'text', text: 'second' },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'c1', name: 'read_file', input: { path: 'a' } },
          { type: 'tool_use', id: 'c2', name: 'bash', input: { command: 'ls' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'c1', content: 'text' },
          {
            type: 'tool_result',
            tool_use_id: 'c2',
            content: 'denied by hook h: no',
            is_error: true,
          },
          { type: 'text', text: 'Stop hook "h" prevented completion: run the tests' },
        ],
      },
    ]);
  });

  it('sends a JSON object as every tool_use input, also for arguments that were none or nest too deep', () => {
    let deep: unknown = [];
    for (let depth = 0; depth < 100_000; depth += 1) deep = [deep];
    const [assistant] = toAnthropicMessages([
      {
        role: 'assistant',
        content: '',
        toolCalls: [
          { id: 'c1', name: 'write_file', input: '{"path": "a.txt", "content": "unterminated' },
          { id: 'c2', name: 'bash', input: [1, 2] },
          { id: 'c3', name: 'write_file', input: { path: 'a', content: deep } },
        ],
      },
    ]);
    const inputs = (assistant?.content ?? []).map((block) =>
      'input' in block ? block.input : null,
    );
    expect(inputs).toEqual([
      {
        not_sent: 'the arguments were not a JSON object',
        arguments_head: '{"path": "a.txt", "content": "unterminated',
      },
      { not_sent: 'the arguments were not a JSON object', arguments_head: '[1,2]' },
      { not_sent: 'the arguments nested more than 64 levels deep; the call was refused' },
    ]);
    expect(() => JSON.stringify(assistant)).not.toThrow();
  });
});

describe('toOpenAIMessages', () => {
  it('sends tool calls as JSON text and marks error results when the conversation has them', () => {
    expect(toOpenAIMessages(conversation)).toEqual([
      { role: 'user', content: 'first' },
      { role: 'user', content: 'second' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'c1',
            type: 'function',
            function: { name: 'read_file', arguments: '{"path":"a"}' },
          },
          { id: 'c2', type: 'function', function: { name: 'bash', arguments: '{"command":"ls"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'text' },
      { role: 'tool', tool_call_id: 'c2', content: 'Error: denied by hook h: no' },
      { role: 'assistant', content: '' },
      { role: 'user', content: 'Stop hook "h" prevented completion: run the tests' },
    ]);
  });
});

describe('toOpenAITools', () => {
  it('drops the $schema key and keeps the rest of the JSON Schema when mapping a tool', () => {
    const spec = {
      name: 't',
      description: 'd',
      inputSchema: { $schema: 'x', type: 'object', properties: { a: { type: 'string' } } },
    };
    expect(toOpenAITools([spec])).toEqual([
      {
        type: 'function',
        function: {
          name: 't',
          description: 'd',
          parameters: { type: 'object', properties: { a: { type: 'string' } } },
        },
      },
    ]);
    expect(toAnthropicTools([spec])).toEqual([
      {
        name: 't',
        description: 'd',
        input_schema: { type: 'object', properties: { a: { type: 'string' } } },
      },
    ]);
  });
});

describe('takeApiKey', () => {
  it('returns the key and removes it from the env when it is set', () => {
    const env: NodeJS.ProcessEnv = { MY_KEY: ' sk-1 ', OTHER: 'x' };
    expect(takeApiKey(env, 'MY_KEY', 'openai')).toBe('sk-1');
    expect(env).toEqual({ OTHER: 'x' });
  });

  it('throws CliError RUNTIME naming the variable when the key is missing or empty', () => {
    for (const env of [{}, { MY_KEY: '' }] as NodeJS.ProcessEnv[]) {
      let caught: unknown;
      try {
        takeApiKey(env, 'MY_KEY', 'anthropic');
      } catch (error) {
        caught = error;
      }
      expect(CliError.isInstance(caught) && caught.exitCode).toBe(1);
      expect((caught as Error).message).toContain('MY_KEY');
    }
  });
});

describe('selectModelProvider', () => {
  it('uses base_url and api_key_env of [model] only when --model names the same provider', () => {
    const settings = {
      provider: 'openai',
      model: 'local',
      base_url: 'http://127.0.0.1:1/v1',
      api_key_env: 'LOCAL_KEY',
    };
    const env: NodeJS.ProcessEnv = { LOCAL_KEY: 'k1', ANTHROPIC_API_KEY: 'k2' };
    const same = selectModelProvider({ flag: 'openai:other', settings, home: '/h', cwd: '/', env });
    expect(same.id).toBe('openai:other');
    expect(env.LOCAL_KEY).toBeUndefined();
    const other = selectModelProvider({ flag: 'anthropic:m', settings, home: '/h', cwd: '/', env });
    expect(other.id).toBe('anthropic:m');
    expect(env.ANTHROPIC_API_KEY).toBeUndefined();
  });

  it('throws CliError USAGE when --model openai has no model name', () => {
    expect(() =>
      selectModelProvider({ flag: 'openai:', settings: {}, home: '/h', cwd: '/', env: {} }),
    ).toThrow(/--model openai:MODEL/);
  });
});

describe('retryAfterMs', () => {
  it('reads retry-after-ms, retry-after seconds and an HTTP date when the API sends them', () => {
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '250' }))).toBe(250);
    expect(retryAfterMs(new Headers({ 'retry-after': '3' }))).toBe(3000);
    const now = Date.parse('2026-12-02T12:00:00Z');
    expect(retryAfterMs(new Headers({ 'retry-after': 'Wed, 02 Dec 2026 12:00:05 GMT' }), now)).toBe(
      5000,
    );
    expect(retryAfterMs(new Headers({}))).toBeUndefined();
    expect(retryAfterMs(new Headers({ 'retry-after': 'soon' }))).toBeUndefined();
  });
});

describe('redactSecrets', () => {
  it('replaces every occurrence of a secret when the text holds it', () => {
    expect(redactSecrets('key sk-abcdef, again sk-abcdef.', ['sk-abcdef'])).toBe(
      'key [redacted], again [redacted].',
    );
  });
});
