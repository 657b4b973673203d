import path from 'node:path';
import { type HookEvent, isBlockingEvent } from '@soong-agent/protocol';
import { CLAUDE_CODE_TOOL_INPUT_BYTES } from './claude-code.js';
import {
  addEnvironmentNote,
  CLAUDE_CODE_FORMAT,
  otherAgentHint,
  pluginRootOf,
} from './convert/claude.js';
import { type Conversion, type ConvertedHook, shellQuote } from './convert/conversion.js';
import { convertGrouped, type GroupedFormat, type HookContext } from './convert/grouped.js';
import type { ToolCatalog } from './convert/tool-matcher.js';
import { decideClaudeLike } from './decode-claude-like.js';
import type {
  ConvertOptions,
  ConvertResult,
  Dialect,
  DialectContext,
  DialectRun,
} from './dialect.js';
import {
  CLAUDE_CONTEXT_EVENTS,
  isRecord,
  resultText,
  stopHookActive,
  stringField,
  toolOf,
  viewOf,
} from './shared.js';

/**
 * OpenAI Codex CLI (`codex-rs/hooks`): Claude Code's event names and answer rules, its own tool
 * names (`Bash` for every shell tool, `apply_patch` for every file edit, with the patch text as
 * `tool_input.command`), `turn_id` and `model` in the input, exact matchers of `[A-Za-z0-9_|]`.
 */

const TOOL_NAMES: Readonly<Record<string, string>> = Object.freeze({
  bash: 'Bash',
  write_file: 'apply_patch',
  edit_file: 'apply_patch',
});

const EVENTS: Readonly<Record<string, HookEvent>> = Object.freeze({
  SessionStart: 'SessionStart',
  UserPromptSubmit: 'UserPromptSubmit',
  PreToolUse: 'PreToolUse',
  PostToolUse: 'PostToolUse',
  Stop: 'Stop',
  PreCompact: 'PreCompact',
  SubagentStart: 'SubagentStart',
  SubagentStop: 'SubagentStop',
});

/**
 * A `*** Begin Patch` … `*** End Patch` text as Codex's model writes it for `apply_patch`: an
 * `*** Add File:` hunk (every line `+`) for a write, an `*** Update File:` hunk (`-` old lines, `+`
 * new lines) for an edit. Paths relative to the project dir, as Codex patches are.
 */
export function codexPatch(tool: string, input: unknown, projectDir: string): string {
  const fields = isRecord(input) ? input : {};
  const target = typeof fields.path === 'string' ? fields.path : '';
  const absolute = path.resolve(projectDir, target);
  const relative = path.relative(projectDir, absolute);
  const shown =
    relative === '' || relative.startsWith('..') || path.isAbsolute(relative) ? absolute : relative;
  const lines = (text: unknown, prefix: string) => {
    const value = typeof text === 'string' ? text : '';
    const split = value.split('\n');
    if (split.length > 1 && split.at(-1) === '') split.pop();
    return split.map((line) => `${prefix}${line}`);
  };
  const body =
    tool === 'write_file'
      ? [`*** Add File: ${shown}`, ...lines(fields.content, '+')]
      : [
          `*** Update File: ${shown}`,
          '@@',
          ...lines(fields.old_string, '-'),
          ...lines(fields.new_string, '+'),
        ];
  return ['*** Begin Patch', ...body, '*** End Patch', ''].join('\n');
}

function toolInput(projectDir: string) {
  return (ours: string, input: unknown): unknown => {
    if (ours === 'write_file' || ours === 'edit_file')
      return { command: codexPatch(ours, input, projectDir) };
    if (ours === 'bash') {
      const fields = isRecord(input) ? input : {};
      return { command: typeof fields.command === 'string' ? fields.command : '' };
    }
    return input;
  };
}

function encodeInput(
  event: HookEvent,
  input: Readonly<Record<string, unknown>>,
  context: DialectContext,
): Record<string, unknown> {
  const payload: Record<string, unknown> = { session_id: context.sessionId };
  if (event !== 'SessionStart') payload.turn_id = context.turnId ?? `${context.sessionId}-turn`;
  Object.assign(payload, {
    transcript_path: context.transcriptPath,
    cwd: context.projectDir,
    hook_event_name: event,
    model: context.model ?? 'unknown',
    permission_mode: 'default',
  });
  switch (event) {
    case 'PreToolUse':
    case 'PostToolUse':
    case 'PostToolUseFailure': {
      const tool = toolOf(input);
      const view = viewOf(tool, context, TOOL_NAMES, toolInput(context.projectDir));
      payload.tool_name = view.name;
      payload.tool_input = view.input;
      if (event !== 'PreToolUse') payload.tool_response = resultText(input).text;
      // Codex has no failure event; a codex hook put on ours gets PostToolUse's payload and `error`.
      if (event === 'PostToolUseFailure') payload.error = stringField(input, 'error');
      payload.tool_use_id = tool.call_id;
      break;
    }
    case 'PreCompact':
      payload.trigger = stringField(input, 'trigger');
      break;
    case 'SubagentStart':
    case 'SubagentStop':
      payload.agent_id = stringField(input, 'agent_id');
      payload.agent_type = stringField(input, 'agent_type');
      if (event === 'SubagentStop') {
        if (typeof input.agent_transcript_path === 'string')
          payload.agent_transcript_path = input.agent_transcript_path;
        payload.stop_hook_active = input.stop_hook_active === true;
        payload.last_assistant_message = stringField(input, 'last_assistant_message');
      }
      break;
    case 'UserPromptSubmit':
      payload.prompt = stringField(input, 'prompt');
      break;
    case 'Stop':
      payload.stop_hook_active = stopHookActive(input);
      payload.last_assistant_message = stringField(input, 'last_assistant_message');
      break;
    case 'SessionStart':
      payload.source = stringField(input, 'source') || 'startup';
      break;
  }
  return payload;
}

const EXACT = /^[A-Za-z0-9_|]*$/;

/** Codex's hook-facing tool names and matcher aliases → ours. */
export const CODEX_CATALOG: ToolCatalog = {
  agent: 'Codex',
  names: {
    Bash: 'bash',
    apply_patch: ['write_file', 'edit_file'],
    Edit: ['write_file', 'edit_file'],
    Write: ['write_file', 'edit_file'],
    spawn_agent: null,
    Agent: null,
  },
  isExact: (matcher) => EXACT.test(matcher),
  splitExact: (matcher) => matcher.split('|').filter((name) => name !== ''),
  mcpName: CLAUDE_CODE_FORMAT.catalog.mcpName,
  mcpServerOfPrefix: CLAUDE_CODE_FORMAT.catalog.mcpServerOfPrefix,
  mcpProbe: CLAUDE_CODE_FORMAT.catalog.mcpProbe,
  invalidRegex: 'reject',
};

const HANDLED = new Set(['type', 'command', 'timeout', 'async', 'statusMessage', 'commandWindows']);

function convertCodexHook(
  hook: Record<string, unknown>,
  context: HookContext,
): ConvertedHook | undefined {
  const { path: hookPath, conversion, event } = context;
  if (
    !conversion.commandType(
      hook.type,
      `${hookPath}.type`,
      false,
      ' (Codex itself runs only command hooks)',
    )
  )
    return undefined;
  if (hook.async === true && isBlockingEvent(event)) {
    conversion.refuse(
      `${hookPath}.async`,
      `an async ${event} hook cannot block in Codex, but every ${event} hook can here: remove "async" if it should block`,
    );
    return undefined;
  }
  const source = conversion.command(hook.command, `${hookPath}.command`);
  if (source === undefined) return undefined;
  let command = source;
  const root = pluginRootOf(context.options);
  if (root !== undefined) {
    const quoted = shellQuote(root);
    command = `PLUGIN_ROOT=${quoted}; CLAUDE_PLUGIN_ROOT=${quoted}; export PLUGIN_ROOT CLAUDE_PLUGIN_ROOT; ${command}`;
  } else if (/\bPLUGIN_ROOT\b|CLAUDE_PLUGIN_ROOT/.test(command)) {
    conversion.refuse(
      `${hookPath}.command`,
      "uses PLUGIN_ROOT, which Codex sets only for the hooks of a plugin: import the plugin's hooks file with --plugin-root <the plugin folder>",
    );
    return undefined;
  }
  const converted: ConvertedHook = { type: 'command', command, protocol: 'codex' };
  const name = conversion.nameFor(source);
  if (name !== undefined) converted.name = name;
  const timeout = conversion.timeout(hook.timeout, `${hookPath}.timeout`, { fallback: 600 });
  if (timeout === false) return undefined;
  if (timeout !== undefined) converted.timeout = timeout;
  if (hook.async === true) {
    conversion.note(
      `${hookPath}.async`,
      'Codex runs this hook detached; here it runs in order with the others and the session waits for it (up to its timeout)',
    );
  }
  if (hook.commandWindows !== undefined)
    conversion.note(`${hookPath}.commandWindows`, 'dropped (hooks here run by /bin/sh)');
  if (hook.statusMessage !== undefined)
    conversion.note(`${hookPath}.statusMessage`, 'dropped (soong-agent shows no hook status line)');
  conversion.dropUnknownKeys(hook, HANDLED, hookPath);
  if (event === 'PreToolUse' && /updatedInput/.test(source)) {
    conversion.note(
      `${hookPath} (${converted.name ?? 'unnamed'})`,
      "Codex applies this hook's updatedInput to the call; here the call runs as the model wrote it (the key is logged as ignored)",
    );
  }
  return converted;
}

const CODEX_FORMAT: GroupedFormat = {
  agent: 'Codex',
  events: EVENTS,
  unsupported: Object.fromEntries(
    ['PermissionRequest', 'PostCompact', 'StopFailure'].map((event) => [
      event,
      `soong-agent has no ${event} event (of Codex's events it has SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, Stop, PreCompact, SubagentStart, SubagentStop)`,
    ]),
  ),
  toolEvents: new Set(['PreToolUse', 'PostToolUse']),
  sourceEvents: new Set(['SessionStart']),
  catalog: CODEX_CATALOG,
  convertHook: convertCodexHook,
  settingsNotes: notifyNote,
  otherFormatHint: otherAgentHint,
};

/**
 * `notify = ["prog", "arg"]` of config.toml (the CLI passes it beside `hooks`): Codex runs it after
 * each turn with its payload as the last argument. Not converted (our hooks read stdin); the note
 * names the equivalent, a Stop hook that answers nothing.
 */
function notifyNote(settings: Record<string, unknown>, conversion: Conversion): void {
  const notify = settings.notify;
  if (notify === undefined) return;
  if (
    !Array.isArray(notify) ||
    notify.length === 0 ||
    !notify.every((word) => typeof word === 'string')
  ) {
    conversion.note(
      'notify',
      `${JSON.stringify(notify)} is not an array of program and arguments (Codex ignores it too); not converted`,
    );
    return;
  }
  const command = `${notify.map(shellQuote).join(' ')} "$(cat)"`;
  conversion.note(
    'notify',
    `runs ${notify.map(shellQuote).join(' ')} when a Codex turn completes, with a JSON payload ({"type": "agent-turn-complete", "last-assistant-message", …}) as its last argument; not converted: soong-agent hooks get their input on stdin, not as an argument. The equivalent is a Stop hook (it runs when the agent finishes its turn; it only observes as long as it prints nothing): {"Stop": [{"hooks": [{"type": "command", "command": ${JSON.stringify(command)}}]}]} passes soong-agent's Stop input (last_assistant_message, no "type") as that argument, so check the script reads those fields`,
  );
}

/** Codex's hooks.json (or the `[hooks]` table of config.toml, given as JSON `{"hooks": …}`). Pure. */
export function convertCodexConfig(text: string, options: ConvertOptions = {}): ConvertResult {
  const result = convertGrouped(CODEX_FORMAT, text, options);
  addEnvironmentNote(result, 'Codex');
  return result;
}

/** The `codex` dialect (spec §12). */
export const codexDialect: Dialect = Object.freeze({
  name: 'codex',
  // The agent passes the tool input whole, so a content scanner sees it all, as in the agent.
  toolInputBytes: CLAUDE_CODE_TOOL_INPUT_BYTES,
  toolNames: TOOL_NAMES,
  events: EVENTS,
  encodeInput,
  env: () => ({}),
  // Claude Code's context events that Codex has (no PostToolUseFailure there).
  contextEvents: Object.freeze(
    [...CLAUDE_CONTEXT_EVENTS].filter((event) => Object.values(EVENTS).includes(event)),
  ),
  decide: (event: HookEvent, run: DialectRun) =>
    decideClaudeLike('Codex', event, run, { legacyAllowFails: true }),
  convertConfig: convertCodexConfig,
});
