/**
 * The README's examples, type-checked with the package (`pnpm typecheck`) and kept identical to
 * the README's blocks by `scripts/check-readme-examples.mjs` (`pnpm lint`). Never run: the
 * declarations below stand for the app's own model, tools and prompt.
 */
import type { LanguageModel, Tool } from 'ai';

declare const model: LanguageModel;
declare const prompt: string;
declare const readFile: Tool<{ path: string }, string>;
declare const writeFile: Tool<{ path: string; content: string }, string>;
declare const runShell: Tool<{ command: string }, string>;

//#region createHookSession_loop
import { createHookSession } from '@soong-agent/ai-sdk';
import { generateText, type ModelMessage, stepCountIs } from 'ai';

const hooks = await createHookSession({
  projectDir: process.cwd(),
  risk: { readFile: 'readonly', writeFile: 'write' }, // others are 'dangerous'
  paths: { readFile: pathOf, writeFile: pathOf }, // for path_prefix matchers
});
const tools = hooks.wrapTools({ readFile, writeFile, runShell }); // your tools, unchanged
function pathOf(input: unknown): string[] {
  return [(input as { path: string }).path];
}

const messages: ModelMessage[] = [{ role: 'user', content: prompt }];
await hooks.userPrompt(prompt);
try {
  for (;;) {
    const result = await generateText({ model, tools, messages, stopWhen: stepCountIs(20) });
    messages.push(...result.response.messages);
    const stop = await hooks.stop(result.text);
    if (!stop.continue) break;
    messages.push(stop.message); // a Stop hook said no: its reason goes back as a user message
  }
} finally {
  await hooks.close();
}
//#endregion createHookSession_loop

/** Context from hooks, one step per request. */
export async function oneStepPerRequest(): Promise<void> {
  //#region takeContext_steps
  const messages: ModelMessage[] = [...hooks.takeContext()]; // SessionStart's
  await hooks.userPrompt(prompt);
  messages.push({ role: 'user', content: prompt });
  for (let step = 0; step < 20; step += 1) {
    messages.push(...hooks.takeContext()); // the prompt's, then each tool call's after its result
    const result = await generateText({ model, tools, messages, stopWhen: stepCountIs(1) });
    messages.push(...result.response.messages);
    if (result.toolCalls.length > 0) continue;
    const stop = await hooks.stop(result.text);
    if (!stop.continue) break;
    messages.push(stop.message);
  }
  //#endregion takeContext_steps
}
