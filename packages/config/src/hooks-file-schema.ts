import {
  type BuiltInDialectName,
  DIALECT_NAMES,
  type DialectRegistry,
  defaultDialectRegistry,
} from '@soong-agent/dialects';
import { PLAIN_NAME_PATTERN } from '@soong-agent/matcher/internal';
import { RUN_LIMITS } from '@soong-agent/runner/defaults';
import { z } from 'zod';

/** A hook's protocol: a registered dialect's name (`"soong"`, `"claude-code"`, …). */
export type HookProtocol = BuiltInDialectName | (string & {});

// A hook's protocol, checked against `dialects` as each file is parsed (a dialect registered later
// counts); editors get the built-in names as an enum.
function protocolSchema(dialects: DialectRegistry) {
  return z
    .string({ error: 'expected a protocol name (a string), e.g. "soong" or "claude-code"' })
    .superRefine((value, context) => {
      if (dialects.has(value)) return;
      context.addIssue({
        code: 'custom',
        input: value,
        message: `unknown protocol ${JSON.stringify(value)}; expected one of ${dialects.names.map((name) => `"${name}"`).join(', ')}`,
      });
    })
    .meta({ enum: [...DIALECT_NAMES] });
}

/** How a hook runs (spec §8): a process per call, or one worker process per session. */
export const HOOK_MODES = ['spawn', 'worker'] as const;

/** A hook's mode: `"spawn"` (a process per call) or `"worker"` (one process per session, spec §8). */
export type HookMode = (typeof HOOK_MODES)[number];

/** The most seconds a hook may run (spec §1.1). */
export const MAX_HOOK_TIMEOUT_SECONDS = 600;

/**
 * The fewest seconds a hook or tool may run: the runner's shortest timeout (`RUN_LIMITS`, 0.1 s).
 * A shorter one (`1e-300`) validated before, and made every run fail.
 */
export const MIN_TIMEOUT_SECONDS = RUN_LIMITS.timeoutMs.min / 1000;

/** A timeout in seconds within the runner's bounds and at most `max`. */
export function timeoutSecondsSchema(max: number) {
  return z
    .number()
    .gte(MIN_TIMEOUT_SECONDS)
    .lte(max)
    .describe(`a number of seconds from ${MIN_TIMEOUT_SECONDS} to ${max}`);
}

/** No NUL byte: no process argument, path or variable can hold one, so the run would always fail. */
export const NO_NUL = /^[^\0]*$/;

const MatcherNameSchema = z
  .string()
  .regex(PLAIN_NAME_PATTERN)
  .describe('an exact name: letters, digits, _ . : - (no regex or glob)');

const NamesSchema = z
  .union([MatcherNameSchema, z.array(MatcherNameSchema).min(1)])
  .describe('a name or a non-empty array of names (any of them)');

const PathPrefixSchema = z
  .string()
  .min(1)
  .regex(/^[^*?]+$/)
  .describe('a path prefix: absolute, ~/…, or relative to the project dir (no * or ?)');

/**
 * The matcher as editors see it: the built-in types `tool`, `tag`, `path_prefix` and `mcp_server`, or a bare tool
 * name; only on PreToolUse, PostToolUse and PostToolUseFailure. The loader itself hands the value to the matcher package (`compileRules`), which owns the
 * rules and the error messages and may know more types.
 */
const EditorMatcherSchema = z
  .union([
    MatcherNameSchema,
    z.strictObject({
      tool: NamesSchema.optional().describe(
        'canonical tool names (PreToolUse, PostToolUse, PostToolUseFailure only)',
      ),
      tag: NamesSchema.optional().describe(
        'tool tags, incl. the risk class readonly / write / dangerous (PreToolUse, PostToolUse, PostToolUseFailure only)',
      ),
      path_prefix: z
        .union([PathPrefixSchema, z.array(PathPrefixSchema).min(1)])
        .optional()
        .describe(
          'path prefixes, matched by whole segments (PreToolUse, PostToolUse, PostToolUseFailure only)',
        ),
      mcp_server: NamesSchema.optional().describe(
        'MCP server names: every mcp__<server>__<tool> tool of them (PreToolUse, PostToolUse, PostToolUseFailure only)',
      ),
    }),
  ])
  .describe('which occurrences of the event the rule applies to (absent: all)');

/** One hook command of a rule, as written in hooks.json, its protocol one of `dialects`. */
function createHookCommandSchema(dialects: DialectRegistry) {
  return z
    .strictObject({
      type: z.literal('command').describe('the hook kind, "command" (the only one)'),
      command: z
        .string()
        .regex(/\S/)
        .regex(NO_NUL)
        .describe('a non-empty shell command without NUL bytes, run by /bin/sh -c'),
      name: z
        .string()
        .regex(/\S/)
        .optional()
        .describe('a unique name, used as the hook id in logs (default: <Event>[<rule>][<hook>])'),
      timeout: timeoutSecondsSchema(MAX_HOOK_TIMEOUT_SECONDS)
        .optional()
        .describe(
          `a number of seconds from ${MIN_TIMEOUT_SECONDS} to ${MAX_HOOK_TIMEOUT_SECONDS} (default: hooks.default_timeout of config.toml)`,
        ),
      working_dir: z
        .string()
        .regex(/\S/)
        .regex(NO_NUL)
        .optional()
        .describe(
          'the directory the hook runs in: relative to the project dir, absolute or ~/…; it must lie inside the project dir or the agent home',
        ),
      on_failure: z
        .enum(['ignore', 'deny'])
        .optional()
        .describe(
          '"ignore" or "deny": what a failed hook means (default: hooks.on_failure of config.toml)',
        ),
      protocol: protocolSchema(dialects)
        .optional()
        .describe(
          'the protocol the hook speaks on stdin/stdout (default: "soong"): "claude-code", "codex", … run another agent\'s command hook unmodified',
        ),
      on_large_input: z
        .enum(['deny', 'summarize'])
        .optional()
        .describe(
          '"deny" (default) or "summarize": for a hook whose agent passes the tool input whole (Claude Code, up to 1 MiB), what a larger input means: deny the call without running the hook, or run it on the summarised input',
        ),
      dialect_event: z
        .string()
        .regex(/^[A-Za-z]+$/)
        .optional()
        .describe(
          'the agent\'s own event the hook was written for, when several of its events are one of ours (Cursor\'s "beforeShellExecution" is PreToolUse); needs a "protocol" other than "soong"',
        ),
      imported_from: z
        .strictObject({
          file: z
            .string()
            .regex(/\S/)
            .describe('the source file, as `hooks import` read it (`~/…` under the home)'),
          path: z.string().regex(/\S/).describe('the JSON path of the source hook in that file'),
        })
        .optional()
        .describe(
          'where `soong-agent hooks import` converted this hook from: importing that file again updates this rule in place instead of adding a second one (the engine ignores it)',
        ),
      mode: z
        .enum(HOOK_MODES)
        .optional()
        .describe(
          '"spawn" or "worker": a process per call (default), or one process per session that answers one JSON line per call (spec §8)',
        ),
    })
    .superRefine((hook, context) => {
      // Another agent's hook reads one payload and exits; the worker wire (spec §8) is ours alone.
      const { protocol } = hook;
      if (
        hook.mode === 'worker' &&
        protocol !== undefined &&
        dialects.has(protocol) &&
        dialects.get(protocol).decideAnswer === undefined
      ) {
        context.addIssue({
          code: 'custom',
          path: ['mode'],
          message: `"mode": "worker" speaks soong-agent's worker protocol (spec §8), which a "${protocol}" hook does not: remove "mode" or the "protocol" key`,
        });
      }
      if (
        hook.dialect_event !== undefined &&
        (hook.protocol === undefined || hook.protocol === 'soong')
      ) {
        context.addIssue({
          code: 'custom',
          path: ['dialect_event'],
          message:
            '"dialect_event" names another agent\'s event: it needs that agent\'s "protocol" (e.g. "cursor")',
        });
      }
    });
}

type HookCommandSchema = ReturnType<typeof createHookCommandSchema>;

function createRuleSchema(command: HookCommandSchema, matcher: z.ZodType | undefined) {
  const hooks = z.array(command).min(1).describe('at least one hook command (run in order)');
  return matcher === undefined
    ? z.strictObject({ hooks })
    : z.strictObject({ matcher: matcher.optional(), hooks });
}

/** The rules of one event as the loader validates them (matchers are left to the matcher package). */
function createLoaderRulesSchema(command: HookCommandSchema) {
  return z
    .array(createRuleSchema(command, z.unknown()))
    .describe('an array of rules, in configuration order');
}

/**
 * `toolEvents`: the matcher on PreToolUse / PostToolUse / PostToolUseFailure; `otherEvents`: on the other events, where
 * no built-in type can match (undefined: no `matcher` key at all).
 */
function createHooksFileSchema(
  command: HookCommandSchema,
  matchers: {
    toolEvents: z.ZodType;
    otherEvents: z.ZodType | undefined;
    /** `$schema`: a string for editors; any value for the loader, which ignores it (spec §1.1). */
    schemaKey: z.ZodType;
  },
) {
  const rules = (matcher: z.ZodType | undefined) =>
    z
      .array(createRuleSchema(command, matcher))
      .optional()
      .describe('an array of rules, in configuration order');
  const toolRules = rules(matchers.toolEvents);
  const otherRules = rules(matchers.otherEvents);
  return z
    .strictObject({
      $schema: matchers.schemaKey
        .optional()
        .describe('the JSON Schema of this file (ignored by the loader)'),
      version: z.literal(1).describe('the format version, 1'),
      hooks: z
        .strictObject({
          SessionStart: otherRules,
          UserPromptSubmit: otherRules,
          PreToolUse: toolRules,
          PostToolUse: toolRules,
          Stop: otherRules,
          SessionEnd: otherRules,
          Notification: otherRules,
          PostToolUseFailure: toolRules,
          PreCompact: otherRules,
          SubagentStart: otherRules,
          SubagentStop: otherRules,
        })
        .optional()
        .describe('an object of rules keyed by event name'),
    })
    .describe('soong-agent hooks.json: user hooks, read once when a session starts');
}

/** hooks.json as editors see it; the source of `schemas/hooks.schema.json`. */
export const HooksFileSchema = createHooksFileSchema(
  createHookCommandSchema(defaultDialectRegistry),
  { toolEvents: EditorMatcherSchema, otherEvents: undefined, schemaKey: z.string() },
);

function createLoaderSchemas(dialects: DialectRegistry) {
  const command = createHookCommandSchema(dialects);
  return {
    /** hooks.json as the loader validates it: matchers are left to the matcher package. */
    file: createHooksFileSchema(command, {
      toolEvents: z.unknown(),
      otherEvents: z.unknown(),
      schemaKey: z.unknown(),
    }),
    /** The rules of one event, for a container found at the wrong place. */
    rules: createLoaderRulesSchema(command),
  };
}

/** The loader's schemas of a hooks.json whose protocols are `dialects`' names. */
export type LoaderSchemas = ReturnType<typeof createLoaderSchemas>;

const loaderSchemasByRegistry = new WeakMap<DialectRegistry, LoaderSchemas>();

/**
 * The loader's hooks.json schemas for one dialect registry, built on its first file and kept as
 * long as the registry is.
 */
export function loaderSchemas(dialects: DialectRegistry): LoaderSchemas {
  let schemas = loaderSchemasByRegistry.get(dialects);
  if (schemas === undefined) {
    schemas = createLoaderSchemas(dialects);
    loaderSchemasByRegistry.set(dialects, schemas);
  }
  return schemas;
}

/** A hook as written in hooks.json. */
export type HookCommandInput = z.output<HookCommandSchema>;

/** hooks.json as parsed by the loader. */
export type HooksFileInput = z.output<LoaderSchemas['file']>;
