/**
 * The README's `permission` callback examples, type-checked with the package (`pnpm typecheck`)
 * and kept identical to the README's blocks by `scripts/check-readme-examples.mjs` (`pnpm lint`).
 * Never run.
 */
import type {
  PermissionCallback as ExportedPermissionCallback,
  ToolCall,
  ToolDescription,
} from '@soong-agent/loop-adapter';
import type { RiskClass } from '@soong-agent/protocol';

/** The README's description of the type, checked against the exported one below. */
namespace described {
  //#region PermissionCallback_type
  type PermissionCallback = (request: {
    call: ToolCall; // { id: string; name: string; input: unknown }, as the model gave it
    tool: ToolDescription; // the registry's ToolDefinition without `execute`, or what `before` declared
    risk: RiskClass; // 'readonly' | 'write' | 'dangerous'
    paths: string[]; // absolute, as PreToolUse's `tool.paths`
    hookAsk?: { hookId: string; reason: string }; // a hook answered permissionDecision "ask"
  }) => Promise<{ allow: true } | { allow: false; reason: string }>;
  //#endregion PermissionCallback_type
  export type Described = PermissionCallback;
}

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const describedAsExported: Same<described.Described, ExportedPermissionCallback> = true;

//#region PermissionCallback_terminal
import readline from 'node:readline/promises';
import { openHookSession, type PermissionCallback } from '@soong-agent/loop-adapter';

const permission: PermissionCallback = async ({ call, risk, hookAsk }) => {
  if (risk === 'readonly' && hookAsk === undefined) return { allow: true };
  const why = hookAsk === undefined ? '' : ` (hook ${hookAsk.hookId} asks: ${hookAsk.reason})`;
  const terminal = readline.createInterface({ input: process.stdin, output: process.stderr });
  const answer = await terminal.question(`run ${call.name} (${risk})${why}? [y/N] `);
  terminal.close();
  return answer.trim() === 'y' ? { allow: true } : { allow: false, reason: 'the user said no' };
};
const session = await openHookSession({ projectDir: process.cwd(), permission });
//#endregion PermissionCallback_terminal
await session.close();
