import path from 'node:path';
import { type DialectRegistry, defaultDialectRegistry } from '@soong-agent/dialects';
import {
  closestMatch,
  compileRules,
  MatcherError,
  type MatcherRegistry,
  type RuleIndex,
  type RuleSpec,
} from '@soong-agent/matcher';
import { resolveUserPath } from '@soong-agent/paths/internal';
import { HOOK_EVENTS, type HookEvent } from '@soong-agent/protocol';
import { looksLikeClaudeSettings } from './claude-settings-hint.js';
import type { HookCommandConfig, HookRuleConfig } from './compiled-hooks.js';
import { ConfigError, type ConfigIssue } from './config-error.js';
import type { Settings } from './config-file-schema.js';
import {
  type HookCommandInput,
  type HooksFileInput,
  type LoaderSchemas,
  loaderSchemas,
} from './hooks-file-schema.js';
import { createIssue, type IssueText, type JsonPath, sortIssues } from './issues.js';
import { isJsonSyntaxError, type JsonDocument, parseJsonDocument } from './json-document.js';
import { defaultMatcherRegistry } from './tool-aliases.js';
import { workingDirProblem } from './working-dir-check.js';
import { describeZodIssues } from './zod-issues.js';

/** hooks.json validated and compiled. */
export interface ParsedHooks {
  rules: HookRuleConfig[];
  /** One spec per rule, same order as `rules`. */
  specs: RuleSpec[];
  index: RuleIndex;
  document: JsonDocument;
  /** hooks.json as validated. */
  data: HooksFileInput;
  /** JSON path of a rule (`hooks.<Event>[i]`), by position in `rules`. */
  rulePath(position: number): JsonPath;
}

interface LocatedRule {
  event: HookEvent;
  ruleIndex: number;
  spec: RuleSpec;
}

/** A rule under a misspelt event (or a misspelt `hooks`), checked as if it were spelt right. */
interface StrayRule {
  /** JSON path of the rule as written, e.g. `['hooks', 'PreTooluse', 0]`. */
  rulePath: JsonPath;
  spec: RuleSpec;
}

const DEFAULT_ID_SHAPE = /^[A-Za-z]+\[\d+\]\[\d+\]$/;

/** The id of a hook without a `name` (`hook_id` in its records): `<Event>[<rule>][<hook>]`. */
function defaultHookId(event: string, ruleIndex: number, hookIndex: number): string {
  return `${event}[${ruleIndex}][${hookIndex}]`;
}

/** The options of {@link parseHooks}. */
interface ParseHooksOptions {
  text: string;
  file: string;
  homeDir: string;
  projectDir: string;
  /** The agent home: with the project dir, the roots a `working_dir` must lie in. */
  home: string;
  settings: Settings;
  registry?: MatcherRegistry | undefined;
  /** The dialects hooks may speak. @default defaultDialectRegistry */
  dialects?: DialectRegistry | undefined;
}

/** Records one problem at a JSON path of hooks.json (at its key when `atKey`). */
type Report = (jsonPath: JsonPath, text: IssueText, atKey?: boolean) => void;

type CompileOptions = Parameters<typeof compileRules>[1];

/**
 * Parses, validates and compiles hooks.json text. Throws `CONFIG_PARSE_FAILED` for JSON syntax and
 * `CONFIG_INVALID` with every problem found otherwise (schema, duplicate keys and names, matchers).
 */
export function parseHooks(options: ParseHooksOptions): ParsedHooks {
  const { file, homeDir } = options;
  const document = parseJsonDocument(options.text);
  if (isJsonSyntaxError(document)) {
    throw new ConfigError({
      code: 'CONFIG_PARSE_FAILED',
      issues: [createIssue({ file, homeDir, position: document.position, text: document.text })],
    });
  }
  const issues = duplicateKeyIssues(document, file, homeDir);
  const report: Report = (jsonPath, text, atKey = false) =>
    issues.push(
      createIssue({ file, homeDir, position: document.locate(jsonPath, atKey), jsonPath, text }),
    );
  const schemas = loaderSchemas(options.dialects ?? defaultDialectRegistry);
  const parsed = schemas.file.safeParse(document.value, { reportInput: true, jitless: true });
  if (!parsed.success) {
    const problems = describeZodIssues(parsed.error.issues, schemas.file, {
      eventKeys: HOOK_EVENTS,
    });
    for (const problem of problems) report(problem.jsonPath, problem.text, problem.atKey);
  }

  // Matchers are compiled from the raw document, so their errors are reported with the schema's.
  const located = locateRules(document.value);
  const specs = located.map(({ spec }) => spec);
  const rulePath = (position: number): JsonPath => {
    const rule = located[position] as LocatedRule;
    return ['hooks', rule.event, rule.ruleIndex];
  };
  const compileOptions = {
    projectDir: options.projectDir,
    homeDir,
    registry: options.registry ?? defaultMatcherRegistry(),
  };
  const compiled = compileMatchers(specs, compileOptions, rulePath, report);
  reportStrayRules(document.value, { compileOptions, rulesSchema: schemas.rules }, report);
  reportNames(document.value, report);

  const rules = parsed.success ? buildRules(parsed.data, located, options, report) : [];
  if (!parsed.success || issues.length > 0) {
    throw invalidHooks(document, file, homeDir, issues, parsed.error ?? compiled.error);
  }
  if (compiled.index === undefined) throw compiled.error;
  return { rules, specs, index: compiled.index, document, data: parsed.data, rulePath };
}

function duplicateKeyIssues(document: JsonDocument, file: string, homeDir: string): ConfigIssue[] {
  return document.duplicateKeys.map((duplicate) =>
    createIssue({
      file,
      homeDir,
      position: duplicate.position,
      jsonPath: duplicate.jsonPath,
      text: {
        problem: 'this key is written twice (the later one would silently replace the earlier)',
        fix: 'merge them into one',
      },
    }),
  );
}

// compileRules stops at the first bad matcher; then each rule is compiled alone to report them all.
function compileMatchers(
  specs: RuleSpec[],
  compileOptions: CompileOptions,
  rulePath: (position: number) => JsonPath,
  report: Report,
): { index: RuleIndex | undefined; error?: unknown } {
  try {
    return { index: compileRules(specs, compileOptions) };
  } catch (error) {
    if (!MatcherError.isInstance(error) || error.ruleIndex === undefined) throw error;
    for (const [position, spec] of specs.entries()) {
      reportMatcherError(rulePath(position), spec, compileOptions, report);
    }
    return { index: undefined, error };
  }
}

function reportMatcherError(
  rulePath: JsonPath,
  spec: RuleSpec,
  compileOptions: CompileOptions,
  report: Report,
): void {
  try {
    compileRules([spec], compileOptions);
  } catch (error) {
    if (!MatcherError.isInstance(error)) throw error;
    report(
      [...rulePath, ...error.path],
      splitMessage(error.message),
      error.code === 'UNKNOWN_MATCHER_TYPE',
    );
  }
}

// Rules under a misspelt event or `hooks` key: their own problems are reported too, so fixing
// the spelling does not reveal a second round of errors.
function reportStrayRules(
  value: unknown,
  {
    compileOptions,
    rulesSchema,
  }: { compileOptions: CompileOptions; rulesSchema: LoaderSchemas['rules'] },
  report: Report,
): void {
  const strays = locateStrayRules(value);
  for (const jsonPath of strays.unknownEvents) {
    const key = String(jsonPath.at(-1));
    const suggestion = closestMatch(key, HOOK_EVENTS);
    const listing = `events: ${HOOK_EVENTS.join(', ')}`;
    report(
      jsonPath,
      {
        problem: `unknown event ${JSON.stringify(key)}`,
        fix:
          suggestion === undefined
            ? `remove it (${listing})`
            : `did you mean ${JSON.stringify(suggestion)}? (${listing})`,
      },
      true,
    );
  }
  for (const stray of strays.containers) {
    const checked = rulesSchema.safeParse(stray.value, { reportInput: true, jitless: true });
    if (checked.success) continue;
    for (const problem of describeZodIssues(checked.error.issues, rulesSchema)) {
      report([...stray.jsonPath, ...problem.jsonPath], problem.text, problem.atKey);
    }
  }
  for (const stray of strays.rules) {
    reportMatcherError(stray.rulePath, stray.spec, compileOptions, report);
  }
}

// The validated rules as the engine runs them, frozen; what only makes sense once the schema
// passed (a dialect event of the hook's protocol, a working dir in bounds) is reported here.
function buildRules(
  data: HooksFileInput,
  located: LocatedRule[],
  options: ParseHooksOptions,
  report: Report,
): HookRuleConfig[] {
  const rules: HookRuleConfig[] = [];
  for (const { event, ruleIndex, spec } of located) {
    const rule = data.hooks?.[event]?.[ruleIndex];
    if (rule === undefined) continue;
    const hooks = rule.hooks.map((hook, hookIndex) => {
      const config = toHookConfig(hook, event, ruleIndex, hookIndex, options);
      const hookPath: JsonPath = ['hooks', event, ruleIndex, 'hooks', hookIndex];
      reportDialectEvent(hook, event, hookPath, options.dialects ?? defaultDialectRegistry, report);
      if (hook.working_dir !== undefined) {
        const problem = workingDirProblem({
          written: hook.working_dir,
          resolved: path.resolve(options.projectDir, config.workingDir ?? hook.working_dir),
          projectDir: options.projectDir,
          home: options.home,
        });
        if (problem) report([...hookPath, 'working_dir'], problem);
      }
      return Object.freeze(config);
    });
    const ruleConfig: HookRuleConfig = {
      event,
      ruleIndex,
      hooks: Object.freeze(hooks) as HookCommandConfig[],
    };
    if (spec.matcher !== undefined) ruleConfig.matcher = spec.matcher;
    rules.push(Object.freeze(ruleConfig));
  }
  return rules;
}

function reportDialectEvent(
  hook: HookCommandInput,
  event: HookEvent,
  hookPath: JsonPath,
  dialects: DialectRegistry,
  report: Report,
): void {
  if (
    hook.dialect_event === undefined ||
    hook.protocol === undefined ||
    !dialects.has(hook.protocol)
  )
    return;
  const events = dialects.get(hook.protocol).events;
  if (events[hook.dialect_event] === event) return;
  const fitting = Object.keys(events).filter((name) => events[name] === event);
  report([...hookPath, 'dialect_event'], {
    problem: `${JSON.stringify(hook.dialect_event)} is not a ${hook.protocol} event of ${event}`,
    fix:
      fitting.length === 0
        ? `remove it (${hook.protocol} has no event for ${event})`
        : `use one of ${fitting.map((name) => JSON.stringify(name)).join(', ')}, or remove it`,
  });
}

function invalidHooks(
  document: JsonDocument,
  file: string,
  homeDir: string,
  issues: ConfigIssue[],
  cause: unknown,
): ConfigError {
  // A pasted Claude Code settings file: say so first, with the command that converts it.
  const hint = looksLikeClaudeSettings(document.value)
    ? [
        createIssue({
          file,
          homeDir,
          position: document.locate([]),
          text: {
            problem: 'this looks like a Claude Code settings file, not a soong-agent hooks.json',
            fix: 'move it aside and convert it with `soong-agent hooks import --from claude <settings file> --write`, which writes hooks.json here',
          },
        }),
      ]
    : [];
  return new ConfigError({
    code: 'CONFIG_INVALID',
    issues: [...hint, ...sortIssues(issues)],
    cause,
  });
}

/**
 * Hook names must be unique and must not look like default ids. Checked on the document as written
 * (every event key, misspelt ones included), so a type error elsewhere does not hide a duplicate.
 */
function reportNames(value: unknown, report: (jsonPath: JsonPath, text: IssueText) => void): void {
  const names = new Map<string, string>();
  for (const { jsonPath, value: events } of eventContainers(value)) {
    for (const [event, rules] of Object.entries(events)) {
      if (!Array.isArray(rules)) continue;
      for (const [ruleIndex, rule] of rules.entries()) {
        const hooks = isRecord(rule) ? rule.hooks : undefined;
        if (!Array.isArray(hooks)) continue;
        for (const [hookIndex, hook] of hooks.entries()) {
          const name = isRecord(hook) ? hook.name : undefined;
          if (typeof name !== 'string' || name.trim() === '') continue;
          const namePath = [...jsonPath, event, ruleIndex, 'hooks', hookIndex, 'name'];
          const earlier = names.get(name);
          if (earlier !== undefined) {
            report(namePath, {
              problem: `the name ${JSON.stringify(name)} is already used by ${earlier}`,
              fix: 'give each hook its own name (names are hook ids in logs)',
            });
          } else if (DEFAULT_ID_SHAPE.test(name)) {
            report(namePath, {
              problem: `${JSON.stringify(name)} looks like a default hook id`,
              fix: 'choose a name without [n][n], or remove it to use the default id',
            });
          }
          if (earlier === undefined) names.set(name, defaultHookId(event, ruleIndex, hookIndex));
        }
      }
    }
  }
}

/** `hooks`, plus a top-level key that is a misspelling of it holding an object. */
function eventContainers(value: unknown): { jsonPath: JsonPath; value: Record<string, unknown> }[] {
  if (!isRecord(value)) return [];
  const containers: { jsonPath: JsonPath; value: Record<string, unknown> }[] = [];
  for (const [key, inner] of Object.entries(value)) {
    if (!isRecord(inner)) continue;
    if (key === 'hooks' || (key !== '$schema' && closestMatch(key, ['hooks']) === 'hooks'))
      containers.push({ jsonPath: [key], value: inner });
  }
  return containers;
}

/**
 * The rule arrays the schema does not look into: under an event key that is not an event
 * (`PreTooluse`), or under any event key of a misspelt `hooks`. Their matchers are compiled for the
 * event that was probably meant.
 */
function locateStrayRules(value: unknown): {
  containers: { jsonPath: JsonPath; value: unknown }[];
  rules: StrayRule[];
  /** Keys of a misspelt `hooks` that are no event either (the schema reports those of `hooks`). */
  unknownEvents: JsonPath[];
} {
  const containers: { jsonPath: JsonPath; value: unknown }[] = [];
  const unknownEvents: JsonPath[] = [];
  const rules: StrayRule[] = [];
  for (const container of eventContainers(value)) {
    const misspelt = container.jsonPath[0] !== 'hooks';
    for (const [key, inner] of Object.entries(container.value)) {
      const known = (HOOK_EVENTS as readonly string[]).includes(key);
      if (known && !misspelt) continue;
      const jsonPath = [...container.jsonPath, key];
      if (!known && misspelt) unknownEvents.push(jsonPath);
      containers.push({ jsonPath, value: inner });
      if (!Array.isArray(inner)) continue;
      const event = known ? key : (closestMatch(key, HOOK_EVENTS) ?? 'PreToolUse');
      for (const [ruleIndex, rule] of inner.entries()) {
        const spec: RuleSpec = { event };
        if (isRecord(rule) && rule.matcher !== undefined) spec.matcher = rule.matcher;
        rules.push({ rulePath: [...jsonPath, ruleIndex], spec });
      }
    }
  }
  return { containers, rules, unknownEvents };
}

/** The rules of the known events, in file order (of the events, then of the rules). */
function locateRules(value: unknown): LocatedRule[] {
  const located: LocatedRule[] = [];
  const hooks = isRecord(value) ? value.hooks : undefined;
  if (!isRecord(hooks)) return located;
  for (const [event, rules] of Object.entries(hooks)) {
    if (!(HOOK_EVENTS as readonly string[]).includes(event) || !Array.isArray(rules)) continue;
    for (const [ruleIndex, rule] of rules.entries()) {
      const spec: RuleSpec = { event };
      if (isRecord(rule) && rule.matcher !== undefined) spec.matcher = rule.matcher;
      located.push({ event: event as HookEvent, ruleIndex, spec });
    }
  }
  return located;
}

function toHookConfig(
  hook: HookCommandInput,
  event: HookEvent,
  ruleIndex: number,
  hookIndex: number,
  options: { settings: Settings; projectDir: string; homeDir: string },
): HookCommandConfig {
  const config: HookCommandConfig = {
    id: hook.name ?? defaultHookId(event, ruleIndex, hookIndex),
    event,
    ruleIndex,
    hookIndex,
    command: hook.command,
    timeoutSec: hook.timeout ?? options.settings.hooks.default_timeout,
    onFailure: hook.on_failure ?? options.settings.hooks.on_failure,
    protocol: hook.protocol ?? 'soong',
    mode: hook.mode ?? 'spawn',
  };
  if (hook.name !== undefined) config.name = hook.name;
  if (hook.dialect_event !== undefined) config.dialectEvent = hook.dialect_event;
  if (hook.on_large_input !== undefined) config.onLargeInput = hook.on_large_input;
  if (hook.working_dir !== undefined) {
    config.workingDir = hook.working_dir.startsWith('~')
      ? resolveUserPath(hook.working_dir, options.projectDir, options.homeDir)
      : hook.working_dir;
  }
  return config;
}

// Matcher messages read "<what is wrong>; <fix>".
function splitMessage(message: string): IssueText {
  const separator = message.indexOf('; ');
  return separator === -1
    ? { problem: message }
    : { problem: message.slice(0, separator), fix: message.slice(separator + 2) };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
