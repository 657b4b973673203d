// A consumer of @soong-agent/ai-sdk with its peer `ai`, installed from packed tarballs: a hook
// denies a tool call in a real generateText loop driven by the SDK's mock model.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHookSession } from '@soong-agent/ai-sdk';
import { generateText, jsonSchema, stepCountIs, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'soong-pack-ai-sdk-'));
const home = path.join(root, 'home');
fs.mkdirSync(home, { mode: 0o700 });
const deny = `echo '{"decision":"deny","reason":"not here"}'`;
fs.writeFileSync(
  path.join(home, 'hooks.json'),
  JSON.stringify({
    version: 1,
    hooks: { PreToolUse: [{ matcher: 'shell', hooks: [{ type: 'command', command: deny }] }] },
  }),
  { mode: 0o600 },
);
const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};
const model = new MockLanguageModelV3({
  doGenerate: [
    {
      content: [
        { type: 'tool-call', toolCallId: 'c1', toolName: 'shell', input: '{"command":"rm -rf /"}' },
      ],
      finishReason: { unified: 'tool-calls', raw: undefined },
      usage,
      warnings: [],
    },
    {
      content: [{ type: 'text', text: 'done' }],
      finishReason: { unified: 'stop', raw: undefined },
      usage,
      warnings: [],
    },
  ],
});
let ran = false;
const hooks = await createHookSession({ projectDir: root, home });
try {
  const result = await generateText({
    model,
    prompt: 'clean up',
    stopWhen: stepCountIs(3),
    tools: hooks.wrapTools({
      shell: tool({
        inputSchema: jsonSchema<{ command: string }>({
          type: 'object',
          properties: { command: { type: 'string' } },
          required: ['command'],
        }),
        execute: async () => {
          ran = true;
          return 'ran';
        },
      }),
    }),
  });
  const error = result.steps[0]?.content.find((part) => part.type === 'tool-error');
  if (ran || result.text !== 'done' || !String(error?.error).includes('not here')) {
    throw new Error(JSON.stringify({ ran, text: result.text, error: String(error?.error) }));
  }
} finally {
  await hooks.close();
}
fs.rmSync(root, { recursive: true, force: true });
console.log('ok @soong-agent/ai-sdk');
