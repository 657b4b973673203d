import type { HookEvent } from '@soong-agent/protocol';
import type { DialectLog, DialectRun, DialectVerdict } from './dialect.js';
import {
  answerKeepingDeny,
  brokenJsonVerdict,
  CLAUDE_CONTEXT_EVENTS,
  claudeContext,
  depthChecked,
  failedExit,
  ignoredKeysWarning,
  isRecord,
  optionalReason,
  type StdoutAnswer,
  textOf,
  unknownKeysOf,
  word,
} from './shared.js';

/**
 * The Claude Code answer rules, as Codex reads them (Copilot's PascalCase entries are converted to
 * `claude-code` hooks, which `claude-code.ts` decides): exit 0 with a
 * JSON object decides through `hookSpecificOutput.permissionDecision`, legacy `decision`
 * (`block`/`approve`) and `continue: false`; exit 2 blocks with stderr; other exits fail. Every
 * spelling of a deny stands (a wrong case, a missing reason, a non-zero exit after it: spec §2.2);
 * keys that would patch are named in one warning; the context it adds is the verdict's `context`
 * (spec §13.1).
 */
export function decideClaudeLike(
  agent: string,
  event: HookEvent,
  run: DialectRun,
  rules: ClaudeLikeRules = {},
): DialectVerdict {
  const logs: DialectLog[] = [];
  const answer = answerKeepingDeny(
    run.stdout,
    logs,
    (rescued) => verdictOf(agent, event, rescued, []).decision === 'deny',
    { why: ` (${agent} reads stdout as one JSON object)` },
  );
  const verdict = depthChecked(verdictOfRun(agent, event, run, answer, logs, rules), answer);
  return { ...verdict, ...claudeContext(event, run, answer.json, verdict) };
}

/** Where an agent reads Claude Code's answers more strictly than Claude Code. */
export interface ClaudeLikeRules {
  /**
   * `{"decision": "allow"}` on PreToolUse is invalid output (Codex, spec §13.2): the hook failed
   * (`protocol_error`, so `on_failure` applies) and the call goes on. @default false
   */
  legacyAllowFails?: boolean;
}

function verdictOfRun(
  agent: string,
  event: HookEvent,
  run: DialectRun,
  answer: StdoutAnswer,
  logs: DialectLog[],
  rules: ClaudeLikeRules,
): DialectVerdict {
  const { json } = answer;
  const warnings: string[] = [];
  const verdict =
    json === undefined ? ({ decision: 'none' } as const) : verdictOf(agent, event, json, warnings);
  if (json !== undefined) {
    logs.push(
      ...ignoredKeysWarning(
        agent,
        unknownKeysOf(json, KNOWN, {
          hookSpecificOutput: CLAUDE_CONTEXT_EVENTS.has(event)
            ? KNOWN_SPECIFIC_WITH_CONTEXT
            : KNOWN_SPECIFIC,
        }),
      ),
    );
  }
  for (const message of warnings) logs.push({ source: 'warning', message });
  if (run.exitCode === 2) {
    const stderr = textOf(run.stderrTail);
    const reason = stderr ?? ('reason' in verdict ? verdict.reason : undefined);
    if (stderr === undefined) {
      logs.push({
        source: 'warning',
        message: `exit 2 without a reason on stderr (${agent} would record an error and let the call through); the deny stands here`,
      });
    }
    return { decision: 'deny', ...optionalReason(reason), exitCode: 2, logs };
  }
  if (run.exitCode !== 0) {
    return failedExit(run, logs, verdict.decision === 'deny' ? verdict : undefined);
  }
  if (
    rules.legacyAllowFails === true &&
    event === 'PreToolUse' &&
    json !== undefined &&
    word(json.decision) === 'allow' &&
    verdict.decision !== 'deny'
  ) {
    return {
      decision: 'none',
      failure: {
        kind: 'protocol_error',
        message: `"decision": ${JSON.stringify(json.decision)} is not valid PreToolUse output in ${agent} (its "decision" is "approve" or "block"; to allow, print hookSpecificOutput.permissionDecision "allow"): ${agent} fails the hook and the call goes on`,
      },
      logs,
    };
  }
  return (
    brokenJsonVerdict(run.stdout, answer, logs, ` (${agent} would fail this hook and go on)`) ?? {
      ...verdict,
      exitCode: 0,
      logs,
    }
  );
}

const KNOWN = new Set([
  'continue',
  'stopReason',
  'decision',
  'reason',
  'permissionDecision',
  'hookSpecificOutput',
]);
const KNOWN_SPECIFIC = new Set(['hookEventName', 'permissionDecision', 'permissionDecisionReason']);
const KNOWN_SPECIFIC_WITH_CONTEXT = new Set([...KNOWN_SPECIFIC, 'additionalContext']);

type Verdict =
  | { decision: 'deny' | 'allow' | 'ask'; reason?: string }
  | { decision: 'none'; reason?: string };

function verdictOf(
  agent: string,
  event: HookEvent,
  json: Record<string, unknown>,
  warnings: string[],
): Verdict {
  const specific = isRecord(json.hookSpecificOutput) ? json.hookSpecificOutput : {};
  const reason = textOf(json.reason);
  const stopReason = textOf(json.stopReason);
  const permissionValue = specific.permissionDecision ?? json.permissionDecision;
  const permission = word(permissionValue);
  const decision = word(json.decision);
  const permissionReason = textOf(specific.permissionDecisionReason) ?? reason;
  const misspelling = (value: unknown, expected: readonly string[]) => {
    if (typeof value === 'string' && !expected.includes(value)) {
      warnings.push(
        `${JSON.stringify(value)} is not how ${agent} spells it (${expected.map((item) => JSON.stringify(item)).join(', ')}); read as ${JSON.stringify(value.trim().toLowerCase())}`,
      );
    }
  };
  // A deny from any field wins: a contradicting or ignored key never turns it into an allow.
  if (event === 'PreToolUse' && (permission === 'deny' || decision === 'deny')) {
    misspelling(
      permission === 'deny' ? permissionValue : json.decision,
      permission === 'deny' ? ['deny'] : ['block'],
    );
    return { decision: 'deny', ...optionalReason(permissionReason) };
  }
  if (decision === 'block' || (decision === 'deny' && event === 'Stop')) {
    misspelling(json.decision, ['block']);
    return { decision: 'deny', ...optionalReason(reason) };
  }
  if (json.continue === false || word(json.continue) === 'false') {
    if (json.continue !== false)
      warnings.push(
        `"continue": ${JSON.stringify(json.continue)} is not the boolean false; read as false`,
      );
    if (event === 'PreToolUse')
      return { decision: 'deny', ...optionalReason(stopReason ?? reason) };
    warnings.push(
      event === 'Stop'
        ? `continue: false${stopReason === undefined ? '' : `: ${stopReason}`}; the stop goes through`
        : `continue: false${stopReason === undefined ? '' : `: ${stopReason}`}; recorded, the session goes on (hooks here cannot end it)`,
    );
    return { decision: 'none' };
  }
  if (event === 'PreToolUse' && permission === 'ask') {
    misspelling(permissionValue, ['ask']);
    return { decision: 'ask', ...optionalReason(permissionReason) };
  }
  if (
    event === 'PreToolUse' &&
    (permission === 'allow' || decision === 'approve' || decision === 'allow')
  ) {
    return { decision: 'allow', ...optionalReason(permissionReason) };
  }
  if (permissionValue !== undefined && event === 'PreToolUse' && permission !== 'defer') {
    warnings.push(
      `permissionDecision ${JSON.stringify(permissionValue)} is not one ${agent} knows (allow, deny, ask); no decision`,
    );
  }
  if (json.decision !== undefined && decision !== 'approve' && decision !== 'allow') {
    warnings.push(
      `decision ${JSON.stringify(json.decision)} is not one ${agent} knows ("block"); no decision`,
    );
  }
  return { decision: 'none' };
}
