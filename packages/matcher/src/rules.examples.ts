/**
 * A README example, type-checked with the package (`pnpm typecheck`) and kept identical to the
 * README's block by `scripts/check-readme-examples.mjs` (`pnpm lint`). Never run.
 */
//#region compileRules_usage
import os from 'node:os';
import {
  builtInMatchers,
  compileRules,
  createMatcherRegistry,
  MatcherError,
} from '@soong-agent/matcher';

const registry = createMatcherRegistry(builtInMatchers); // once
const index = compileRules(
  [
    { event: 'PreToolUse', matcher: { tool: ['write_file', 'edit_file'], path_prefix: 'src' } },
    { event: 'PreToolUse', matcher: 'bash' }, // shorthand for { tool: 'bash' }
    { event: 'Stop' }, // no matcher: every Stop
  ],
  { projectDir: process.cwd(), homeDir: os.homedir(), registry },
);

index.match({ event: 'PreToolUse', tool: 'edit_file', tags: ['write'], paths: ['src/a.ts'] }); // [0]
index.match({ event: 'PreToolUse', tool: 'edit_file', paths: ['src2/a.ts'] }); // []
index.explain({ event: 'PreToolUse', tool: 'bash' });
// [{ ruleIndex: 0, matched: false, criterion: 'tool', expected: 'write_file | edit_file', actual: 'bash' },
//  { ruleIndex: 1, matched: true }]

try {
  compileRules([{ event: 'PreToolUse', matcher: { tool: 'Edit|Write' } }], {
    projectDir: '/p',
    homeDir: '/h',
    registry,
  });
} catch (error) {
  if (MatcherError.isInstance(error)) {
    error.code; // 'INVALID_MATCHER_OPTIONS'
    error.path; // ['matcher', 'tool']
    error.suggestion; // ['edit_file', 'write_file']
    error.message; // '"Edit|Write" looks like a regex or glob; matchers are exact — write ["edit_file", "write_file"]'
  }
}
//#endregion compileRules_usage
