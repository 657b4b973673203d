import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ConfigWarning, ConfigWarningCode, LoadedConfig } from '@soong-agent/config';
import {
  createFileArtifactStore,
  createHookEngine,
  createMemoryEventSink,
  type HookOutcome,
} from '@soong-agent/loop-adapter';
import { closestMatch, type MatchSubject } from '@soong-agent/matcher';
import { HOOK_EVENTS, type HookEvent } from '@soong-agent/protocol';
import {
  allWarnings,
  loadConfigOrExit,
  resolveLocations,
  toolContextFor,
} from '../agent/session.js';
import { CliError, EXIT_CODES } from '../errors.js';
import type { CommonOptions } from '../program.js';
import { createToolRegistry } from '../tools/registry.js';
import type { AgentTool } from '../tools/types.js';
import { formatHookReport } from '../ui/hook-report.js';
import { colorEnabled } from '../ui/timeline.js';

/** Session id used by `hooks test` (no session dir is created). */
export const HOOKS_TEST_SESSION_ID = 'hooks-test';
const TOOL_EVENTS: readonly string[] = ['PreToolUse', 'PostToolUse'];

function toolsOf(config: LoadedConfig): Map<string, AgentTool> {
  return createToolRegistry(toolContextFor(config, HOOKS_TEST_SESSION_ID), config.settings);
}

function parseEvent(value: string): HookEvent {
  if ((HOOK_EVENTS as readonly string[]).includes(value)) return value as HookEvent;
  const suggestion = closestMatch(value, HOOK_EVENTS);
  throw new CliError({
    code: 'USAGE',
    message: `unknown event "${value}"${suggestion === undefined ? '' : ` (did you mean "${suggestion}"?)`}; events: ${HOOK_EVENTS.join(', ')}`,
  });
}

function lookUpTool(tools: ReadonlyMap<string, AgentTool>, name: string): AgentTool {
  const tool = tools.get(name);
  if (tool !== undefined) return tool;
  const suggestion = closestMatch(name, [...tools.keys()]);
  throw new CliError({
    code: 'USAGE',
    message: `unknown tool "${name}"${suggestion === undefined ? '' : ` (did you mean "${suggestion}"?)`}; tools: ${[...tools.keys()].join(', ')}`,
  });
}

function tagsOf(tool: AgentTool): string[] {
  return [...new Set([tool.risk, ...(tool.tags ?? [])])];
}

/**
 * Warnings that mean a hook can never run or never match: `hooks validate --strict` fails on them
 * (exit 2), since the guard they describe would silently never fire.
 */
export const STRICT_WARNING_CODES: ReadonlySet<ConfigWarningCode> = new Set([
  'UNKNOWN_TOOL',
  'COMMAND_NOT_FOUND',
  'COMMAND_NOT_EXECUTABLE',
  'AGENT_HOME_MISSING',
]);

// On stderr, so a --json answer on stdout stays pure JSON.
function printWarnings(warnings: readonly ConfigWarning[]): void {
  for (const warning of warnings) process.stderr.write(`warning: ${warning.message}\n`);
}

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

/**
 * `soong-agent hooks validate [--strict]`: exit 0 valid, 2 invalid with the precise errors. Warnings
 * go to stderr and the last line is `valid, N warnings`; with `--strict` a warning that means a hook
 * can never run or match ({@link STRICT_WARNING_CODES}) makes it exit 2.
 */
export async function validateAction(
  options: CommonOptions & { strict?: boolean },
): Promise<number> {
  const config = loadConfigOrExit(resolveLocations(options));
  const warnings = allWarnings(config, toolsOf(config));
  printWarnings(warnings);
  const shown = (file: string) => (existsSync(file) ? file : `${file} (absent: defaults)`);
  if (!config.hooksEnabled) {
    process.stdout.write(
      `checked: ${shown(config.configFile)}; hooks are disabled (hooks.enabled = false), hooks.json was not read\n`,
    );
  } else {
    const rules = config.hooks.ruleCount;
    const hooks = config.hooks.rules.reduce((sum, rule) => sum + rule.hooks.length, 0);
    process.stdout.write(
      `checked: ${shown(config.configFile)}, ${shown(config.hooksFile)} (${plural(rules, 'rule')}, ${plural(hooks, 'hook')})\n`,
    );
  }
  const fatal = warnings.filter((warning) => STRICT_WARNING_CODES.has(warning.code));
  if (options.strict === true && fatal.length > 0) {
    process.stderr.write(
      `soong-agent: --strict: ${fatal.length === 1 ? '1 warning means' : `${fatal.length} warnings mean`} a hook can never run or never match (${[...new Set(fatal.map((warning) => warning.code))].join(', ')})\n`,
    );
  }
  process.stdout.write(`valid, ${plural(warnings.length, 'warning')}\n`);
  return options.strict === true && fatal.length > 0 ? EXIT_CODES.usage : EXIT_CODES.ok;
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
    process.stdout.write(`${rule.event}[${rule.rule_index}]  matcher: ${matcher}\n`);
    for (const hook of rule.hooks) {
      const cwd = hook.working_dir === undefined ? '' : `  working_dir=${hook.working_dir}`;
      const protocol = hook.protocol === 'soong' ? '' : `  protocol=${hook.protocol}`;
      const mode = hook.mode === 'spawn' ? '' : `  mode=${hook.mode}`;
      process.stdout.write(
        `  ${hook.id}  timeout=${hook.timeout}s  on_failure=${hook.on_failure}${protocol}${mode}${cwd}\n    ${hook.command}\n`,
      );
    }
  }
  return EXIT_CODES.ok;
}

interface SubjectOptions extends CommonOptions {
  tool?: string;
  path?: string[];
}

function buildSubject(
  event: HookEvent,
  options: SubjectOptions,
  config: LoadedConfig,
  tools: ReadonlyMap<string, AgentTool>,
  input?: unknown,
) {
  const subject: MatchSubject & { paths: string[] } = { event, paths: [] };
  let tool: AgentTool | undefined;
  if (options.tool !== undefined) {
    tool = lookUpTool(tools, options.tool);
    subject.tool = tool.name;
    subject.tags = tagsOf(tool);
    if (input !== undefined) subject.paths.push(...(tool.paths?.(input) ?? []));
  }
  for (const written of options.path ?? [])
    subject.paths.push(path.resolve(config.projectDir, written));
  if (input !== undefined) subject.input = input;
  return { subject, tool };
}

/** `soong-agent hooks explain EVENT`: per rule of the event, matched or the failing criterion key. */
export async function explainAction(
  eventName: string,
  options: SubjectOptions & { json?: boolean },
): Promise<number> {
  const event = parseEvent(eventName);
  const config = loadConfigOrExit(resolveLocations(options));
  const tools = toolsOf(config);
  printWarnings(allWarnings(config, tools));
  const { subject } = buildSubject(event, options, config, tools);
  const explanations = config.hooks.explain(subject).map((entry) => ({
    rule: `${event}[${entry.ruleIndex}]`,
    rule_index: entry.ruleIndex,
    matched: entry.matched,
    ...(entry.matched
      ? {}
      : { criterion: entry.criterion, expected: entry.expected, actual: entry.actual }),
    hooks: entry.rule.hooks.map((hook) => hook.id),
  }));
  if (options.json === true) {
    process.stdout.write(`${JSON.stringify({ event, subject, rules: explanations }, null, 2)}\n`);
    return EXIT_CODES.ok;
  }
  if (explanations.length === 0) process.stdout.write(`no rules for ${event}\n`);
  for (const entry of explanations) {
    const verdict =
      'criterion' in entry
        ? `not matched: ${entry.criterion} (expected ${entry.expected}, got ${entry.actual})`
        : `matched → runs ${entry.hooks.join(', ')}`;
    process.stdout.write(`${entry.rule}  ${verdict}\n`);
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

/**
 * `soong-agent hooks test EVENT`: builds the event's input like a session would (risk and tags from
 * the tool registry, paths from the tool plus `--path`), runs the matching hooks through the engine
 * with a memory sink, prints every hook run; exit 3 when a deny stands, else 0.
 */
export async function testAction(
  eventName: string,
  options: SubjectOptions & { input?: string; prompt?: string },
): Promise<number> {
  const event = parseEvent(eventName);
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
  const { subject } = buildSubject(event, options, config, tools, input);
  const sink = createMemoryEventSink({ sessionId: HOOKS_TEST_SESSION_ID });
  // As in a session, an --input too large for hook stdin reaches the hook as a summary plus
  // tool.input_artifact_ref; the artifact lives as long as this command.
  const artifactDir = mkdtempSync(path.join(os.tmpdir(), 'soong-agent-hooks-test-'));
  try {
    const engine = createHookEngine({
      config,
      sink,
      sessionId: HOOKS_TEST_SESSION_ID,
      projectDir: config.projectDir,
      artifacts: createFileArtifactStore(artifactDir),
    });
    return await runHooksTest({ event, engine, sink, config, subject, tools, input, options });
  } finally {
    rmSync(artifactDir, { recursive: true, force: true });
  }
}

async function runHooksTest({
  event,
  engine,
  sink,
  config,
  subject,
  tools,
  input,
  options,
}: {
  event: HookEvent;
  engine: ReturnType<typeof createHookEngine>;
  sink: ReturnType<typeof createMemoryEventSink>;
  config: LoadedConfig;
  subject: ReturnType<typeof buildSubject>['subject'];
  tools: ReturnType<typeof toolsOf>;
  input: Record<string, unknown>;
  options: { prompt?: string };
}): Promise<number> {
  const toolInfo = {
    name: subject.tool ?? '',
    call_id: 'call_test',
    input,
    risk: tools.get(subject.tool ?? '')?.risk ?? 'readonly',
    tags: [...(subject.tags ?? [])],
    paths: [...subject.paths],
  };
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
      outcome = await engine.run(
        'PostToolUse',
        { tool: toolInfo, result: { is_error: false, bytes: 0, content: '' }, duration_ms: 0 },
        { callId: toolInfo.call_id },
      );
      break;
    case 'Stop':
      outcome = await engine.run('Stop', {
        stop_hook_active: false,
        prevented_count: 0,
        previous_reasons: [],
        last_assistant_message: options.prompt ?? '',
      });
      break;
  }
  // A worker hook runs as in a session: started, one request, stopped.
  await engine.close();
  await sink.close();
  if (!config.hooksEnabled) {
    process.stdout.write('hooks are disabled (hooks.enabled = false in config.toml); none ran\n');
  } else if (outcome.results.length === 0) {
    process.stdout.write(
      `no hook matched ${event}${subject.tool === undefined ? '' : ` for ${subject.tool}`}\n`,
    );
  }
  const report = formatHookReport({
    records: sink.records,
    outcome,
    colors: colorEnabled(process.stdout),
  });
  process.stdout.write(`${report.join('\n')}\n`);
  const denied = outcome.decision === 'deny';
  return denied ? EXIT_CODES.denied : EXIT_CODES.ok;
}
