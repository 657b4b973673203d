/**
 * The repository README's AI SDK example, type-checked with this package (`pnpm typecheck`) and
 * kept identical to the README's block by `scripts/check-readme-examples.mjs` (`pnpm lint`). Never
 * run: the declarations below stand for the app's own model, tools and prompt.
 */
import type { LanguageModel, ModelMessage, ToolSet } from 'ai';

declare const model: LanguageModel;
declare const prompt: string;
declare const projectDir: string;
declare const myTools: ToolSet;
declare const messages: ModelMessage[];

//#region root_readme
import { createHookSession } from '@soong-agent/ai-sdk';
import { generateText, stepCountIs } from 'ai';

const hooks = await createHookSession({ projectDir, risk: { readFile: 'readonly' } });
const tools = hooks.wrapTools(myTools);
await hooks.userPrompt(prompt);
for (;;) {
  const result = await generateText({ model, tools, messages, stopWhen: stepCountIs(20) });
  messages.push(...result.response.messages);
  const stop = await hooks.stop(result.text);
  if (!stop.continue) break;
  messages.push(stop.message);
}
await hooks.close();
//#endregion root_readme
