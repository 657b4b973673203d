/**
 * The README's "Wire it into your loop" example, type-checked with the package (`pnpm typecheck`)
 * and kept identical to the README's block by `scripts/check-readme-examples.mjs` (`pnpm lint`).
 * Never run: the declarations below stand for the host's own model, tools and messages.
 */
import type { PermissionCallback, ToolResult } from '@soong-agent/loop-adapter';

type Message = { role: string; content: string };
type ModelTurn = {
  text: string;
  toolCalls: { id: string; name: string; input: unknown }[];
};
declare const projectDir: string;
declare const home: string;
declare const permission: PermissionCallback;
declare const prompt: string;
declare const messages: Message[];
declare const model: { call(messages: Message[]): Promise<ModelTurn> };
declare function runYourTool(
  call: ModelTurn['toolCalls'][number],
): Promise<{ content: string; isError: boolean }>;
declare function toToolMessage(result: ToolResult): Message;

//#region openHookSession_loop
import { hookContextToMessage, openHookSession } from '@soong-agent/loop-adapter';

const session = await openHookSession({ projectDir, home, permission }); // ConfigError on a broken file
await session.userPrompt(prompt); // UserPromptSubmit (observe only), a transcript line
messages.push({ role: 'user', content: prompt });

for (;;) {
  // [hooks] deliver_context = true: context hooks added (SessionStart's, then the prompt's, then
  // each tool call's), as user messages after what is already there; [] when delivery is off.
  for (const node of session.takeContext()) messages.push(hookContextToMessage(node));
  const turn = await model.call(messages);
  if (turn.toolCalls.length > 0) {
    const gate = session.toolGate(); // one per model step: the deny state of that step
    for (const call of turn.toolCalls) {
      // risk/tags/paths: given here, or from `tools` (a ToolRegistry) passed to openHookSession.
      // before → your tool (only when let run; { content, isError }, a throw is an error result) → after;
      // denied, skipped, unknown, too deep or cancelled: an error result, records done.
      const result = await gate.run({ ...call, risk: 'write' }, () => runYourTool(call));
      messages.push(toToolMessage(result)); // result.content is what the model must see (bounded)
    }
    continue;
  }
  const decision = await session.stop(turn.text); // Stop hooks
  if (!decision.continue) break;
  messages.push(hookContextToMessage(decision.node)); // a Stop hook said no: a *user* message
}
session.sink.emit({ type: 'loop_ended', reason: 'completed' });
await session.close('completed'); // SessionEnd once, workers, transcript, log (fsync); idempotent
//#endregion openHookSession_loop
