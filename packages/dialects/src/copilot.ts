import path from 'node:path';
import type { HookEvent } from '@soong-agent/protocol';
import { CLAUDE_CODE_TOOL_INPUT_BYTES } from './claude-code.js';
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
import { convertToolMatcher, type ToolCatalog } from './convert/tool-matcher.js';
import type {
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
  stringField,
  textOf,
  toolOf,
  unknownKeysOf,
  viewOf,
  word,
} from './shared.js';

/**
 * GitHub Copilot CLI (github/docs `hooks-reference.md`): camelCase events with a camelCase payload
 * (`toolName`, `toolArgs` as a JSON string, `timestamp` in ms), answers
 * `{"permissionDecision": "allow"|"deny"|"ask"}` (preToolUse) and `{"decision": "block"}`
 * (agentStop), an anchored regex matcher, `timeoutSec` (default 30). Its PascalCase events are
 * Claude Code's dialect: the converter writes them as `"protocol": "claude-code"` hooks.
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
  const stamp = typeof input.timestamp === 'string' ? Date.parse(input.timestamp) : Number.NaN;
  const payload: Record<string, unknown> = {
    sessionId: context.sessionId,
    timestamp: Number.isNaN(stamp) ? Date.now() : stamp,
    cwd: context.projectDir,
  };
  switch (event) {
    case 'PreToolUse':
    case 'PostToolUse': {
      const tool = toolOf(input);
      const view = viewOf(tool, context, TOOL_NAMES, toolInput);
      payload.toolName = view.name;
      payload.toolArgs = JSON.stringify(view.input ?? {});
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

const KNOWN = new Set(['permissionDecision', 'permissionDecisionReason', 'decision', 'reason']);
const KNOWN_WITH_TYPE = new Set([...KNOWN, 'type']);
const KNOWN_WITH_CONTEXT = new Set([...KNOWN_WITH_TYPE, 'additionalContext']);

/**
 * The answer: stdout as one JSON object; else a deny in the object that ends it (a multi-line one
 * too: SPEC §13.2); else, as Copilot reads it, the last JSON object line that is not a
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
  // SPEC §13.1: Copilot CLI gives its model `additionalContext` from postToolUse and sessionStart.
  return {
    ...verdict,
    ...contextOf(CONTEXT_EVENTS.has(event) ? textOf(answer.json?.additionalContext) : undefined),
  };
}

/** Events whose `additionalContext` Copilot CLI gives its model. */
const CONTEXT_EVENTS: ReadonlySet<HookEvent> = new Set<HookEvent>(['SessionStart', 'PostToolUse']);

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
  if (run.exitCode === 2) {
    // Exit 2 denies a preToolUse even when the JSON says allow.
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
  const permission = word(json.permissionDecision);
  const decision = word(json.decision);
  const permissionReason = textOf(json.permissionDecisionReason) ?? textOf(json.reason);
  if (typeof json.permissionDecision === 'string' && permission !== json.permissionDecision) {
    logs.push({
      source: 'warning',
      message: `permissionDecision ${JSON.stringify(json.permissionDecision)} read as ${JSON.stringify(permission)}`,
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
  if (json.permissionDecision !== undefined) {
    logs.push({
      source: 'warning',
      message: `permissionDecision ${JSON.stringify(json.permissionDecision)} is not one Copilot CLI knows (allow, deny, ask); no decision`,
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
  postToolUseFailure: 'soong-agent has no event for failed tool calls (postToolUse sees them)',
  permissionRequest:
    'soong-agent asks its permission callback itself; hooks do not answer permission prompts',
  subagentStart: 'soong-agent has no subagents',
  subagentStop: 'soong-agent has no subagents',
  preCompact: 'soong-agent has no compaction event',
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
      if (pascal) convertPascalEntry(theirEvent, event, entry, entryPath, conversion, options);
      else convertEntry(theirEvent, event, entry, entryPath, conversion);
    });
  }
  const result = conversion.result();
  // PascalCase entries became claude-code hooks, which get CLAUDE_PROJECT_DIR too.
  const claudeHooks = Object.values(result.hooks.hooks).some((rules) =>
    (rules as { hooks: ConvertedHook[] }[]).some((rule) =>
      rule.hooks.some((hook) => hook.protocol === 'claude-code'),
    ),
  );
  addEnvironmentNote(
    result,
    'Copilot CLI',
    claudeHooks ? 'CLAUDE_PROJECT_DIR (in the PascalCase hooks)' : undefined,
  );
  return result;
}

function convertEntry(
  theirEvent: string,
  event: string,
  entry: Record<string, unknown>,
  entryPath: string,
  conversion: Conversion,
): void {
  let matchers: ReturnType<typeof convertToolMatcher> = [undefined];
  if (entry.matcher !== undefined && entry.matcher !== '') {
    if (event === 'PreToolUse' || event === 'PostToolUse') {
      // Copilot anchors its matcher: ^(?:P)$.
      const anchored = typeof entry.matcher === 'string' ? `^(?:${entry.matcher})$` : entry.matcher;
      matchers = convertToolMatcher(anchored, `${entryPath}.matcher`, COPILOT_CATALOG, conversion);
      if (matchers === false) return;
    } else {
      conversion.note(
        `${entryPath}.matcher`,
        `${JSON.stringify(entry.matcher)} ignored (soong-agent has no matcher for ${event})`,
      );
    }
  }
  if (!conversion.commandType(entry.type, `${entryPath}.type`, true)) return;
  let command: string;
  if (typeof entry.bash === 'string' && entry.bash.trim() !== '') command = entry.bash;
  else if (typeof entry.command === 'string' && entry.command.trim() !== '')
    command = entry.command;
  else if (typeof entry.exec === 'string' && entry.exec.trim() !== '') {
    const args = entry.args === undefined ? [] : entry.args;
    if (!Array.isArray(args) || !args.every((arg) => typeof arg === 'string')) {
      conversion.refuse(`${entryPath}.args`, 'not an array of strings');
      return;
    }
    command = [entry.exec, ...args].map(shellQuote).join(' ');
  } else if (typeof entry.powershell === 'string') {
    conversion.refuse(
      `${entryPath}.powershell`,
      'only a PowerShell command: hooks here run by /bin/sh (add a "bash" command)',
    );
    return;
  } else {
    conversion.refuse(entryPath, 'no "bash", "command" or "exec" to run');
    return;
  }
  const source = command;
  const cwd = copilotCwd(entry.cwd, `${entryPath}.cwd`, conversion);
  if (cwd === false) return;
  if (cwd?.cd !== undefined) command = `${cwd.cd}${command}`;
  if (entry.env !== undefined) {
    const exported = conversion.exportEnv(entry.env, command, `${entryPath}.env`);
    if (exported === undefined) return;
    command = exported;
  }
  const hook: ConvertedHook = { type: 'command', command, protocol: 'copilot' };
  const name = conversion.nameFor(source);
  if (name !== undefined) hook.name = name;
  const timeout = conversion.timeout(entry.timeoutSec, `${entryPath}.timeoutSec`, {
    fallback: 30,
  });
  if (timeout === false) return;
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
function convertPascalEntry(
  theirEvent: string,
  event: string,
  entry: Record<string, unknown>,
  entryPath: string,
  conversion: Conversion,
  options: ConvertOptions,
): void {
  const matchers = convertGroupMatcher(
    CLAUDE_CODE_FORMAT,
    theirEvent,
    event,
    entry.matcher,
    `${entryPath}.matcher`,
    conversion,
  );
  if (matchers === false) return;
  const handlers = Array.isArray(entry.hooks)
    ? entry.hooks.map((hook, index) => ({ hook, path: `${entryPath}.hooks[${index}]` }))
    : [{ hook: flatAsClaude(entry), path: entryPath }];
  addConvertedHooks(
    handlers,
    'Copilot CLI',
    (hook, context) => {
      // Copilot's `cwd` on a PascalCase entry too: converted as on a camelCase one.
      const { cwd: written, ...rest } = hook;
      const cwd = copilotCwd(written, `${context.path}.cwd`, context.conversion);
      if (cwd === false) return undefined;
      const converted = convertClaudeHook(rest, context, 'Copilot CLI');
      if (converted === undefined) return undefined;
      if (cwd?.cd !== undefined) converted.command = `${cwd.cd}${converted.command}`;
      if (cwd?.workingDir !== undefined) converted.working_dir = cwd.workingDir;
      return converted;
    },
    { theirEvent, event, conversion, options },
    matchers,
  );
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

/** The `copilot` dialect (SPEC §12). */
export const copilotDialect: Dialect = Object.freeze({
  name: 'copilot',
  // The agent passes the tool input whole, so a content scanner sees it all (issue 20 #12).
  toolInputBytes: CLAUDE_CODE_TOOL_INPUT_BYTES,
  toolNames: TOOL_NAMES,
  events: EVENTS,
  encodeInput,
  env: () => ({}),
  contextEvents: Object.freeze([...CONTEXT_EVENTS]),
  decide,
  convertConfig: convertCopilotConfig,
});
