import path from 'node:path';
import type { HookEvent } from '@soong-agent/protocol';
import { CLAUDE_CODE_TOOL_INPUT_BYTES, claudeCodeDialect } from './claude-code.js';
import { addEnvironmentNote, CLAUDE_CODE_FORMAT, convertClaudeHook } from './convert/claude.js';
import {
  Conversion,
  type ConvertedHook,
  hasEvent,
  observeOnlyNote,
  parseConfigJson,
  shellQuote,
} from './convert/conversion.js';
import { addConvertedHooks, convertGroupMatcher } from './convert/grouped.js';
import { directProgramOf } from './convert/project-script.js';
import { convertToolMatcher, type ToolCatalog } from './convert/tool-matcher.js';
import type {
  ConvertedScript,
  ConvertOptions,
  ConvertResult,
  Dialect,
  DialectContext,
  DialectLog,
  DialectRun,
  DialectVerdict,
} from './dialect.js';
import {
  contextOf,
  depthChecked,
  failedExit,
  findStdoutJson,
  ignoredKeysWarning,
  isRecord,
  keepDeny,
  optionalReason,
  parseJsonObject,
  plainStdoutLogs,
  resultText,
  type StdoutAnswer,
  specificText,
  stopHookActive,
  stringField,
  textOf,
  toolOf,
  unknownKeysOf,
  viewOf,
  word,
} from './shared.js';

/**
 * GitHub Copilot CLI (github/docs `hooks-reference.md`, measured against 1.0.102, spec §13.2):
 * camelCase events with a camelCase payload (`toolName`, `toolArgs` a JSON object, `timestamp` in
 * ms), answers `{"permissionDecision": "allow"|"deny"|"ask"}` (preToolUse) and
 * `{"decision": "block"}` (agentStop), an anchored regex matcher, `timeoutSec` (default 30). Its
 * PascalCase entries get Claude Code's payload with Claude Code's tool names but Copilot's argument
 * names (`Read` gets `{path}`): the converter writes them as `"copilot"` hooks with
 * `"dialect_event"` set to the PascalCase event. Every Copilot hook sees `CLAUDE_PROJECT_DIR`.
 */

const TOOL_NAMES: Readonly<Record<string, string>> = Object.freeze({
  bash: 'bash',
  read_file: 'view',
  write_file: 'create',
  edit_file: 'edit',
  grep: 'grep',
});

const EVENTS: Readonly<Record<string, HookEvent>> = Object.freeze({
  sessionStart: 'SessionStart',
  userPromptSubmitted: 'UserPromptSubmit',
  preToolUse: 'PreToolUse',
  postToolUse: 'PostToolUse',
  agentStop: 'Stop',
  ...(hasEvent('SessionEnd') ? { sessionEnd: 'SessionEnd' as HookEvent } : {}),
  postToolUseFailure: 'PostToolUseFailure',
});

// PascalCase entries are Claude Code's events (hooks.json `dialect_event` names them).
const PASCAL_EVENTS = CLAUDE_CODE_FORMAT.events as Readonly<Record<string, HookEvent>>;
const ALL_EVENTS: Readonly<Record<string, HookEvent>> = Object.freeze({
  ...EVENTS,
  ...PASCAL_EVENTS,
});

function toolInput(ours: string, input: unknown): unknown {
  if (!isRecord(input)) return input;
  switch (ours) {
    case 'read_file':
    case 'write_file':
    case 'edit_file': {
      const { path: filePath, content, old_string, new_string, ...rest } = input;
      if (ours === 'write_file') return { path: filePath, file_text: content, ...rest };
      if (ours === 'edit_file')
        return { path: filePath, old_str: old_string, new_str: new_string, ...rest };
      return { path: filePath, ...rest };
    }
    default:
      return input;
  }
}

const SESSION_END_REASONS: Readonly<Record<string, string>> = {
  completed: 'complete',
  aborted: 'abort',
  error: 'error',
  max_turns: 'complete',
};

function encodeInput(
  event: HookEvent,
  input: Readonly<Record<string, unknown>>,
  context: DialectContext,
): Record<string, unknown> {
  if (context.dialectEvent !== undefined && /^[A-Z]/.test(context.dialectEvent)) {
    return pascalInput(event, input, context);
  }
  const stamp = typeof input.timestamp === 'string' ? Date.parse(input.timestamp) : Number.NaN;
  const payload: Record<string, unknown> = {
    sessionId: context.sessionId,
    timestamp: Number.isNaN(stamp) ? Date.now() : stamp,
    cwd: context.projectDir,
  };
  switch (event) {
    case 'PreToolUse':
    case 'PostToolUse':
    case 'PostToolUseFailure': {
      const tool = toolOf(input);
      const view = viewOf(tool, context, TOOL_NAMES, toolInput);
      payload.toolName = view.name;
      // An object, not a JSON string (measured, spec §13.2).
      payload.toolArgs = view.input ?? {};
      if (event === 'PostToolUseFailure') payload.error = stringField(input, 'error');
      if (event === 'PostToolUse') {
        const { text, isError } = resultText(input);
        payload.toolResult = {
          resultType: isError ? 'failure' : 'success',
          textResultForLlm: text,
        };
      }
      break;
    }
    case 'UserPromptSubmit':
      payload.prompt = stringField(input, 'prompt');
      break;
    case 'Stop':
      payload.transcriptPath = context.transcriptPath;
      payload.stopReason = 'end_turn';
      payload.stop_hook_active = stopHookActive(input);
      break;
    case 'SessionStart':
      payload.source = 'new';
      payload.initialPrompt = '';
      break;
    default:
      if (event === ('SessionEnd' as HookEvent)) {
        payload.reason = SESSION_END_REASONS[stringField(input, 'reason')] ?? 'complete';
      }
  }
  return payload;
}

/**
 * A PascalCase entry's payload: Claude Code's, with Claude Code's tool names, but the tool input in
 * Copilot's own argument names (`Read` gets `{path}`, not `{file_path}`), as Copilot CLI sends it.
 */
function pascalInput(
  event: HookEvent,
  input: Readonly<Record<string, unknown>>,
  context: DialectContext,
): Record<string, unknown> {
  const payload = claudeCodeDialect.encodeInput(event, input, context) as Record<string, unknown>;
  if (event === 'PreToolUse' || event === 'PostToolUse' || event === 'PostToolUseFailure') {
    payload.tool_input = viewOf(toolOf(input), context, TOOL_NAMES, toolInput).input ?? {};
  }
  return payload;
}

const KNOWN = new Set([
  'permissionDecision',
  'permissionDecisionReason',
  'decision',
  'reason',
  'hookSpecificOutput',
]);
const KNOWN_WITH_TYPE = new Set([...KNOWN, 'type']);
const KNOWN_WITH_CONTEXT = new Set([...KNOWN_WITH_TYPE, 'additionalContext']);

/**
 * The answer: stdout as one JSON object; else a deny in the object that ends it (a multi-line one
 * too: spec §13.2); else, as Copilot reads it, the last JSON object line that is not a
 * `{"type": "progress"}` line. A line nested too deep is never skipped for an earlier one.
 */
function answerOf(event: HookEvent, stdout: string, logs: DialectLog[]): StdoutAnswer {
  const denies = (json: Record<string, unknown>) => verdictOf(event, json, []).decision === 'deny';
  const found = findStdoutJson(stdout);
  if (found.whole && !found.tooDeep) return found;
  const why = { why: ' (Copilot CLI reads the last JSON line)' };
  if (found.tooDeep || (found.json !== undefined && denies(found.json))) {
    return keepDeny(stdout, found, logs, denies, why);
  }
  const lines = stdout.split('\n');
  const plain: string[] = [];
  for (let index = lines.length - 1; index >= 0; index -= 1) {
    const text = lines[index] as string;
    const line = parseJsonObject(text);
    if (line === undefined) {
      if (text.trim() !== '') plain.push(text);
      continue;
    }
    if (!line.tooDeep && line.json?.type === 'progress') continue;
    if (!line.tooDeep) return line;
    const before = lines.slice(0, index).join('\n').trim();
    return keepDeny(stdout, { ...line, whole: false, before, multiLine: false }, logs, denies, why);
  }
  logs.push(...plainStdoutLogs(plain.reverse().join('\n')));
  return { json: undefined, tooDeep: false };
}

function decide(event: HookEvent, run: DialectRun): DialectVerdict {
  const logs: DialectLog[] = [];
  const answer = answerOf(event, run.stdout, logs);
  const verdict = depthChecked(verdictOfRun(event, run, answer.json, logs), answer);
  if (verdict.failure !== undefined && verdict.decision !== 'deny') return verdict;
  // spec §13.1: Copilot CLI gives its model `additionalContext` from postToolUse and sessionStart.
  return {
    ...verdict,
    ...contextOf(CONTEXT_EVENTS.has(event) ? additionalContextOf(answer.json) : undefined),
  };
}

// A camelCase answer's top-level `additionalContext`, else a PascalCase (Claude-shaped) entry's in
// `hookSpecificOutput`.
function additionalContextOf(json: Record<string, unknown> | undefined): string | undefined {
  return textOf(json?.additionalContext) ?? specificText(json);
}

/** Events whose `additionalContext` Copilot CLI gives its model. */
// userPromptSubmitted's too: measured against Copilot CLI 1.0.102 (conformance case prompt-json-context).
// postToolUseFailure's too: Copilot CLI appends it to the failed result (its SDK's hook output).
const CONTEXT_EVENTS: ReadonlySet<HookEvent> = new Set<HookEvent>([
  'SessionStart',
  'UserPromptSubmit',
  'PostToolUse',
  'PostToolUseFailure',
]);

function verdictOfRun(
  event: HookEvent,
  run: DialectRun,
  json: Record<string, unknown> | undefined,
  logs: DialectLog[],
): DialectVerdict {
  let verdict: Pick<DialectVerdict, 'decision' | 'reason'> = { decision: 'none' };
  if (json !== undefined) {
    logs.push(
      ...ignoredKeysWarning(
        'Copilot CLI',
        unknownKeysOf(json, CONTEXT_EVENTS.has(event) ? KNOWN_WITH_CONTEXT : KNOWN_WITH_TYPE),
      ),
    );
    verdict = verdictOf(event, json, logs);
  }
  // Exit 2 denies even when the JSON says allow, except on agentStop: there Copilot CLI 1.0.102
  // only warns and the loop ends (measured, conformance case stop-exit2-once), a failed hook here.
  if (run.exitCode === 2 && event !== 'Stop') {
    return {
      decision: 'deny',
      ...optionalReason(verdict.decision === 'deny' ? verdict.reason : textOf(run.stderrTail)),
      exitCode: 2,
      logs,
    };
  }
  if (run.exitCode !== 0)
    return failedExit(run, logs, verdict.decision === 'deny' ? verdict : undefined);
  return { ...verdict, exitCode: 0, logs };
}

/**
 * What one Copilot JSON answer says on `event` (a top-level `permissionDecisionReason` is the
 * reason); warnings go to `logs`.
 */
function verdictOf(
  event: HookEvent,
  json: Record<string, unknown>,
  logs: DialectLog[],
): Pick<DialectVerdict, 'decision' | 'reason'> {
  // A PascalCase (Claude-shaped) entry answers in hookSpecificOutput; the top level wins.
  const specific = isRecord(json.hookSpecificOutput) ? json.hookSpecificOutput : {};
  const permissionValue = json.permissionDecision ?? specific.permissionDecision;
  const permission = word(permissionValue);
  const decision = word(json.decision);
  // A top-level permissionDecisionReason is the deny's reason (spec §13.2).
  const permissionReason =
    textOf(json.permissionDecisionReason) ??
    textOf(specific.permissionDecisionReason) ??
    textOf(json.reason);
  if (typeof permissionValue === 'string' && permission !== permissionValue) {
    logs.push({
      source: 'warning',
      message: `permissionDecision ${JSON.stringify(permissionValue)} read as ${JSON.stringify(permission)}`,
    });
  }
  if (event === 'Stop') {
    if (decision === 'block' || decision === 'deny' || permission === 'deny') {
      return { decision: 'deny', ...optionalReason(textOf(json.reason) ?? permissionReason) };
    }
    return { decision: 'none' };
  }
  if (permission === 'deny' || decision === 'block' || decision === 'deny') {
    return { decision: 'deny', ...optionalReason(permissionReason) };
  }
  if (permission === 'ask') {
    return event === 'PreToolUse'
      ? { decision: 'ask', ...optionalReason(permissionReason) }
      : { decision: 'none' };
  }
  if (permission === 'allow') return { decision: 'allow', ...optionalReason(permissionReason) };
  if (permissionValue !== undefined) {
    logs.push({
      source: 'warning',
      message: `permissionDecision ${JSON.stringify(permissionValue)} is not one Copilot CLI knows (allow, deny, ask); no decision`,
    });
  }
  return { decision: 'none' };
}

/** Copilot CLI's native tool names → ours. */
export const COPILOT_CATALOG: ToolCatalog = {
  agent: 'Copilot CLI',
  names: {
    bash: 'bash',
    view: 'read_file',
    create: 'write_file',
    edit: 'edit_file',
    str_replace_editor: 'edit_file',
    apply_patch: ['write_file', 'edit_file'],
    grep: 'grep',
    rg: 'grep',
    powershell: null,
    glob: null,
    task: null,
    web_fetch: null,
    ask_user: null,
    update_todo: null,
  },
  isExact: () => false,
  splitExact: (matcher) => [matcher],
  mcpName: () => undefined,
  mcpServerOfPrefix: () => undefined,
  mcpProbe: 'zz9probe-zz9tool',
  invalidRegex: 'reject',
};

const UNSUPPORTED: Readonly<Record<string, string>> = {
  userPromptTransformed: 'soong-agent never rewrites a prompt',
  permissionRequest:
    'soong-agent asks its permission callback itself; hooks do not answer permission prompts',
  subagentStart:
    'soong-agent\'s SubagentStart hooks speak no camelCase Copilot payload: write the entry as "SubagentStart" (Claude Code\'s payload) or as a "soong" hook',
  subagentStop:
    'soong-agent\'s SubagentStop hooks speak no camelCase Copilot payload: write the entry as "SubagentStop" (Claude Code\'s payload) or as a "soong" hook',
  preCompact:
    'soong-agent\'s PreCompact hooks speak no camelCase Copilot payload: write the entry as "PreCompact" (Claude Code\'s payload) or as a "soong" hook',
  errorOccurred: 'soong-agent has no error event (SessionEnd says "error")',
  notification:
    'soong-agent\'s Notification hooks speak no Copilot payload yet: rewrite it as a "soong" hook',
};

const ENTRY_KEYS = new Set([
  'type',
  'bash',
  'powershell',
  'command',
  'exec',
  'args',
  'cwd',
  'env',
  'timeoutSec',
  'matcher',
  'comment',
]);

/**
 * Copilot CLI's hooks files (`.github/hooks/*.json`, `~/.copilot/hooks/*.json`, the `hooks` of its
 * settings.json). Pure. PascalCase events become `"protocol": "claude-code"` hooks.
 */
export function convertCopilotConfig(text: string, options: ConvertOptions = {}): ConvertResult {
  const conversion = new Conversion(options);
  const scripts: ConvertedScript[] = [];
  const value = parseConfigJson(text, options.file ?? 'Copilot CLI hooks file');
  const hooks = conversion.hooksObjectOf(
    value,
    'not a JSON object (a Copilot CLI hooks file is one)',
  );
  if (hooks === undefined) return conversion.result();
  for (const [theirEvent, entries] of Object.entries(hooks)) {
    const eventPath = `hooks.${theirEvent}`;
    const pascal = /^[A-Z]/.test(theirEvent);
    const event = pascal ? CLAUDE_CODE_FORMAT.events[theirEvent] : EVENTS[theirEvent];
    if (event === undefined || !hasEvent(event)) {
      conversion.refuse(
        eventPath,
        pascal
          ? (CLAUDE_CODE_FORMAT.unsupported[theirEvent] ??
              `not a Claude Code event (PascalCase events in a Copilot CLI file are Claude Code's)`)
          : (UNSUPPORTED[theirEvent] ??
              `not a Copilot CLI event (its events: ${Object.keys(EVENTS).join(', ')}, …)`),
      );
      continue;
    }
    conversion.eachHookEntry(entries, eventPath, (entry, entryPath) => {
      const hooks = pascal
        ? convertPascalEntry(theirEvent, event, entry, entryPath, conversion, options)
        : convertEntry(theirEvent, event, entry, entryPath, conversion);
      for (const { hook, path: hookPath } of hooks) {
        const program = directProgramOf(hook.command ?? '');
        if (program === undefined) continue;
        scripts.push({
          path: hookPath,
          program,
          ...(hook.name === undefined ? {} : { hook: hook.name }),
          ...(hook.working_dir === undefined ? {} : { workingDir: hook.working_dir }),
        });
      }
    });
  }
  const result: ConvertResult = conversion.result();
  addEnvironmentNote(result, 'Copilot CLI', 'CLAUDE_PROJECT_DIR');
  if (scripts.length > 0) result.scripts = scripts;
  return result;
}

function convertEntry(
  theirEvent: string,
  event: string,
  entry: Record<string, unknown>,
  entryPath: string,
  conversion: Conversion,
): ConvertedEntry[] {
  let matchers: ReturnType<typeof convertToolMatcher> = [undefined];
  if (entry.matcher !== undefined && entry.matcher !== '') {
    if (event === 'PreToolUse' || event === 'PostToolUse' || event === 'PostToolUseFailure') {
      // Copilot anchors its matcher: ^(?:P)$.
      const anchored = typeof entry.matcher === 'string' ? `^(?:${entry.matcher})$` : entry.matcher;
      matchers = convertToolMatcher(anchored, `${entryPath}.matcher`, COPILOT_CATALOG, conversion);
      if (matchers === false) return [];
    } else {
      conversion.note(
        `${entryPath}.matcher`,
        `${JSON.stringify(entry.matcher)} ignored (soong-agent has no matcher for ${event})`,
      );
    }
  }
  if (!conversion.commandType(entry.type, `${entryPath}.type`, true)) return [];
  let command: string;
  if (typeof entry.bash === 'string' && entry.bash.trim() !== '') command = entry.bash;
  else if (typeof entry.command === 'string' && entry.command.trim() !== '')
    command = entry.command;
  else if (typeof entry.exec === 'string' && entry.exec.trim() !== '') {
    const args = entry.args === undefined ? [] : entry.args;
    if (!Array.isArray(args) || !args.every((arg) => typeof arg === 'string')) {
      conversion.refuse(`${entryPath}.args`, 'not an array of strings');
      return [];
    }
    command = [entry.exec, ...args].map(shellQuote).join(' ');
  } else if (typeof entry.powershell === 'string') {
    conversion.refuse(
      `${entryPath}.powershell`,
      'only a PowerShell command: hooks here run by /bin/sh (add a "bash" command)',
    );
    return [];
  } else {
    conversion.refuse(entryPath, 'no "bash", "command" or "exec" to run');
    return [];
  }
  const source = command;
  const cwd = copilotCwd(entry.cwd, `${entryPath}.cwd`, conversion);
  if (cwd === false) return [];
  if (cwd?.cd !== undefined) command = `${cwd.cd}${command}`;
  if (entry.env !== undefined) {
    const exported = conversion.exportEnv(entry.env, command, `${entryPath}.env`);
    if (exported === undefined) return [];
    command = exported;
  }
  const hook: ConvertedHook = { type: 'command', command, protocol: 'copilot' };
  const name = conversion.nameFor(source);
  if (name !== undefined) hook.name = name;
  const timeout = conversion.timeout(entry.timeoutSec, `${entryPath}.timeoutSec`, {
    fallback: 30,
  });
  if (timeout === false) return [];
  if (timeout !== undefined) hook.timeout = timeout;
  if (cwd?.workingDir !== undefined) hook.working_dir = cwd.workingDir;
  // With a `cd` prefix the script is judged where it runs: outside the project (any such folder,
  // `../x` too, is outside: "/" says so), so only a project-dir variable makes it a project script.
  conversion.noteProjectScript(
    entryPath,
    cwd?.cd === undefined ? hook : { ...hook, command: source, working_dir: '/' },
  );
  const label = `${entryPath} (${hook.name ?? 'unnamed'})`;
  if (event === 'PreToolUse') {
    hook.on_failure = 'deny';
    conversion.note(
      label,
      'on_failure "deny": Copilot CLI denies the call when a preToolUse hook crashes or exits non-zero (a timeout lets it through there, but denies here)',
    );
  }
  const lost = observeOnlyNote('Copilot CLI', event);
  if (lost !== undefined) conversion.note(label, lost);
  conversion.dropUnknownKeys(entry, ENTRY_KEYS, entryPath);
  if (typeof entry.powershell === 'string' && hook.command !== undefined) {
    conversion.note(`${entryPath}.powershell`, 'dropped (hooks here run the "bash" command)');
  }
  conversion.recordOrigin(hook, entryPath);
  conversion.addRules(event, matchers, [hook]);
  void theirEvent;
  return [{ hook, path: entryPath }];
}

/**
 * Where a Copilot CLI hook runs (`cwd`, relative to the repository root, where Copilot CLI runs):
 * nothing for the project dir itself; `working_dir` for a folder inside it (the runner resolves it
 * against the project dir, as Copilot does against the repository root); a `cd` prefix for one
 * outside it (absolute, `~/…`, or `../…`), where a `working_dir` may not point. False when refused.
 */
function copilotCwd(
  cwd: unknown,
  cwdPath: string,
  conversion: Conversion,
): { workingDir?: string; cd?: string } | undefined | false {
  if (cwd === undefined || cwd === null) return undefined;
  if (typeof cwd !== 'string' || cwd.includes('\0')) {
    conversion.refuse(cwdPath, `${JSON.stringify(cwd)} is not a directory path`);
    return false;
  }
  const written = cwd.trim();
  if (written === '') return undefined;
  let word: string;
  if (written === '~' || written.startsWith('~/')) {
    const rest = path.posix.normalize(written.slice(2) || '.').replace(/(.)\/+$/, '$1');
    word = rest === '.' ? '~' : `~/${shellQuote(rest)}`;
  } else if (path.posix.isAbsolute(written)) {
    word = conversion.homeShellWord(path.posix.normalize(written).replace(/(.)\/+$/, '$1'));
  } else {
    const relative = path.posix.normalize(written).replace(/\/+$/, '');
    if (relative === '.' || relative === '') return undefined;
    if (relative !== '..' && !relative.startsWith('../')) return { workingDir: relative };
    word = shellQuote(relative);
  }
  conversion.note(
    cwdPath,
    `${JSON.stringify(written)} lies outside the project dir, where a hook's working_dir may not point: the command starts with \`cd -- ${word} || exit;\` instead (a missing folder fails the hook, as in Copilot CLI)`,
  );
  return { cd: `cd -- ${word} || exit; ` };
}

/** A PascalCase entry: Claude Code's dialect, flat (`{"type": "command", "bash": …}`) or grouped. */
/** A converted hook and its JSON path in the source file. */
interface ConvertedEntry {
  hook: ConvertedHook;
  path: string;
}

/**
 * A PascalCase entry: Claude Code's dialect, flat (`{"type": "command", "bash": …}`) or grouped.
 * Its hooks become `"copilot"` hooks with `"dialect_event"` the PascalCase event: Copilot CLI sends
 * them Claude Code's payload with its own argument names, and sets the same env for them.
 */
function convertPascalEntry(
  theirEvent: string,
  event: string,
  entry: Record<string, unknown>,
  entryPath: string,
  conversion: Conversion,
  options: ConvertOptions,
): ConvertedEntry[] {
  const matchers = convertGroupMatcher(
    CLAUDE_CODE_FORMAT,
    theirEvent,
    event,
    entry.matcher,
    `${entryPath}.matcher`,
    conversion,
  );
  if (matchers === false) return [];
  const handlers = Array.isArray(entry.hooks)
    ? entry.hooks.map((hook, index) => ({ hook, path: `${entryPath}.hooks[${index}]` }))
    : [{ hook: flatAsClaude(entry), path: entryPath }];
  const converted: ConvertedEntry[] = [];
  addConvertedHooks(
    handlers,
    'Copilot CLI',
    (hook, context) => {
      // Copilot's `cwd` on a PascalCase entry too: converted as on a camelCase one.
      const { cwd: written, ...rest } = hook;
      const cwd = copilotCwd(written, `${context.path}.cwd`, context.conversion);
      if (cwd === false) return undefined;
      const done = convertClaudeHook(rest, context, 'Copilot CLI');
      if (done === undefined) return undefined;
      if (cwd?.cd !== undefined) done.command = `${cwd.cd}${done.command}`;
      if (cwd?.workingDir !== undefined) done.working_dir = cwd.workingDir;
      const copilotHook: ConvertedHook = {
        ...done,
        protocol: 'copilot',
        dialect_event: theirEvent,
      };
      converted.push({ hook: copilotHook, path: context.path });
      return copilotHook;
    },
    { theirEvent, event, conversion, options },
    matchers,
  );
  return converted;
}

function flatAsClaude(entry: Record<string, unknown>): Record<string, unknown> {
  const { bash, powershell, timeoutSec, matcher, comment, ...rest } = entry;
  const hook: Record<string, unknown> = { type: 'command', ...rest };
  if (typeof bash === 'string') hook.command = bash;
  if (typeof timeoutSec === 'number') hook.timeout = timeoutSec;
  else if (hook.timeout === undefined) hook.timeout = 30;
  void powershell;
  void matcher;
  void comment;
  return hook;
}

/** The `copilot` dialect (spec §12). */
export const copilotDialect: Dialect = Object.freeze({
  name: 'copilot',
  // The agent passes the tool input whole, so a content scanner sees it all, as in the agent.
  toolInputBytes: CLAUDE_CODE_TOOL_INPUT_BYTES,
  toolNames: TOOL_NAMES,
  events: ALL_EVENTS,
  // No failedToolEvent: Copilot CLI 1.0.102 runs postToolUse for a failed command too (measured,
  // conformance case post-tool-failed), so its PostToolUse hooks see every result.
  encodeInput,
  // Copilot CLI sets CLAUDE_PROJECT_DIR for every hook, camelCase or PascalCase (spec §13.2).
  env: (context: DialectContext) => ({ CLAUDE_PROJECT_DIR: context.projectDir }),
  contextEvents: Object.freeze([...CONTEXT_EVENTS]),
  decide,
  convertConfig: convertCopilotConfig,
});
