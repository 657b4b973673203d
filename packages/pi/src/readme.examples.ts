/**
 * The README's options example, type-checked with the package (`pnpm typecheck`) and kept
 * identical to the README's block by `scripts/check-readme-examples.mjs` (`pnpm lint`). Never run.
 */
//#region createSoongHooks_extension
// ~/.pi/agent/extensions/soong.ts
import { createSoongHooks } from '@soong-agent/pi';

export default createSoongHooks({ home: '/srv/agent-home' });
//#endregion createSoongHooks_extension
