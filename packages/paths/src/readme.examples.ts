/**
 * The README's usage example, type-checked with the package (`pnpm typecheck`) and kept identical
 * to the README's block by `scripts/check-readme-examples.mjs` (`pnpm lint`). Never run: the
 * declarations below stand for the caller's project dir and tool input.
 */
import path from 'node:path';

declare const projectDir: string;
declare const input: { path: string };

//#region isPathInside_usage
import { isPathInside, realPathOfLongestAncestor } from '@soong-agent/paths';

const target = path.resolve(projectDir, input.path);
const real = realPathOfLongestAncestor(target);
if (!isPathInside(real, realPathOfLongestAncestor(projectDir))) {
  throw new Error(`${input.path} leads outside the project (${real})`);
}
//#endregion isPathInside_usage
