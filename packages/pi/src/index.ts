import { createSoongHooks } from './soong-hooks.js';

export {
  deliverHookContext,
  HOOK_CONTEXT_MESSAGE_TYPE,
  type HookContextDelivery,
  hookContextMessage,
} from './hook-context.js';
export { PI_TOOL_NAMES, piToolDescription } from './pi-tools.js';
export type {
  PiCustomMessage,
  PiExtensionAPI,
  PiExtensionContext,
  PiToolCallEvent,
  PiToolResultEvent,
} from './pi-types.js';
export { createSoongHooks, type SoongHooksOptions, STATUS_KEY } from './soong-hooks.js';

/**
 * The pi extension (SPEC §14): `export { default } from "@soong-agent/pi";` in
 * `~/.pi/agent/extensions/soong.ts`, or `pi -e`. The agent home's hooks with every default; use
 * {@link createSoongHooks} for options.
 */
const soongHooks: ReturnType<typeof createSoongHooks> = createSoongHooks();
export default soongHooks;
