import { describe, expect, it } from 'vitest';
import { answerSecrets, createStreamRedactor, redactResponse } from './redact.js';

const KEY = 'sk-live-0123456789';

describe('createStreamRedactor', () => {
  it('takes a key out of streamed text also when it arrives split across pieces', () => {
    for (let size = 1; size <= KEY.length + 3; size += 1) {
      const text = `echo: ${KEY} and sk-l again ${KEY}!`;
      const seen: string[] = [];
      const redactor = createStreamRedactor([KEY], (piece) => seen.push(piece));
      for (let index = 0; index < text.length; index += size)
        redactor.push(text.slice(index, index + size));
      redactor.end();
      expect(seen.join(''), `pieces of ${size}`).toBe(
        'echo: [redacted] and sk-l again [redacted]!',
      );
      for (const piece of seen) expect(piece).not.toMatch(/sk-live-0/);
    }
  });

  it('passes text without a key through at once, holding back only a possible start of one', () => {
    const seen: string[] = [];
    const redactor = createStreamRedactor([KEY], (piece) => seen.push(piece));
    redactor.push('hello ');
    redactor.push('world sk-');
    expect(seen).toEqual(['hello ', 'world ']);
    redactor.end();
    expect(seen.join('')).toBe('hello world sk-');
  });
});

describe('redactResponse', () => {
  it('takes the key out of the text, the call ids and names, and every string and key of the inputs', () => {
    const response = redactResponse(
      {
        text: `your key is ${KEY}`,
        toolCalls: [
          {
            id: `id-${KEY}`,
            name: 'bash',
            input: { command: `curl -H "x-api-key: ${KEY}"`, [KEY]: [1, { deep: KEY }] },
          },
          { name: KEY, input: `raw ${KEY}` },
        ],
      },
      [KEY],
    );
    expect(JSON.stringify(response)).not.toContain(KEY);
    expect(response).toEqual({
      text: 'your key is [redacted]',
      toolCalls: [
        {
          id: 'id-[redacted]',
          name: 'bash',
          input: {
            command: 'curl -H "x-api-key: [redacted]"',
            '[redacted]': [1, { deep: '[redacted]' }],
          },
        },
        { name: '[redacted]', input: 'raw [redacted]' },
      ],
    });
  });
});

describe('answerSecrets', () => {
  it('looks for a real key in answers but not for a short placeholder such as none', () => {
    expect(answerSecrets([KEY, 'none', 'sk-short'])).toEqual([KEY]);
  });
});
