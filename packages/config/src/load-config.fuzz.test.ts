import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from './config-error.js';
import { createTempLayout, type TempLayout } from './test-helpers/temp-dirs.js';

let layout: TempLayout;
beforeAll(() => {
  layout = createTempLayout();
});
afterAll(() => layout.cleanup());

/** Loads with the given file contents; true when it returned, false when it threw a ConfigError. */
function loadsOrConfigError(files: { 'hooks.json'?: string; 'config.toml'?: string }): boolean {
  for (const name of ['hooks.json', 'config.toml'] as const) {
    const content = files[name];
    if (content === undefined) layout.write(name, '');
    else layout.write(name, content);
  }
  try {
    layout.load();
    return true;
  } catch (error) {
    if (ConfigError.isInstance(error)) {
      expect(error.issues.length).toBeGreaterThan(0);
      return false;
    }
    throw error;
  }
}

const EVENTS = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop', 'Stopp'];
const names = fc.oneof(
  fc.constantFrom('bash', 'write_file', 'Edit|Write', '*', 'src/**', 'src', '~/x', '[id]', ''),
  fc.string(),
);
const matcherValue = fc.oneof(
  fc.jsonValue(),
  names,
  fc.dictionary(
    fc.constantFrom('tool', 'tag', 'path_prefix', 'tol'),
    fc.oneof(names, fc.array(names)),
  ),
);
const hookValue = fc.oneof(
  fc.jsonValue(),
  fc.record(
    {
      type: fc.constantFrom('command', 'prompt'),
      command: fc.oneof(fc.constantFrom('true', '~/missing.sh', './x', ''), fc.string()),
      name: fc.oneof(fc.constantFrom('a', 'b', 'Stop[0][0]'), fc.string()),
      timeout: fc.oneof(fc.double(), fc.integer({ min: -1, max: 700 }), fc.string()),
      working_dir: fc.oneof(fc.constantFrom('.', '~', '~/w', '/tmp'), fc.string()),
      on_failure: fc.constantFrom('ignore', 'deny', 'Deny'),
      timout: fc.integer(),
    },
    { requiredKeys: ['type', 'command'] },
  ),
);
const ruleValue = fc.oneof(
  fc.jsonValue(),
  fc.record(
    { matcher: matcherValue, hooks: fc.array(hookValue, { maxLength: 3 }) },
    { requiredKeys: ['hooks'] },
  ),
);
const hooksFileValue = fc.record(
  {
    $schema: fc.jsonValue(),
    version: fc.oneof(fc.constant(1), fc.jsonValue()),
    hooks: fc.oneof(
      fc.jsonValue(),
      fc.dictionary(fc.constantFrom(...EVENTS), fc.array(ruleValue, { maxLength: 3 })),
    ),
  },
  { requiredKeys: ['version'] },
);

const FUZZ_TIMEOUT_MS = 120_000;

describe('loadConfig fuzzing', () => {
  it(
    'returns or throws ConfigError when hooks.json is an arbitrary JSON value',
    () => {
      fc.assert(
        fc.property(fc.jsonValue(), (value) => {
          loadsOrConfigError({ 'hooks.json': JSON.stringify(value) ?? 'null' });
        }),
        { numRuns: 300 },
      );
    },
    FUZZ_TIMEOUT_MS,
  );

  it(
    'returns or throws ConfigError when hooks.json is a hooks-shaped arbitrary value',
    () => {
      let loaded = 0;
      fc.assert(
        fc.property(hooksFileValue, (value) => {
          if (loadsOrConfigError({ 'hooks.json': JSON.stringify(value) })) loaded++;
        }),
        { numRuns: 400 },
      );
      // The generator must reach the valid side too, or it proves little.
      expect(loaded).toBeGreaterThan(0);
    },
    FUZZ_TIMEOUT_MS,
  );

  it(
    'returns or throws ConfigError when hooks.json is arbitrary text',
    () => {
      fc.assert(
        fc.property(
          fc.oneof(
            fc.string(),
            fc.string({ unit: 'binary' }),
            fc.constantFrom('{', '[[[[', '{"version":1,}'),
          ),
          (text) => {
            loadsOrConfigError({ 'hooks.json': text });
          },
        ),
        { numRuns: 300 },
      );
    },
    FUZZ_TIMEOUT_MS,
  );

  it(
    'returns or throws ConfigError when config.toml is arbitrary text',
    () => {
      const tomlish = fc
        .array(
          fc.oneof(
            fc.constantFrom(
              '[hooks]',
              '[runner]',
              '[[tools]]',
              '[tools.parameters.x]',
              '[model]',
              'enabled = false',
              'name = "t"',
              'x = """',
              '"""',
            ),
            fc
              .tuple(
                fc.constantFrom(
                  'enabled',
                  'default_timeout',
                  'env_allowlist',
                  'risk',
                  'name',
                  'timeout',
                ),
                fc.jsonValue(),
              )
              .map(([key, value]) => `${key} = ${JSON.stringify(value)}`),
            fc.string(),
          ),
          { maxLength: 8 },
        )
        .map((lines) => lines.join('\n'));
      fc.assert(
        fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), tomlish), (text) => {
          loadsOrConfigError({ 'config.toml': text, 'hooks.json': '{"version":1}' });
        }),
        { numRuns: 400 },
      );
    },
    FUZZ_TIMEOUT_MS,
  );

  it(
    'throws ConfigError for a matcher or hook value nested at any depth up to past the stack limit',
    () => {
      const arrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
      const objects = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
      const shapes = [
        (depth: number) =>
          `{"version":1,"hooks":{"Stop":[{"matcher":${arrays(depth)},"hooks":[]}]}}`,
        (depth: number) =>
          `{"version":1,"hooks":{"PreToolUse":[{"matcher":{"tool":${arrays(depth)}},"hooks":[{"type":"command","command":"x"}]}]}}`,
        (depth: number) =>
          `{"version":1,"hooks":{"PreToolUse":[{"matcher":{"path_prefix":${objects(depth)}},"hooks":[{"type":"command","command":"x"}]}]}}`,
        (depth: number) =>
          `{"version":1,"hooks":{"Stop":[{"hooks":[{"type":"command","command":"x","name":${objects(depth)}}]}]}}`,
      ];
      // The depth at which the stack runs out depends on the machine: walk through it.
      for (let depth = 250; depth <= 12_000; depth += 250) {
        for (const shape of shapes)
          expect(loadsOrConfigError({ 'hooks.json': shape(depth) })).toBe(false);
      }
    },
    FUZZ_TIMEOUT_MS,
  );

  it(
    'throws ConfigError for deeply nested hooks.json',
    () => {
      const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
      expect(loadsOrConfigError({ 'hooks.json': deep })).toBe(false);
      expect(
        loadsOrConfigError({
          'hooks.json': `{"version":1,"hooks":{"Stop":[{"matcher":${deep},"hooks":[]}]}}`,
        }),
      ).toBe(false);
    },
    FUZZ_TIMEOUT_MS,
  );
});
