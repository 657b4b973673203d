import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isDeclaredMcpTool, knownToolNames, type LoadedConfig } from '@soong-agent/config';
import {
  type HookOutcome,
  type HookSessionHandle,
  openHookSession,
  summarizeText,
} from '@soong-agent/loop-adapter';
import { closestMatch, type MatchSubject } from '@soong-agent/matcher';
import {
  type EventRecord,
  HOOK_EVENTS,
  type HookEvent,
  parseMcpToolName,
  type RiskClass,
  TOOL_EVENTS,
} from '@soong-agent/protocol';
import { allWarnings, loadConfigOrExit, resolveLocations } from '../agent/locations.js';
import type { CommonOptions } from '../common-options.js';
import { CliError, EXIT_CODES } from '../errors.js';
import type { AgentTool } from '../tools/types.js';
import { formatHookReport } from '../ui/hook-report.js';
import { colorEnabled, printable } from '../ui/timeline.js';
import { HOOKS_TEST_SESSION_ID, printWarnings, toolsOf } from './hooks-validate.js';

function parseEvent(value: string): HookEvent {
  if ((HOOK_EVENTS as readonly string[]).includes(value)) return value as HookEvent;
  const suggestion = closestMatch(value, HOOK_EVENTS);
  throw new CliError({
    code: 'USAGE',
    message: `unknown event "${value}"${suggestion === undefined ? '' : ` (did you mean "${suggestion}"?)`}; events: ${HOOK_EVENTS.join(', ')}`,
  });
}

/** What a subject needs of a tool: the registry's, or one a host declares (spec §11). */
type SubjectTool = Pick<AgentTool, 'name' | 'risk' | 'tags' | 'paths'>;

const RISK_CLASSES: readonly RiskClass[] = ['readonly', 'write', 'dangerous'];

function parseRisk(value: string | undefined): RiskClass | undefined {
  if (value === undefined) return undefined;
  if ((RISK_CLASSES as readonly string[]).includes(value)) return value as RiskClass;
  throw new CliError({
    code: 'USAGE',
    message: `--risk ${JSON.stringify(value)} is not a risk class; write ${RISK_CLASSES.join(', ')}`,
  });
}

// A tool the agent does not have but a host declares ([tools] known, an MCP server under [mcp.NAME])
// or the user describes with --risk is tested as that host would see it: a note, never an error.
function lookUpTool(
  tools: ReadonlyMap<string, AgentTool>,
  name: string,
  config: LoadedConfig,
  riskFlag: string | undefined,
): SubjectTool {
  const risk = parseRisk(riskFlag);
  const tool = tools.get(name);
  if (tool !== undefined) {
    if (risk !== undefined && risk !== tool.risk) {
      process.stderr.write(`note: --risk ignored: ${name} is a ${tool.risk} tool of the agent\n`);
    }
    return tool;
  }
  const mcp = parseMcpToolName(name);
  if (mcp !== undefined && isDeclaredMcpTool(config.settings, name)) {
    const { server, tool: toolName } = mcp;
    const table = config.settings.mcp[server];
    const declared = Object.hasOwn(table?.tools ?? {}, toolName)
      ? table?.tools[toolName]?.risk
      : undefined;
    const chosen = risk ?? declared ?? table?.risk ?? 'dangerous';
    process.stderr.write(
      `note: ${name} is a tool of the MCP server "${server}" ([mcp.${server}] in config.toml): tested as a ${chosen} tool\n`,
    );
    return { name, risk: chosen };
  }
  if (knownToolNames(config.settings).includes(name)) {
    const chosen = risk ?? 'dangerous';
    process.stderr.write(
      `note: ${name} is declared in [tools] known: tested as a ${chosen} tool${risk === undefined ? ' (give --risk to choose its risk class)' : ''}\n`,
    );
    return { name, risk: chosen };
  }
  if (risk !== undefined) {
    process.stderr.write(
      `note: ${name} is not a tool of this agent: tested as a ${risk} tool (--risk)\n`,
    );
    return { name, risk };
  }
  const suggestion = closestMatch(name, [...tools.keys()]);
  throw new CliError({
    code: 'USAGE',
    message: `unknown tool "${name}"${suggestion === undefined ? '' : ` (did you mean "${suggestion}"?)`}; tools: ${[...tools.keys()].join(', ')}; for a tool of another host give --risk readonly|write|dangerous, or list it under [tools] known in config.toml`,
  });
}

function tagsOf(tool: SubjectTool): string[] {
  return [...new Set([tool.risk, ...(tool.tags ?? [])])];
}

/** `soong-agent hooks list [--json]`: rules with ids, matcher, command, timeout and on_failure. */
export async function listAction(options: CommonOptions & { json?: boolean }): Promise<number> {
  const config = loadConfigOrExit(resolveLocations(options));
  printWarnings(allWarnings(config, toolsOf(config)));
  const rules = config.hooks.rules.map((rule) => ({
    event: rule.event,
    rule_index: rule.ruleIndex,
    matcher: rule.matcher ?? null,
    hooks: rule.hooks.map((hook) => ({
      id: hook.id,
      command: hook.command,
      timeout: hook.timeoutSec,
      on_failure: hook.onFailure,
      protocol: hook.protocol,
      mode: hook.mode,
      ...(hook.workingDir === undefined ? {} : { working_dir: hook.workingDir }),
    })),
  }));
  if (options.json === true) {
    process.stdout.write(
      `${JSON.stringify({ hooks_enabled: config.hooksEnabled, hooks_file: config.hooksFile, rules }, null, 2)}\n`,
    );
    return EXIT_CODES.ok;
  }
  if (!config.hooksEnabled) {
    process.stdout.write('hooks are disabled (hooks.enabled = false)\n');
    return EXIT_CODES.ok;
  }
  if (rules.length === 0) process.stdout.write(`no hooks configured in ${config.hooksFile}\n`);
  for (const rule of rules) {
    const matcher = rule.matcher === null ? 'every occurrence' : JSON.stringify(rule.matcher);
    process.stdout.write(`${rule.event}[${rule.rule_index}]  matcher: ${printable(matcher)}\n`);
    for (const hook of rule.hooks) {
      // Names, commands and dirs come from hooks.json: escape control characters, as the timeline does.
      const cwd =
        hook.working_dir === undefined ? '' : `  working_dir=${printable(hook.working_dir)}`;
      const protocol = hook.protocol === 'soong' ? '' : `  protocol=${hook.protocol}`;
      const mode = hook.mode === 'spawn' ? '' : `  mode=${hook.mode}`;
      process.stdout.write(
        `  ${printable(hook.id)}  timeout=${hook.timeout}s  on_failure=${hook.on_failure}${protocol}${mode}${cwd}\n    ${printable(hook.command)}\n`,
      );
    }
  }
  return EXIT_CODES.ok;
}

interface SubjectOptions extends CommonOptions {
  tool?: string;
  path?: string[];
  /** `--risk CLASS`: the risk class of a tool the agent does not know (spec §11). */
  risk?: string;
}

function buildSubject(
  event: HookEvent,
  options: SubjectOptions,
  config: LoadedConfig,
  tools: ReadonlyMap<string, AgentTool>,
  input?: unknown,
) {
  const subject: MatchSubject & { paths: string[] } = { event, paths: [] };
  let tool: SubjectTool | undefined;
  if (options.tool !== undefined) {
    tool = lookUpTool(tools, options.tool, config, options.risk);
    subject.tool = tool.name;
    subject.tags = tagsOf(tool);
    if (input !== undefined) subject.paths.push(...(tool.paths?.(input) ?? []));
  }
  for (const written of options.path ?? [])
    subject.paths.push(path.resolve(config.projectDir, written));
  if (input !== undefined) subject.input = input;
  return { subject, tool };
}

// Matcher keys that look at the tool call's tool: without --tool they cannot be decided.
const TOOL_CRITERIA: ReadonlySet<string> = new Set(['tool', 'tag', 'mcp_server']);

// The matcher as written: an object, or a bare string (shorthand for { "tool": … }).
function dependsOnTool(rule: { matcher?: unknown }): boolean {
  const { matcher } = rule;
  if (typeof matcher === 'string') return true;
  if (typeof matcher !== 'object' || matcher === null) return false;
  return Object.keys(matcher).some((key) => TOOL_CRITERIA.has(key));
}

/** One rule of `hooks explain`, as printed (and as `--json` gives it). */
interface RuleVerdict {
  rule: string;
  rule_index: number;
  matched: boolean;
  criterion?: string;
  expected?: string;
  actual?: string;
  hooks: string[];
  /** Without --tool: the rule has a tool, tag or mcp_server criterion, so its outcome depends on the tool. */
  needs_tool?: true;
  /** With `needs_tool`: the tools of the agent (and `[tools] known`) the rule matches, given the other flags. */
  matched_tools?: string[];
}

/**
 * Without --tool on a tool event, a rule with a tool-dependent criterion is tried with every tool
 * the agent knows (its own, `[tools] known`): it matches for some of them, for none because of a
 * criterion that no tool changes (e.g. `path_prefix`: decided without --tool), or for none because
 * it names a tool of another host.
 */
function verdictsWithoutTool(
  event: HookEvent,
  config: LoadedConfig,
  tools: ReadonlyMap<string, AgentTool>,
  paths: readonly string[],
): RuleVerdict[] {
  const candidates: SubjectTool[] = [
    ...tools.values(),
    ...knownToolNames(config.settings)
      .filter((name) => !tools.has(name))
      .map((name): SubjectTool => ({ name, risk: 'dangerous' })),
  ];
  const perTool = candidates.map((tool) => ({
    tool: tool.name,
    explanations: config.hooks.explain({
      event,
      tool: tool.name,
      tags: tagsOf(tool),
      paths: [...paths],
    }),
  }));
  return config.hooks.explain({ event, paths: [...paths] }).map((entry, position) => {
    const verdict = toVerdict(event, entry);
    if (!dependsOnTool(entry.rule)) return verdict;
    const outcomes = perTool.map(({ tool, explanations }) => ({
      tool,
      entry: explanations[position] as typeof entry,
    }));
    const matchedTools = outcomes.filter(({ entry }) => entry.matched).map(({ tool }) => tool);
    // A miss that no tool changes: a tool passed the tool criteria and still failed on another one.
    const decided = outcomes.find(
      ({ entry }) => !entry.matched && !TOOL_CRITERIA.has(entry.criterion),
    )?.entry;
    if (matchedTools.length === 0 && decided !== undefined && !decided.matched) {
      return {
        ...toVerdict(event, decided),
        needs_tool: true,
        matched_tools: [],
      };
    }
    return { ...verdict, needs_tool: true, matched_tools: matchedTools };
  });
}

function toVerdict(
  event: HookEvent,
  entry: ReturnType<LoadedConfig['hooks']['explain']>[number],
): RuleVerdict {
  return {
    rule: `${event}[${entry.ruleIndex}]`,
    rule_index: entry.ruleIndex,
    matched: entry.matched,
    ...(entry.matched
      ? {}
      : { criterion: entry.criterion, expected: entry.expected, actual: entry.actual }),
    hooks: entry.rule.hooks.map((hook) => hook.id),
  };
}

function describeVerdict(entry: RuleVerdict): string {
  if (entry.needs_tool === true) {
    const matchedTools = entry.matched_tools ?? [];
    if (matchedTools.length > 0) {
      return `depends on --tool: matched for ${matchedTools.join(', ')} → runs ${entry.hooks.join(', ')}`;
    }
    if (entry.criterion !== undefined && !TOOL_CRITERIA.has(entry.criterion)) {
      return `not matched whatever the tool: ${entry.criterion} (expected ${entry.expected}, got ${entry.actual})`;
    }
    return `depends on --tool: matches no tool of this agent (${entry.criterion} expects ${entry.expected}); for a tool of another host give --tool NAME --risk CLASS`;
  }
  return entry.matched
    ? `matched → runs ${entry.hooks.join(', ')}`
    : `not matched: ${entry.criterion} (expected ${entry.expected}, got ${entry.actual})`;
}

/**
 * `soong-agent hooks explain EVENT`: per rule of the event, matched or the failing criterion key.
 * On a tool event without `--tool`, one note says that `--tool NAME` decides tool matchers, and a
 * rule with a `tool`, `tag` or `mcp_server` criterion shows what is decided without it (the tools
 * it matches, or a criterion that fails for every tool).
 */
export async function explainAction(
  eventName: string,
  options: SubjectOptions & { json?: boolean },
): Promise<number> {
  const event = parseEvent(eventName);
  const config = loadConfigOrExit(resolveLocations(options));
  const tools = toolsOf(config);
  printWarnings(allWarnings(config, tools));
  const { subject } = buildSubject(event, options, config, tools);
  const withoutTool = TOOL_EVENTS.includes(event) && options.tool === undefined;
  const explanations = withoutTool
    ? verdictsWithoutTool(event, config, tools, subject.paths)
    : config.hooks.explain(subject).map((entry) => toVerdict(event, entry));
  const note = explanations.some((entry) => entry.needs_tool === true)
    ? `${event} rules with a tool, tag or mcp_server matcher depend on the tool call: give --tool NAME to evaluate them for one tool; without it each is tried with every tool of the agent`
    : undefined;
  if (options.json === true) {
    process.stdout.write(
      `${JSON.stringify({ event, subject, ...(note === undefined ? {} : { note }), rules: explanations }, null, 2)}\n`,
    );
    return EXIT_CODES.ok;
  }
  if (explanations.length === 0) process.stdout.write(`no rules for ${event}\n`);
  if (note !== undefined) process.stdout.write(`note: ${note}\n`);
  for (const entry of explanations) {
    process.stdout.write(`${entry.rule}  ${describeVerdict(entry)}\n`);
  }
  return EXIT_CODES.ok;
}

function parseInput(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CliError({
      code: 'USAGE',
      message: `--input is not valid JSON: ${(error as Error).message}`,
    });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new CliError({
      code: 'USAGE',
      message: '--input must be a JSON object (the tool call input)',
    });
  }
  return value as Record<string, unknown>;
}

/** Options of `soong-agent hooks test` (spec §6). */
export interface TestOptions extends SubjectOptions {
  /** `--input JSON`: the tool call's input object. */
  input?: string;
  /** `--prompt TEXT`: the prompt (UserPromptSubmit; on Stop, the loop's prompt in the transcript). */
  prompt?: string;
  /** `--result TEXT`: the PostToolUse result. */
  result?: string;
  /** `--result-error`: the PostToolUse result is an error. */
  resultError?: boolean;
  /** `--stop JSON`: Stop's `prevented_count`, `last_assistant_message` (and `previous_reasons`). */
  stop?: string;
}

// Which flags each event takes; any other given flag is a usage error (spec §6).
const EVENT_FLAGS: Record<HookEvent, readonly (keyof TestOptions)[]> = {
  SessionStart: [],
  UserPromptSubmit: ['prompt'],
  PreToolUse: ['tool', 'input', 'path', 'risk'],
  PostToolUse: ['tool', 'input', 'path', 'risk', 'result', 'resultError'],
  Stop: ['stop', 'prompt'],
  SessionEnd: [],
  Notification: [],
  PostToolUseFailure: ['tool', 'input', 'path', 'risk', 'result'],
  PreCompact: [],
  SubagentStart: [],
  SubagentStop: [],
};

// The subagent `hooks test` fires SubagentStart / SubagentStop for.
const TEST_SUBAGENT = { agent_id: 'hooks-test', agent_type: 'general-purpose' };
const FLAG_NAMES: Partial<Record<keyof TestOptions, string>> = {
  tool: '--tool',
  risk: '--risk',
  input: '--input',
  path: '--path',
  prompt: '--prompt',
  result: '--result',
  resultError: '--result-error',
  stop: '--stop',
};

function checkFlags(event: HookEvent, options: TestOptions): void {
  for (const [key, flag] of Object.entries(FLAG_NAMES) as [keyof TestOptions, string][]) {
    const value = options[key];
    const given = Array.isArray(value) ? value.length > 0 : value !== undefined && value !== false;
    if (!given || EVENT_FLAGS[event].includes(key)) continue;
    const takes = EVENT_FLAGS[event].map((name) => FLAG_NAMES[name]).join(', ');
    throw new CliError({
      code: 'USAGE',
      message: `${flag} does not apply to ${event}; ${event} takes ${takes === '' ? 'no flags' : takes}`,
    });
  }
}

interface StopFlags {
  prevented_count: number;
  last_assistant_message?: string;
  previous_reasons?: string[];
}

function parseStop(text: string | undefined): StopFlags {
  if (text === undefined) return { prevented_count: 0 };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CliError({
      code: 'USAGE',
      message: `--stop is not valid JSON: ${(error as Error).message}`,
    });
  }
  const usage = (problem: string) =>
    new CliError({
      code: 'USAGE',
      message: `--stop ${problem}; e.g. --stop '{"prevented_count": 1, "last_assistant_message": "All done."}'`,
    });
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw usage('must be a JSON object');
  }
  const fields = value as Record<string, unknown>;
  for (const key of Object.keys(fields)) {
    if (!['prevented_count', 'last_assistant_message', 'previous_reasons'].includes(key)) {
      throw usage(
        `has an unknown key ${JSON.stringify(key)} (keys: prevented_count, last_assistant_message, previous_reasons)`,
      );
    }
  }
  const count = fields.prevented_count ?? 0;
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 0) {
    throw usage('prevented_count must be an integer >= 0');
  }
  const stop: StopFlags = { prevented_count: count };
  if (fields.last_assistant_message !== undefined) {
    if (typeof fields.last_assistant_message !== 'string') {
      throw usage('last_assistant_message must be a string');
    }
    stop.last_assistant_message = fields.last_assistant_message;
  }
  if (fields.previous_reasons !== undefined) {
    const reasons = fields.previous_reasons;
    if (!Array.isArray(reasons) || !reasons.every((reason) => typeof reason === 'string')) {
      throw usage('previous_reasons must be an array of strings');
    }
    stop.previous_reasons = reasons;
  }
  return stop;
}

/**
 * `soong-agent hooks test EVENT`: builds the event's input like a session would (risk and tags from
 * the tool registry, paths from the tool plus `--path`, `--result` bounded with an artifact, Stop
 * counters from `--stop`), writes a transcript for Claude Code hooks, runs the matching hooks
 * in a scratch session (openHookSession, no SessionStart/SessionEnd) and prints every hook run; exit 3 when a deny stands, 1
 * when the runner's spawn helper was lost during a hook run (`helper_failed`), else 0. A flag that does not apply to EVENT is a usage error.
 */
export async function testAction(eventName: string, options: TestOptions): Promise<number> {
  const event = parseEvent(eventName);
  checkFlags(event, options);
  const stop = parseStop(options.stop);
  const config = loadConfigOrExit(resolveLocations(options));
  const tools = toolsOf(config);
  const input = parseInput(options.input) ?? {};
  printWarnings(allWarnings(config, tools));
  if (TOOL_EVENTS.includes(event) && options.tool === undefined) {
    throw new CliError({
      code: 'USAGE',
      message: `${event} needs --tool NAME (e.g. --tool write_file --input '{"path":"src/a.ts","content":""}')`,
    });
  }
  const { subject, tool } = buildSubject(event, options, config, tools, input);
  // As in a session, an --input or --result too large for hook stdin reaches the hook as a summary
  // plus an artifact ref; the session's files (log, artifacts, transcript) live in a scratch dir as
  // long as this command, and only the tested event's hooks run (no SessionStart / SessionEnd).
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'soong-agent-hooks-test-'));
  try {
    const records: EventRecord[] = [];
    const session = await openHookSession({
      projectDir: config.projectDir,
      config,
      sessionId: HOOKS_TEST_SESSION_ID,
      dir: scratch,
      lifecycleHooks: false,
      onRecord: (record) => records.push(record),
    });
    return await runHooksTest({
      event,
      session,
      records,
      config,
      subject,
      risk: tool?.risk,
      input,
      options,
      stop,
    });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

async function runHooksTest({
  event,
  session,
  records,
  config,
  subject,
  risk,
  input,
  options,
  stop,
}: {
  event: HookEvent;
  session: HookSessionHandle;
  records: readonly EventRecord[];
  config: LoadedConfig;
  subject: ReturnType<typeof buildSubject>['subject'];
  risk: RiskClass | undefined;
  input: Record<string, unknown>;
  options: TestOptions;
  stop: StopFlags;
}): Promise<number> {
  const { engine, transcript } = session;
  const toolInfo = {
    name: subject.tool ?? '',
    call_id: 'call_test',
    input,
    risk: risk ?? 'readonly',
    tags: [...(subject.tags ?? [])],
    paths: [...subject.paths],
  };
  // The transcript a Claude Code hook may read: the prompt, then what the assistant said or called.
  if (options.prompt !== undefined) transcript.user(options.prompt);
  if (TOOL_EVENTS.includes(event)) {
    transcript.assistant('', [{ id: toolInfo.call_id, name: toolInfo.name, input }]);
  }
  // Without a last_assistant_message in --stop, --prompt stands in for it (what it meant before --stop).
  const lastAssistantMessage = stop.last_assistant_message ?? options.prompt ?? '';
  if (event === 'Stop') transcript.assistant(lastAssistantMessage);
  let outcome: HookOutcome;
  switch (event) {
    case 'SessionStart':
      outcome = await engine.run('SessionStart', { source: 'startup' });
      break;
    case 'UserPromptSubmit':
      outcome = await engine.run('UserPromptSubmit', { prompt: options.prompt ?? '' });
      break;
    case 'PreToolUse':
      outcome = await engine.run('PreToolUse', { tool: toolInfo }, { callId: toolInfo.call_id });
      break;
    case 'PostToolUse':
    case 'PostToolUseFailure': {
      const content = options.result ?? '';
      // PostToolUseFailure is about a failed result, whatever --result-error says.
      const isError = event === 'PostToolUseFailure' || options.resultError === true;
      const bytes = Buffer.byteLength(content);
      const limit = config.settings.hooks.inline_result_bytes;
      const artifacts = engine.artifacts;
      const result =
        bytes <= limit || artifacts === undefined
          ? { is_error: isError, bytes, content }
          : {
              is_error: isError,
              bytes,
              summary: summarizeText(content),
              artifact_ref: await artifacts.put(content),
            };
      outcome =
        event === 'PostToolUse'
          ? await engine.run(
              'PostToolUse',
              { tool: toolInfo, result, duration_ms: 0 },
              { callId: toolInfo.call_id },
            )
          : await engine.run(
              'PostToolUseFailure',
              {
                tool: toolInfo,
                result,
                duration_ms: 0,
                error: Buffer.from(content).subarray(0, 1024).toString('utf8'),
              },
              { callId: toolInfo.call_id },
            );
      break;
    }
    case 'PreCompact':
      outcome = await engine.run('PreCompact', { trigger: 'manual', custom_instructions: '' });
      break;
    case 'SubagentStart':
      outcome = await engine.run('SubagentStart', TEST_SUBAGENT);
      break;
    case 'SubagentStop':
      outcome = await engine.run('SubagentStop', {
        ...TEST_SUBAGENT,
        stop_hook_active: false,
        last_assistant_message: lastAssistantMessage,
      });
      break;
    case 'Stop':
      outcome = await engine.run('Stop', {
        stop_hook_active: stop.prevented_count > 0,
        prevented_count: stop.prevented_count,
        previous_reasons: stop.previous_reasons ?? [],
        last_assistant_message: lastAssistantMessage,
        ...(options.prompt === undefined ? {} : { prompt: options.prompt }),
      });
      break;
    case 'SessionEnd':
      outcome = await engine.run('SessionEnd', { reason: 'completed' });
      break;
    case 'Notification':
      outcome = await engine.run('Notification', {
        kind: 'permission_prompt',
        message: 'soong-agent hooks test',
      });
      break;
  }
  // A worker hook runs as in a session: started, one request, stopped.
  await session.close();
  if (!config.hooksEnabled) {
    process.stdout.write('hooks are disabled (hooks.enabled = false in config.toml); none ran\n');
  } else if (outcome.results.length === 0) {
    process.stdout.write(
      `no hook matched ${event}${subject.tool === undefined ? '' : ` for ${subject.tool}`}\n`,
    );
  }
  const report = formatHookReport({
    records,
    outcome,
    projectDir: config.projectDir,
    colors: colorEnabled(process.stdout),
  });
  process.stdout.write(`${report.join('\n')}\n`);
  if (outcome.decision === 'deny') return EXIT_CODES.denied;
  // The agent's own machinery failed, not the hook: never "passed" (exit 0).
  const lost = outcome.results.filter((result) => result.failure === 'helper_failed').length;
  if (lost > 0) {
    process.stderr.write(
      `soong-agent: the runner's spawn helper was lost while ${lost === 1 ? 'the hook ran' : `${lost} hooks ran`}: their answers are unknown (see the failure above); run the test again\n`,
    );
    return EXIT_CODES.runtime;
  }
  return EXIT_CODES.ok;
}
