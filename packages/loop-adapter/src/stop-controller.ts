import type { HookContextNode } from '@soong-agent/protocol';
import type { EventSink } from './event-sink.js';
import type { HookEngine, HookOutcome } from './hook-engine.js';
import { checkOption } from './loop-adapter-error.js';

/** Options of {@link createStopController}. */
export interface StopControllerOptions {
  /** Runs the Stop hooks. */
  engine: HookEngine;
  /** Where `stop_hook_prevented` / `stop_hook_limit_reached` go (normally the engine's sink). */
  sink: EventSink;
  /** `hooks.stop_loop_limit`: prevented stops honoured per loop; 0 = no limit. */
  limit: number;
}

/** What to do when the model ends a turn without tool calls. */
export type StopDecision =
  | { continue: false; outcome?: HookOutcome }
  | { continue: true; node: HookContextNode; outcome: HookOutcome };

/** Stop handling for one loop (spec §4); see {@link createStopController}. */
export interface StopController {
  /**
   * Call when the model ends a turn without tool calls. `continue: true` means a Stop hook
   * prevented completion: append `node` to the session and call the model again.
   */
  onModelStop(
    lastAssistantMessage: string,
    options?: { signal?: AbortSignal },
  ): Promise<StopDecision>;
  /**
   * Call on a new user prompt: the count and reasons start over. `prompt`, when given, is sent to
   * the loop's Stop hooks as `prompt` (Gemini CLI's AfterAgent reads it). @default undefined
   */
  reset(prompt?: string): void;
  /** Stop denials in this loop so far. */
  readonly preventedCount: number;
  /** Their reasons, oldest first. */
  readonly previousReasons: readonly string[];
}

/**
 * Counts Stop denials per loop and runs the Stop hooks with `stop_hook_active`, `prevented_count`,
 * `previous_reasons` and `last_assistant_message`. On a deny it records `stop_hook_prevented` and
 * returns a hook-context node; once `limit` stops were prevented, the next stop goes through without
 * running hooks and `stop_hook_limit_reached` is recorded. The caller records `loop_ended`.
 */
export function createStopController(options: StopControllerOptions): StopController {
  const { engine, sink, limit } = options;
  checkOption(
    Number.isInteger(limit) && limit >= 0,
    'limit',
    limit,
    'pass hooks.stop_loop_limit, an integer >= 0 (0 = no limit)',
  );
  const reasons: string[] = [];
  let loopPrompt: string | undefined;
  return {
    get preventedCount() {
      return reasons.length;
    },
    get previousReasons() {
      return reasons;
    },
    reset(prompt) {
      reasons.length = 0;
      loopPrompt = typeof prompt === 'string' ? prompt : undefined;
    },
    async onModelStop(lastAssistantMessage, stopOptions = {}) {
      if (limit > 0 && reasons.length >= limit) {
        sink.emit({ type: 'stop_hook_limit_reached', limit, prevented_count: reasons.length });
        return { continue: false };
      }
      const outcome = await engine.run(
        'Stop',
        {
          stop_hook_active: reasons.length > 0,
          prevented_count: reasons.length,
          previous_reasons: [...reasons],
          last_assistant_message: lastAssistantMessage,
          ...(loopPrompt === undefined ? {} : { prompt: loopPrompt }),
        },
        { signal: stopOptions.signal },
      );
      if (outcome.decision !== 'deny' || outcome.hookId === undefined)
        return { continue: false, outcome };
      const reason = outcome.reason ?? `denied by hook ${outcome.hookId}`;
      reasons.push(reason);
      sink.emit({
        type: 'stop_hook_prevented',
        hook_id: outcome.hookId,
        event: 'Stop',
        reason,
        prevented_count: reasons.length,
      });
      return {
        continue: true,
        node: { kind: 'hook_context', event: 'Stop', hook_id: outcome.hookId, reason },
        outcome,
      };
    },
  };
}
