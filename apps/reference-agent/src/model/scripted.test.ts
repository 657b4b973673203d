import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { CliError } from '../errors.js';
import { createScriptedProvider, loadModelScript, parseModelScript } from './scripted.js';

const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function writeScript(content: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scripted-'));
  temps.push(dir);
  const file = path.join(dir, 'session.json');
  fs.writeFileSync(file, content);
  return file;
}

function codeOf(action: () => unknown): string | undefined {
  try {
    action();
  } catch (error) {
    return CliError.isInstance(error) ? error.code : 'not a CliError';
  }
  return undefined;
}

describe('parseModelScript', () => {
  it('accepts the spec §6 format when every field is present', () => {
    const script = parseModelScript(
      {
        turns: [
          {
            text: 'hi',
            tool_calls: [{ id: 'a', name: 'read_file', input: { path: 'x' } }],
            expect: { last_user_message_contains: 'go' },
          },
          { text: 'done' },
        ],
      },
      'f.json',
    );
    expect(script.turns).toHaveLength(2);
    expect(script.turns[0]?.toolCalls[0]).toEqual({
      id: 'a',
      name: 'read_file',
      input: { path: 'x' },
    });
    expect(script.turns[0]?.expect).toEqual({ lastUserMessageContains: 'go' });
  });

  it('names the JSON path of the bad value when a turn is malformed', () => {
    expect(() =>
      parseModelScript({ turns: [{ text: 'a' }, { tool_calls: [{ input: {} }] }] }, '/x/s.json'),
    ).toThrow('turns[1].tool_calls[0].name');
    expect(() => parseModelScript({ turns: [{ tool_call: [] }] }, '/x/s.json')).toThrow(
      'turns[0].tool_call',
    );
  });

  it('says for every problem the JSON path, what was expected and what was there', () => {
    const document = {
      turns: [
        {
          text: null,
          tool_calls: [{ id: '', input: [1] }],
          expect: { last_user_message_contains: 1, other: 2 },
        },
      ],
      extra: 1,
    };
    expect(() => parseModelScript(document, '/x/s.json')).toThrow(
      [
        'invalid scripted model file /x/s.json:',
        '  turns[0].text: expected a string, got null',
        '  turns[0].tool_calls[0].id: expected a non-empty string, got the string ""',
        '  turns[0].tool_calls[0].name: expected a non-empty string, got nothing (the key is missing)',
        '  turns[0].tool_calls[0].input: expected an object, got an array',
        '  turns[0].expect.last_user_message_contains: expected a string, got a number',
        '  turns[0].expect.other: unknown key; expected one of "last_user_message_contains"',
        '  extra: unknown key; expected one of "$schema", "turns"',
      ].join('\n'),
    );
    expect(() => parseModelScript({ turns: [] }, '/x/s.json')).toThrow(
      'invalid scripted model file /x/s.json: turns: expected a non-empty array of turns, got an array',
    );
    expect(() => parseModelScript(null, '/x/s.json')).toThrow(
      'invalid scripted model file /x/s.json: expected an object with "turns", got null',
    );
  });

  it('passes a tool call input through as written, own __proto__ key included', () => {
    const input = JSON.parse('{"__proto__": {"x": 1}, "path": "p"}') as Record<string, unknown>;
    const script = parseModelScript(
      { $schema: 'x', turns: [{ tool_calls: [{ name: 'a', input }] }] },
      'f',
    );
    expect(script.turns[0]?.toolCalls[0]?.input).toBe(input);
  });

  it('rejects duplicate call ids when two calls share one', () => {
    const document = {
      turns: [{ tool_calls: [{ id: 'x', name: 'a' }] }, { tool_calls: [{ id: 'x', name: 'b' }] }],
    };
    expect(codeOf(() => parseModelScript(document, 'f'))).toBe('SCRIPT_INVALID');
    const three = {
      turns: [
        {
          tool_calls: [
            { id: 'x', name: 'a' },
            { id: 'x', name: 'b' },
            { id: 'x', name: 'c' },
          ],
        },
      ],
    };
    expect(() => parseModelScript(three, 'f')).toThrow(
      'turns[0].tool_calls[2].id: duplicate call id "x" (also at turns[0].tool_calls[0].id)',
    );
  });

  it('rejects any document that is not an object with a non-empty turns array', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.constant(null),
          fc.integer(),
          fc.string(),
          fc.array(fc.anything()),
          fc.constant({}),
          fc.constant({ turns: [] }),
        ),
        (document) => codeOf(() => parseModelScript(document, 'f')) === 'SCRIPT_INVALID',
      ),
    );
  });
});

describe('loadModelScript', () => {
  it('reports SCRIPT_INVALID with the path when the file is not JSON', () => {
    const file = writeScript('{ "turns": [');
    expect(codeOf(() => loadModelScript(file))).toBe('SCRIPT_INVALID');
    expect(() => loadModelScript(file)).toThrow(file);
  });

  it('reports SCRIPT_INVALID when the file does not exist', () => {
    expect(codeOf(() => loadModelScript('/nonexistent/session.json'))).toBe('SCRIPT_INVALID');
  });
});

describe('createScriptedProvider', () => {
  const tools: never[] = [];

  it('consumes one turn per call and repeats the last text without tool calls when turns run out', async () => {
    const provider = createScriptedProvider(
      parseModelScript(
        {
          turns: [
            { text: 'one', tool_calls: [{ name: 'list_dir', input: { path: '.' } }] },
            { text: 'two' },
          ],
        },
        'f',
      ),
    );
    const messages = [{ role: 'user' as const, content: 'go' }];
    expect(await provider.complete({ messages, tools })).toEqual({
      text: 'one',
      toolCalls: [{ id: 'call_1', name: 'list_dir', input: { path: '.' } }],
    });
    expect(await provider.complete({ messages, tools })).toEqual({ text: 'two', toolCalls: [] });
    expect(await provider.complete({ messages, tools })).toEqual({ text: 'two', toolCalls: [] });
  });

  it('numbers calls without an id call_1, call_2, … skipping ids the script gives', async () => {
    const provider = createScriptedProvider(
      parseModelScript(
        {
          turns: [
            { tool_calls: [{ name: 'a' }, { name: 'b' }] },
            { tool_calls: [{ id: 'call_1', name: 'c' }, { name: 'd' }] },
          ],
        },
        'f',
      ),
    );
    const request = { messages: [{ role: 'user' as const, content: 'go' }], tools };
    const first = await provider.complete(request);
    const second = await provider.complete(request);
    expect([...first.toolCalls, ...second.toolCalls].map((call) => call.id)).toEqual([
      'call_2',
      'call_3',
      'call_1',
      'call_4',
    ]);
  });

  it('checks expect against the last user message and ignores tool results when the expectation holds', async () => {
    const provider = createScriptedProvider(
      parseModelScript(
        { turns: [{ text: 'ok', expect: { last_user_message_contains: 'tests fail' } }] },
        'f',
      ),
    );
    const response = await provider.complete({
      messages: [
        { role: 'user', content: 'Stop hook: tests fail' },
        { role: 'assistant', content: '' },
        { role: 'tool', callId: 'c', name: 'x', content: 'unrelated', isError: false },
      ],
      tools,
    });
    expect(response.text).toBe('ok');
  });

  it('rejects with SCRIPT_EXPECTATION_FAILED showing what was sent when the expectation is unmet', async () => {
    const provider = createScriptedProvider(
      parseModelScript({ turns: [{ expect: { last_user_message_contains: 'tests fail' } }] }, 'f'),
    );
    const failure = provider.complete({
      messages: [
        { role: 'user', content: 'please fix the bug' },
        { role: 'tool', callId: 'c', name: 'x', content: 'tests fail', isError: false },
      ],
      tools,
    });
    await expect(failure).rejects.toMatchObject({ code: 'SCRIPT_EXPECTATION_FAILED', exitCode: 1 });
    await expect(failure).rejects.toThrow('please fix the bug');
  });
});
