import { createSoongHooks } from './soong-hooks.js';

// @soong-agent/pi: the public API (spec §14). Everything here is semver-covered. The default export
// is the extension; `createSoongHooks` makes one with options, `deliverHookContext` lets another
// extension of the user's send hook-context nodes the way this one does. pi's own types are
// declared structurally (`PiExtensionAPI`, and the context and `tool_call` event a host that drives
// the extension outside pi passes), so the package needs no pi install to type-check.
export { deliverHookContext, type HookContextDelivery } from './hook-context.js';
export type { PiExtensionAPI, PiExtensionContext, PiToolCallEvent } from './pi-types.js';
export { createSoongHooks, type SoongHooksOptions } from './soong-hooks.js';

/**
 * The pi extension (spec §14): `export { default } from "@soong-agent/pi";` in
 * `~/.pi/agent/extensions/soong.ts`, or `pi -e`. The agent home's hooks with every default; use
 * {@link createSoongHooks} for options.
 */
const soongHooks: ReturnType<typeof createSoongHooks> = createSoongHooks();
export default soongHooks;
