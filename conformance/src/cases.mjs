// The cases, written from each agent's documentation and source (see README.md). A case is one
// hook on one event; the harness runs it under the real agent and under our dialect and compares.
//
// In the strings of a hook spec, {REASON} and {CONTEXT} become tokens unique to the case (the
// suite looks for them in what the model was told) and {ALT} a second marker file (a rewritten
// command touches it instead of the first).

/** @typedef {import('./agents.mjs').Agent} Agent */
/** @typedef {import('./agents.mjs').Event} Event */
/**
 * What the scripted hook does: print, exit, sleep; `once` acts on the first call only.
 * @typedef {{ stdout?: string, stderr?: string, exit?: number, sleepMs?: number, once?: boolean }} HookSpec
 */
/**
 * @typedef {object} Case
 * @property {string} id
 * @property {Event} event
 * @property {string} checks what the case checks, in one line
 * @property {(agent: Agent) => HookSpec | undefined} hook the hook's behaviour under an agent's
 *   dialect; undefined = the case does not apply to that agent (it has no such output)
 * @property {'shell' | 'other'} [matcher] tool events: the shell tool (default) or other tools only
 * @property {number} [timeoutSec]
 * @property {boolean} [toolFails] the model's shell command fails (exit 3) after touching its marker
 */

const json = (value) => JSON.stringify(value);

/** A PreToolUse deny in the agent's own words. */
function denyJson(agent) {
  switch (agent.name) {
    case 'gemini':
      return { decision: 'deny', reason: '{REASON}' };
    case 'copilot':
      return { permissionDecision: 'deny', permissionDecisionReason: '{REASON}' };
    default:
      return {
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'deny',
          permissionDecisionReason: '{REASON}',
        },
      };
  }
}

/** Added context in the agent's own words (`additionalContext`). */
function contextJson(agent, event) {
  if (agent.name === 'copilot') return { additionalContext: '{CONTEXT}' };
  return {
    hookSpecificOutput: { hookEventName: agent.events[event], additionalContext: '{CONTEXT}' },
  };
}

/** A rewrite of the shell command in the agent's own words. */
function rewriteJson(agent) {
  const command = 'touch {ALT}';
  switch (agent.name) {
    case 'gemini':
      return { decision: 'allow', hookSpecificOutput: { tool_input: { command } } };
    case 'copilot':
      return { permissionDecision: 'allow', modifiedArgs: { command, description: 'Run it' } };
    default:
      return {
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'allow',
          updatedInput: { command },
        },
      };
  }
}

const BLOCK = { decision: 'block', reason: '{REASON}' };

/** @type {Case[]} */
export const CASES = [
  // PreToolUse
  {
    id: 'pre-silent',
    event: 'PreToolUse',
    checks: 'exit 0 and no output: the tool runs',
    hook: () => ({ exit: 0 }),
  },
  {
    id: 'pre-exit2',
    event: 'PreToolUse',
    checks: 'exit 2 with a reason on stderr: blocked, the model gets the reason',
    hook: () => ({ stderr: 'blocked: {REASON}\n', exit: 2 }),
  },
  {
    id: 'pre-exit1',
    event: 'PreToolUse',
    checks: 'exit 1 with stderr: a hook error, not a block (Copilot: fail-closed)',
    hook: () => ({ stderr: 'crashed: {REASON}\n', exit: 1 }),
  },
  {
    id: 'pre-exit42',
    event: 'PreToolUse',
    checks: 'another non-zero exit (42): a hook error',
    hook: () => ({ stderr: 'odd exit: {REASON}\n', exit: 42 }),
  },
  {
    id: 'pre-json-deny',
    event: 'PreToolUse',
    checks: "the dialect's JSON deny on exit 0: blocked with its reason",
    hook: (agent) => ({ stdout: json(denyJson(agent)), exit: 0 }),
  },
  {
    id: 'pre-json-deny-exit1',
    event: 'PreToolUse',
    checks: 'a JSON deny with exit 1 (Claude Code: a valid JSON object decides on any exit)',
    hook: (agent) => ({ stdout: json(denyJson(agent)), exit: 1 }),
  },
  {
    id: 'pre-pretty-deny',
    event: 'PreToolUse',
    checks: 'a pretty-printed (multi-line) JSON deny',
    hook: (agent) => ({ stdout: `${JSON.stringify(denyJson(agent), null, 2)}\n`, exit: 0 }),
  },
  {
    id: 'pre-log-then-deny',
    event: 'PreToolUse',
    checks: 'log lines, then the JSON deny on the last line',
    hook: (agent) => ({
      stdout: `checking the command\nlooks risky\n${json(denyJson(agent))}\n`,
      exit: 0,
    }),
  },
  {
    id: 'pre-invalid-json',
    event: 'PreToolUse',
    checks: 'stdout that starts like JSON but is not: no decision',
    hook: () => ({ stdout: '{"decision": "deny", "reason": "{REASON}"', exit: 0 }),
  },
  {
    id: 'pre-unknown-keys',
    event: 'PreToolUse',
    checks: 'a JSON deny with unknown top-level keys: still a deny',
    hook: (agent) => ({
      stdout: json({ ...denyJson(agent), hook: 'guard', status: 'ok' }),
      exit: 0,
    }),
  },
  {
    id: 'pre-decision-allow',
    event: 'PreToolUse',
    checks: '{"decision":"allow"} (not a value Claude Code or Codex accept): the tool runs',
    hook: () => ({ stdout: json({ decision: 'allow' }), exit: 0 }),
  },
  {
    id: 'pre-legacy-block',
    event: 'PreToolUse',
    checks: 'the legacy top-level {"decision":"block","reason"}',
    hook: () => ({ stdout: json(BLOCK), exit: 0 }),
  },
  {
    id: 'pre-continue-false',
    event: 'PreToolUse',
    checks: '{"continue":false,"stopReason"}: the call does not run',
    hook: (agent) =>
      agent.name === 'copilot'
        ? undefined
        : { stdout: json({ continue: false, stopReason: '{REASON}' }), exit: 0 },
  },
  {
    id: 'pre-rewrite',
    event: 'PreToolUse',
    checks: 'a rewrite of the command (updatedInput / tool_input / modifiedArgs)',
    hook: (agent) => ({ stdout: json(rewriteJson(agent)), exit: 0 }),
  },
  {
    id: 'pre-matcher-other',
    event: 'PreToolUse',
    matcher: 'other',
    checks: 'a deny hook whose matcher names only file-edit tools: it does not fire for the shell',
    hook: () => ({ stderr: '{REASON}\n', exit: 2 }),
  },
  {
    id: 'pre-timeout',
    event: 'PreToolUse',
    timeoutSec: 2,
    checks: 'a hook that outlives its 2 s timeout (then would deny): a failure, the call goes on',
    hook: () => ({ sleepMs: 8000, stderr: '{REASON}\n', exit: 2 }),
  },
  // PostToolUse
  {
    id: 'post-exit2',
    event: 'PostToolUse',
    checks: 'exit 2 after the tool ran: stderr is fed back to the model',
    hook: () => ({ stderr: 'post check: {REASON}\n', exit: 2 }),
  },
  {
    id: 'post-json-block',
    event: 'PostToolUse',
    checks: '{"decision":"block","reason"} after the tool ran: the reason is fed back',
    hook: (agent) => (agent.name === 'copilot' ? undefined : { stdout: json(BLOCK), exit: 0 }),
  },
  {
    id: 'post-context',
    event: 'PostToolUse',
    checks: 'additionalContext after the tool ran',
    hook: (agent) => ({ stdout: json(contextJson(agent, 'PostToolUse')), exit: 0 }),
  },
  {
    id: 'post-tool-failed',
    event: 'PostToolUse',
    toolFails: true,
    checks: 'a PostToolUse hook when the command fails (Claude Code: only PostToolUseFailure runs)',
    hook: () => ({ exit: 0 }),
  },
  // UserPromptSubmit
  {
    id: 'prompt-exit2',
    event: 'UserPromptSubmit',
    checks: 'exit 2 on the prompt: the prompt is blocked, the model is never called',
    hook: () => ({ stderr: 'prompt refused: {REASON}\n', exit: 2 }),
  },
  {
    id: 'prompt-json-block',
    event: 'UserPromptSubmit',
    checks: '{"decision":"block"} on the prompt',
    hook: (agent) => (agent.name === 'copilot' ? undefined : { stdout: json(BLOCK), exit: 0 }),
  },
  {
    id: 'prompt-stdout-context',
    event: 'UserPromptSubmit',
    checks: 'plain stdout on the prompt: added context',
    hook: () => ({ stdout: 'Project note: {CONTEXT}\n', exit: 0 }),
  },
  {
    id: 'prompt-json-context',
    event: 'UserPromptSubmit',
    checks: 'additionalContext on the prompt',
    hook: (agent) => ({ stdout: json(contextJson(agent, 'UserPromptSubmit')), exit: 0 }),
  },
  // SessionStart
  {
    id: 'session-stdout-context',
    event: 'SessionStart',
    checks: 'plain stdout at session start: added context',
    hook: () => ({ stdout: 'Session note: {CONTEXT}\n', exit: 0 }),
  },
  {
    id: 'session-json-context',
    event: 'SessionStart',
    checks: 'additionalContext at session start',
    hook: (agent) => ({ stdout: json(contextJson(agent, 'SessionStart')), exit: 0 }),
  },
  {
    id: 'session-exit2',
    event: 'SessionStart',
    checks: 'exit 2 at session start: nothing is blocked',
    hook: () => ({ stderr: '{REASON}\n', exit: 2 }),
  },
  // Stop
  {
    id: 'stop-exit2-once',
    event: 'Stop',
    checks: 'exit 2 on the first stop: the loop goes on with the reason, then ends',
    hook: () => ({ stderr: 'not yet: {REASON}\n', exit: 2, once: true }),
  },
  {
    id: 'stop-json-block-once',
    event: 'Stop',
    checks: '{"decision":"block","reason"} on the first stop: the loop goes on, then ends',
    hook: () => ({ stdout: json(BLOCK), exit: 0, once: true }),
  },
  {
    id: 'stop-exit1',
    event: 'Stop',
    checks: 'exit 1 on stop: a hook error, the loop ends',
    hook: () => ({ stderr: '{REASON}\n', exit: 1 }),
  },
];
