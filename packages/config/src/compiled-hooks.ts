import type { MatchSubject, RuleIndex } from '@soong-agent/matcher';
import type { GuardedPrefix, GuardReader, RuleExplanation } from '@soong-agent/matcher/internal';
import type { HookEvent } from '@soong-agent/protocol';
import type { HookMode, HookProtocol } from './hooks-file-schema.js';

/** One hook command with every default resolved. */
export interface HookCommandConfig {
  /** The hook id in every log record: its `name`, else `<Event>[<ruleIndex>][<hookIndex>]`. */
  id: string;
  /** The event whose rule holds the hook. */
  event: HookEvent;
  /** Zero-based index of the rule within its event. */
  ruleIndex: number;
  /** Zero-based index of the hook within its rule. */
  hookIndex: number;
  /** The `name` as written, when given. */
  name?: string;
  /** The shell command, run by `/bin/sh -c`. */
  command: string;
  /** Timeout in seconds: the hook's `timeout`, else `hooks.default_timeout`. */
  timeoutSec: number;
  /** `working_dir` as written, `~/…` expanded; a relative one is resolved against the project dir by the caller. */
  workingDir?: string;
  /** What a failure means: the hook's `on_failure`, else `hooks.on_failure`. */
  onFailure: 'ignore' | 'deny';
  /** The protocol the hook speaks: its `protocol`, else `"soong"` (spec §7). */
  protocol: HookProtocol;
  /**
   * The agent's own event the hook was written for (`dialect_event`), when its protocol's agent has
   * several events for this one of ours (spec §12); absent: the dialect's main event.
   */
  dialectEvent?: string;
  /**
   * A dialect hook whose agent passes the tool input whole (Claude Code, up to 1 MiB): what happens
   * when the input is larger (`on_large_input`): `deny` (default) denies the call without running the
   * hook; `summarize` runs it on the bounded input (long strings summarised, spec §2.1). Absent
   * when hooks.json does not say (then `deny`).
   */
  onLargeInput?: 'deny' | 'summarize';
  /** How the hook runs: its `mode`, else `"spawn"` (spec §8). */
  mode: HookMode;
}

/** One rule of hooks.json with its hooks. */
export interface HookRuleConfig {
  /** The event the rule belongs to. */
  event: HookEvent;
  /** Zero-based index of the rule within its event. */
  ruleIndex: number;
  /** The matcher as written (object or bare tool name); absent = every occurrence of the event. */
  matcher?: unknown;
  /** The rule's hooks, in order. */
  hooks: HookCommandConfig[];
}

/** A rule explanation joined with its rule; `ruleIndex` is the index within the event. */
export type HookRuleExplanation = RuleExplanation & { rule: HookRuleConfig };

/** A guarded prefix joined with its rule; `ruleIndex` is the index within the event. */
export type HookGuardedPrefix = GuardedPrefix & { rule: HookRuleConfig };

/** hooks.json compiled into rules, ready to match. */
export interface CompiledHooks {
  /** Every rule of every event, in configuration order (file order of events, then rule order). */
  readonly rules: readonly HookRuleConfig[];
  /** Number of rules. */
  readonly ruleCount: number;
  /** The hooks of the rules of `subject.event` that match, in configuration order (a fresh array). */
  match(subject: MatchSubject): HookCommandConfig[];
  /** For each rule of `subject.event`: matched, or the criterion that failed. */
  explain(subject: MatchSubject): HookRuleExplanation[];
  /**
   * The `path_prefix` values a call must not reach into: those of the rules of `call.event` whose
   * `tool` and `tag` criteria match `call` or one of `readers`, unless the call's paths as written
   * lie under them (then the rule's hooks ran on the call). See `RuleIndex.guardedPrefixes` in
   * @soong-agent/matcher.
   */
  guardedPrefixes(call: MatchSubject, readers?: readonly GuardReader[]): HookGuardedPrefix[];
}

/** Joins rules with their compiled index (`index` positions are positions in `rules`). */
export function createCompiledHooks(
  rules: readonly HookRuleConfig[],
  index: RuleIndex | undefined,
): CompiledHooks {
  const frozenRules = Object.freeze([...rules]);
  return Object.freeze({
    rules: frozenRules,
    ruleCount: frozenRules.length,
    match(subject: MatchSubject): HookCommandConfig[] {
      const hooks: HookCommandConfig[] = [];
      if (index === undefined) return hooks;
      const matched = index.match(subject);
      for (const position of matched) hooks.push(...(frozenRules[position]?.hooks ?? []));
      return hooks;
    },
    explain(subject: MatchSubject): HookRuleExplanation[] {
      if (index === undefined) return [];
      return index.explain(subject).map((explanation) => {
        const rule = frozenRules[explanation.ruleIndex] as HookRuleConfig;
        return { ...explanation, ruleIndex: rule.ruleIndex, rule };
      });
    },
    guardedPrefixes(call: MatchSubject, readers?: readonly GuardReader[]): HookGuardedPrefix[] {
      if (index === undefined) return [];
      return index.guardedPrefixes(call, readers).map((guard) => {
        const rule = frozenRules[guard.ruleIndex] as HookRuleConfig;
        return { ...guard, ruleIndex: rule.ruleIndex, rule };
      });
    },
  });
}

/** Compiled hooks with no rules: what disabled or absent hooks mean. */
export function emptyCompiledHooks(): CompiledHooks {
  return createCompiledHooks([], undefined);
}
