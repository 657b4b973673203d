/**
 * A README example, type-checked with the package (`pnpm typecheck`) and kept identical to the
 * README's block by `scripts/check-readme-examples.mjs` (`pnpm lint`). Never run.
 */
//#region defineMatcher_inputField
import os from 'node:os';
import {
  builtInMatchers,
  compileRules,
  createMatcherRegistry,
  defineMatcher,
  TOOL_CALL_EVENTS,
} from '@soong-agent/matcher';
import { z } from 'zod';

export const inputFieldMatcher = defineMatcher({
  type: 'input_field',
  events: TOOL_CALL_EVENTS, // only tool calls have an input; on other events it is an error
  optionsSchema: z.strictObject({ key: z.string().min(1), equals: z.string() }),
  create({ key, equals }) {
    return (subject) => {
      const input = subject.input;
      const actual =
        typeof input === 'object' && input !== null
          ? (input as Record<string, unknown>)[key]
          : undefined;
      return actual === equals
        ? true
        : {
            expected: `${key} = ${JSON.stringify(equals)}`,
            actual: `${key} = ${JSON.stringify(actual) ?? '(absent)'}`,
          };
    };
  },
});

const registry = createMatcherRegistry([...builtInMatchers, inputFieldMatcher]);
const index = compileRules(
  [
    {
      event: 'PreToolUse',
      matcher: { tool: 'bash', input_field: { key: 'command', equals: 'rm -rf /' } },
    },
  ],
  { projectDir: process.cwd(), homeDir: os.homedir(), registry },
);
index.match({ event: 'PreToolUse', tool: 'bash', input: { command: 'rm -rf /' } }); // [0]
//#endregion defineMatcher_inputField
