/**
 * The README's example, type-checked with the package (`pnpm typecheck`) and kept identical to the
 * README's block by `scripts/check-readme-examples.mjs` (`pnpm lint`). Never run: the declaration
 * below stands for a third party's dialect.
 */
import type { Dialect } from '@soong-agent/dialects';

declare const myAgentDialect: Dialect;

//#region registerDialect_usage
import { DIALECT_NAMES, getDialect, registerDialect } from '@soong-agent/dialects';

getDialect('claude-code').toolNames.bash; // 'Bash'
registerDialect(myAgentDialect); // hooks may now declare "protocol": "my-agent"
DIALECT_NAMES; // every registered name, live
//#endregion registerDialect_usage
