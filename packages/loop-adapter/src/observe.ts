import type { LoadedConfig } from '@soong-agent/config';
import { type HookContextNode, renderHookContext } from '@soong-agent/protocol';
import type { EventSink } from './event-sink.js';
import type { HookEngine, HookOutcome } from './hook-engine.js';
import { summarizeText } from './summarize-text.js';

/**
 * The synthetic message that carries a hook-context node to the next model call: always role
 * `user` (never `system`), with the text of `renderHookContext`.
 */
export function hookContextToMessage(node: HookContextNode): { role: 'user'; content: string } {
  return { role: 'user', content: renderHookContext(node) };
}

/** Records `session_started` (call it first, right after creating the sink). */
export function recordSessionStarted(
  sink: EventSink,
  options: { projectDir: string; agentHome: string; source?: 'startup' | 'resume' },
): void {
  sink.emit({
    type: 'session_started',
    source: options.source ?? 'startup',
    project_dir: options.projectDir,
    agent_home: options.agentHome,
  });
}

/**
 * Records `config_loaded`: the hooks.json fingerprint, rule count, warning messages and whether
 * hooks are on. `extra` keys are added to the record (e.g. `{ no_hooks: true }`).
 */
export function recordConfigLoaded(
  sink: EventSink,
  config: LoadedConfig,
  extra: Record<string, unknown> = {},
): void {
  sink.emit({
    ...extra,
    type: 'config_loaded',
    hooks_fingerprint: config.hooksFingerprint,
    rules: config.hooks.ruleCount,
    warnings: config.warnings.map((warning) => warning.message),
    hooks_enabled: config.hooksEnabled,
  });
}

/** Runs the SessionStart hooks (observe only: a deny is recorded as `hook_decision_ignored`). */
export function runSessionStart(
  engine: HookEngine,
  options: { source?: 'startup' | 'resume'; signal?: AbortSignal } = {},
): Promise<HookOutcome> {
  return engine.run(
    'SessionStart',
    { source: options.source ?? 'startup' },
    { signal: options.signal },
  );
}

/**
 * Records `user_prompt_submitted` (the prompt bounded to head and tail) and runs the
 * UserPromptSubmit hooks, which get the full prompt (observe only).
 */
export function runUserPromptSubmit(
  engine: HookEngine,
  prompt: string,
  options: { signal?: AbortSignal } = {},
): Promise<HookOutcome> {
  engine.sink.emit({ type: 'user_prompt_submitted', prompt: summarizeText(prompt) });
  return engine.run('UserPromptSubmit', { prompt }, { signal: options.signal });
}
