import {
  compileRules,
  MatcherError,
  type MatcherRegistry,
  type RuleIndex,
  type RuleSpec,
} from '@soong-agent/matcher';
import { HOOK_EVENTS, type HookEvent } from '@soong-agent/protocol';
import type { HookCommandConfig, HookRuleConfig } from './compiled-hooks.js';
import { ConfigError, type ConfigIssue } from './config-error.js';
import type { Settings } from './config-file-schema.js';
import { type HooksFileInput, LoaderHooksFileSchema } from './hooks-file-schema.js';
import { createIssue, type IssueText, type JsonPath, sortIssues } from './issues.js';
import { isJsonSyntaxError, type JsonDocument, parseJsonDocument } from './json-document.js';
import { resolveUserPath } from './parse-settings.js';
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

const DEFAULT_ID_SHAPE = /^[A-Za-z]+\[\d+\]\[\d+\]$/;

/**
 * Parses, validates and compiles hooks.json text. Throws `CONFIG_PARSE_FAILED` for JSON syntax and
 * `CONFIG_INVALID` with every problem found otherwise (schema, duplicate keys and names, matchers).
 */
export function parseHooks(options: {
  text: string;
  file: string;
  homeDir: string;
  projectDir: string;
  settings: Settings;
  registry?: MatcherRegistry | undefined;
}): ParsedHooks {
  const { file, homeDir } = options;
  const document = parseJsonDocument(options.text);
  if (isJsonSyntaxError(document)) {
    throw new ConfigError({
      code: 'CONFIG_PARSE_FAILED',
      issues: [createIssue({ file, homeDir, position: document.position, text: document.text })],
    });
  }
  const issues: ConfigIssue[] = [];
  const report = (jsonPath: JsonPath, text: IssueText, atKey = false) =>
    issues.push(
      createIssue({ file, homeDir, position: document.locate(jsonPath, atKey), jsonPath, text }),
    );
  for (const duplicate of document.duplicateKeys) {
    issues.push(
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
  const parsed = LoaderHooksFileSchema.safeParse(document.value, { reportInput: true });
  if (!parsed.success) {
    for (const problem of describeZodIssues(parsed.error.issues, LoaderHooksFileSchema, {
      eventKeys: HOOK_EVENTS,
    })) {
      report(problem.jsonPath, problem.text, problem.atKey);
    }
  }
  if (!parsed.success || issues.length > 0) {
    throw new ConfigError({
      code: 'CONFIG_INVALID',
      issues: sortIssues(issues),
      cause: parsed.error,
    });
  }

  const { settings } = options;
  const rules: HookRuleConfig[] = [];
  const specs: RuleSpec[] = [];
  const names = new Map<string, string>();
  // File order of the events, not schema order: rules are in configuration order.
  const rawHooks = (document.value as { hooks?: Record<string, unknown> }).hooks ?? {};
  const events = Object.keys(rawHooks).filter((key): key is HookEvent =>
    (HOOK_EVENTS as readonly string[]).includes(key),
  );
  for (const event of events) {
    for (const [ruleIndex, rule] of (parsed.data.hooks?.[event] ?? []).entries()) {
      const hooks = rule.hooks.map((hook, hookIndex): HookCommandConfig => {
        const defaultId = `${event}[${ruleIndex}][${hookIndex}]`;
        const namePath = ['hooks', event, ruleIndex, 'hooks', hookIndex, 'name'];
        if (hook.name !== undefined) {
          const earlier = names.get(hook.name);
          if (earlier !== undefined) {
            report(namePath, {
              problem: `the name ${JSON.stringify(hook.name)} is already used by ${earlier}`,
              fix: 'give each hook its own name (names are hook ids in logs)',
            });
          } else if (DEFAULT_ID_SHAPE.test(hook.name)) {
            report(namePath, {
              problem: `${JSON.stringify(hook.name)} looks like a default hook id`,
              fix: 'choose a name without [n][n], or remove it to use the default id',
            });
          }
          names.set(hook.name, defaultId);
        }
        const config: HookCommandConfig = {
          id: hook.name ?? defaultId,
          event,
          ruleIndex,
          hookIndex,
          command: hook.command,
          timeoutSec: hook.timeout ?? settings.hooks.default_timeout,
          onFailure: hook.on_failure ?? settings.hooks.on_failure,
        };
        if (hook.name !== undefined) config.name = hook.name;
        if (hook.working_dir !== undefined) {
          config.workingDir = hook.working_dir.startsWith('~')
            ? resolveUserPath(hook.working_dir, options.projectDir, homeDir)
            : hook.working_dir;
        }
        return config;
      });
      const ruleConfig: HookRuleConfig = { event, ruleIndex, hooks };
      const spec: RuleSpec = { event };
      if (rule.matcher !== undefined) {
        ruleConfig.matcher = rule.matcher;
        spec.matcher = rule.matcher;
      }
      rules.push(ruleConfig);
      specs.push(spec);
    }
  }
  const rulePath = (position: number): JsonPath => {
    const rule = rules[position] as HookRuleConfig;
    return ['hooks', rule.event, rule.ruleIndex];
  };
  const compileOptions = {
    projectDir: options.projectDir,
    homeDir,
    ...(options.registry === undefined ? {} : { registry: options.registry }),
  };
  let index: RuleIndex | undefined;
  let compileError: unknown;
  try {
    index = compileRules(specs, compileOptions);
  } catch (error) {
    if (!MatcherError.isInstance(error) || error.ruleIndex === undefined) throw error;
    compileError = error;
    // compileRules stops at the first bad matcher; compile each rule alone to report them all.
    for (const [position, spec] of specs.entries()) {
      try {
        compileRules([spec], compileOptions);
      } catch (ruleError) {
        if (!MatcherError.isInstance(ruleError)) throw ruleError;
        const separator = ruleError.message.indexOf('; ');
        report(
          [...rulePath(position), ...ruleError.path],
          separator === -1
            ? { problem: ruleError.message }
            : {
                problem: ruleError.message.slice(0, separator),
                fix: ruleError.message.slice(separator + 2),
              },
          ruleError.code === 'UNKNOWN_MATCHER_TYPE',
        );
      }
    }
  }
  if (issues.length > 0) {
    throw new ConfigError({
      code: 'CONFIG_INVALID',
      issues: sortIssues(issues),
      cause: compileError,
    });
  }
  if (index === undefined) throw compileError;
  return { rules, specs, index, document, data: parsed.data, rulePath };
}
