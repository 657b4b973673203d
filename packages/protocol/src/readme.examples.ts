/**
 * The README's usage example, type-checked with the package (`pnpm typecheck`) and kept identical
 * to the README's block by `scripts/check-readme-examples.mjs` (`pnpm lint`). Never run: the
 * declarations below stand for a hook's stdin and an engine's hook stdout.
 */
declare const stdinText: string;
declare const stdout: string;

//#region protocol_usage
import { HookInputSchema, renderHookContext, safeParseHookOutput } from '@soong-agent/protocol';

// In a hook written in TypeScript: validate stdin.
const input = HookInputSchema.parse(JSON.parse(stdinText));
if (input.event === 'PreToolUse') console.error(input.tool.name, input.tool.paths);

// In an engine: interpret a hook's stdout.
const parsed = safeParseHookOutput(stdout);
if (parsed.success) {
  // parsed.output: HookOutput | null (null = no decision); parsed.unknownKeys: string[]
} else {
  // parsed.error: ProtocolError (code INVALID_HOOK_OUTPUT; the message shows the start of stdout)
  // parsed.deny: the rescued deny when some JSON object on stdout said deny, even slightly wrong;
  // parsed.denyNote: what was wrong with it, for a warning
}

const text = renderHookContext({
  kind: 'hook_context',
  event: 'Stop',
  hook_id: 'tests',
  reason: 'tests fail',
});
console.log(text); // what the model reads: the hook, the reason, and that the loop goes on
//#endregion protocol_usage
