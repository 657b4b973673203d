import {
  Command,
  CommanderError,
  type CommandUnknownOpts,
  InvalidArgumentError,
  type OptionValues,
} from '@commander-js/extra-typings';
import { HOOK_EVENTS } from '@soong-agent/protocol/events';
import type { CommonOptions } from './common-options.js';
import { CliError, EXIT_CODES } from './errors.js';

// From the protocol's one list (a module without zod, so --help stays fast).
const EVENT_CHOICES = HOOK_EVENTS.join(' | ');

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

function positiveInteger(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1)
    throw new InvalidArgumentError('expected a positive integer');
  return parsed;
}

function withCommonOptions<Args extends unknown[], Opts extends OptionValues>(
  command: Command<Args, Opts>,
) {
  return command
    .option('--home <dir>', 'agent home (default: $SOONG_AGENT_HOME, else ~/.soong-agent)')
    .option('--project <dir>', 'project dir (default: the current dir)');
}

/** A command's action: its arguments, then its options (typed from the declarations). */
type Action<Args extends unknown[], Opts> = (...args: [...Args, Opts]) => Promise<number>;

// commander passes (...arguments, options, command). `hooks --home X validate` gives --home to the
// `hooks` group; the subcommand's own value wins, the group's fills in.
function withGroupOptions<Args extends unknown[], Opts>(
  args: [...Args, Opts, CommandUnknownOpts],
): [...Args, Opts] {
  const command = args.at(-1) as CommandUnknownOpts;
  const own = args.at(-2) as Opts & CommonOptions;
  const positional = args.slice(0, -2) as Args;
  const group: CommonOptions =
    command.parent?.parent === null ? {} : (command.parent?.opts() ?? {});
  const merged = { ...own };
  for (const key of ['home', 'project'] as const) {
    if (merged[key] === undefined && group[key] !== undefined) merged[key] = group[key];
  }
  return [...positional, merged];
}

/** Builds the `soong-agent` commander program. `run` receives each action's exit code. */
export function createProgram(
  version: string,
  run: (action: () => Promise<number>) => Promise<void>,
): Command {
  const program = new Command('soong-agent')
    .description(
      'A reference coding agent that runs your hooks: scripted model, built-in tools, event log.',
    )
    .version(version, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    // Options belong to the command they follow: `hooks --home X validate` and
    // `hooks validate --home X` both work (see withGroupOptions).
    .enablePositionalOptions();
  program.configureHelp({ sortSubcommands: false });
  // Each action is loaded on first use; its parameter types are checked against what the command
  // declares (@commander-js/extra-typings infers them), so a declaration and its action cannot drift.
  const bind: Bind =
    (load) =>
    (...args) =>
      run(async () => (await load())(...withGroupOptions(args)));
  addSessionCommands(program, bind);
  addHooksCommands(program, bind);
  addToolCommands(program, bind);
  return program;
}

/** Loads an action on first use and hands it the arguments and the merged options. */
type Bind = <Args extends unknown[], Opts>(
  load: () => Promise<Action<Args, Opts>>,
) => (...args: [...Args, Opts, CommandUnknownOpts]) => Promise<void>;

/** `run`, `chat` and `demo`: the commands that run the agent loop. */
function addSessionCommands(program: Command, bind: Bind): void {
  withCommonOptions(program.command('run'))
    .description('run one agent loop on PROMPT; timeline on stderr, final answer on stdout')
    .argument('<prompt>', 'the user prompt')
    .option(
      '--model <spec>',
      'model to use: openai:MODEL, anthropic:MODEL or scripted:FILE (default: [model] in config.toml)',
    )
    .option(
      '--base-url <url>',
      "the model API's address (default: base_url in [model], else OPENAI_BASE_URL / ANTHROPIC_BASE_URL, else the vendor's)",
    )
    .option('--yes', 'treat permission "ask" as allow (never "deny")')
    .option('--json', 'print the event records as JSON lines on stdout instead of the timeline')
    .option(
      '--max-turns <n>',
      'model calls before the loop stops with max_turns',
      positiveInteger,
      20,
    )
    .option('--no-hooks', 'run without hooks (recorded in config_loaded)')
    .action(bind(async () => (await import('./commands/run.js')).runAction));

  withCommonOptions(program.command('chat'))
    .description(
      'an interactive session on a terminal: each line is a prompt; Ctrl-C cancels what runs, /exit or Ctrl-D ends',
    )
    .option(
      '--model <spec>',
      'model to use: openai:MODEL, anthropic:MODEL or scripted:FILE (default: [model] in config.toml)',
    )
    .option(
      '--base-url <url>',
      "the model API's address (default: base_url in [model], else OPENAI_BASE_URL / ANTHROPIC_BASE_URL, else the vendor's)",
    )
    .option('--yes', 'treat permission "ask" as allow (never "deny")')
    .option(
      '--max-turns <n>',
      'model calls per prompt before its loop stops with max_turns',
      positiveInteger,
      20,
    )
    .option('--no-hooks', 'run without hooks (recorded in config_loaded)')
    .action(bind(async () => (await import('./commands/chat.js')).chatAction));

  program
    .command('demo')
    .description(
      'run the bundled offline demo that shows every deny path, in its own home and project (never your ~/.soong-agent)',
    )
    .option(
      '--home <dir>',
      'where to copy the demo agent home; must be empty or new (default: a fresh temp dir, removed at the end unless --keep)',
    )
    .option(
      '--project <dir>',
      'where to copy the demo project; must be empty or new (default: a fresh temp dir, removed at the end unless --keep)',
    )
    .option('--keep', 'keep the temp dirs, to inspect the event log afterwards')
    .option('--json', 'print the event records as JSON lines on stdout instead of the timeline')
    .action(bind(async () => (await import('./commands/demo.js')).demoAction));
}

/** `hooks validate | list | explain | test | import`. */
function addHooksCommands(program: Command, bind: Bind): void {
  const hooks = withCommonOptions(program.command('hooks')).description(
    'inspect and try the hooks of the agent home',
  );
  withCommonOptions(hooks.command('validate'))
    .description('check config.toml and hooks.json; exit 0 valid, 2 invalid')
    .option(
      '--strict',
      'also exit 2 on warnings that mean a hook can never run or never match (unknown tool, missing or non-executable script, missing agent home) or runs a script inside the project (any project you open could supply its code)',
    )
    .action(bind(async () => (await import('./commands/hooks-validate.js')).validateAction));
  withCommonOptions(hooks.command('list'))
    .description('list the effective rules and hooks with their ids')
    .option('--json', 'print JSON')
    .action(bind(async () => (await import('./commands/hooks.js')).listAction));
  withCommonOptions(hooks.command('explain'))
    .description('for each rule of EVENT: matched, or which criterion failed')
    .argument('<event>', EVENT_CHOICES)
    .option('--tool <name>', 'canonical tool name')
    .option('--risk <class>', 'risk class of a --tool the agent does not know')
    .option('--path <path>', 'a tool-call path (repeatable)', collect, [])
    .option('--json', 'print JSON')
    .action(bind(async () => (await import('./commands/hooks.js')).explainAction));
  withCommonOptions(hooks.command('test'))
    .description(
      'run the hooks matching EVENT exactly as a session would; exit 3 when a deny stands',
    )
    .argument('<event>', EVENT_CHOICES)
    .option('--tool <name>', 'canonical tool name (tool events)')
    .option('--risk <class>', 'risk class of a --tool the agent does not know')
    .option('--input <json>', "the tool call's input object, as JSON")
    .option(
      '--path <path>',
      "a tool-call path in addition to the tool's own (repeatable)",
      collect,
      [],
    )
    .option(
      '--prompt <text>',
      "the prompt (UserPromptSubmit; on Stop the loop's prompt, and the last assistant message unless --stop gives one)",
    )
    .option('--result <text>', 'the tool result (PostToolUse), bounded as in a session')
    .option('--result-error', 'the tool result is an error (PostToolUse)')
    .option(
      '--stop <json>',
      'Stop counters, e.g. \'{"prevented_count":1,"last_assistant_message":"All done."}\'',
    )
    .action(bind(async () => (await import('./commands/hooks.js')).testAction));

  withCommonOptions(hooks.command('import'))
    .description(
      "convert another agent's hooks (Claude Code, Codex, Gemini CLI, Cursor, Copilot CLI) into hooks.json rules that run them unmodified (\"protocol\" set to the agent's dialect); prints the result, or merges it into the home's hooks.json with --write",
    )
    .argument(
      '[file]',
      "the agent's hooks file (default: its user-level file: ~/.claude/settings.json, ~/.codex/hooks.json and config.toml, ~/.gemini/settings.json, ~/.cursor/hooks.json, ~/.copilot/hooks/*.json; a project's file only when named)",
    )
    .requiredOption(
      '--from <source>',
      'where the hooks come from: claude, codex, gemini, cursor or copilot',
    )
    .option('--write', "merge into the home's hooks.json (the old file kept as hooks.json.bak)")
    .option(
      '--plugin-root <dir>',
      "the file is a plugin's hooks file and DIR the plugin (found by itself when DIR holds .claude-plugin/plugin.json)",
    )
    .action(bind(async () => (await import('./commands/import.js')).importAction));
}

/** `mcp-proxy` and `events`. */
function addToolCommands(program: Command, bind: Bind): void {
  withCommonOptions(program.command('mcp-proxy'))
    .description(
      'a stdio MCP server in front of COMMAND (a stdio MCP server): every tools/call goes through your hooks as mcp__<NAME>__<tool>',
    )
    .usage('[options] -- COMMAND [ARGS...]')
    .argument('<command...>', 'the upstream MCP server and its arguments, after --')
    .option('--name <name>', "the server's name in mcp__<NAME>__<tool> (default: its own name)")
    .passThroughOptions()
    .action(bind(async () => (await import('./commands/mcp-proxy.js')).mcpProxyAction));

  withCommonOptions(program.command('events'))
    .description("print a session's event log (latest session by default)")
    .argument('[session-id]', 'session id (default: the latest)')
    .option('--json', 'print the records as JSON lines')
    .action(bind(async () => (await import('./commands/events.js')).eventsAction));
}

/** Runs the CLI on `argv` (as `process.argv`) and resolves to the exit code. */
export async function main(argv: readonly string[], version: string): Promise<number> {
  let exitCode: number = EXIT_CODES.ok;
  const program = createProgram(version, async (action) => {
    try {
      exitCode = await action();
    } catch (error) {
      if (CliError.isInstance(error)) {
        // Configuration errors are printed exactly as the config package words them (file:line:col …).
        process.stderr.write(
          error.code === 'CONFIG' ? `${error.message}\n` : `soong-agent: ${error.message}\n`,
        );
        exitCode = error.exitCode;
        return;
      }
      // A full or read-only disk is not a bug: one line, no stack. (Loaded here, not up front:
      // it pulls in loop-adapter, and `--help` must stay close to a bare `node` start.)
      const disk = (await import('./disk-errors.js')).diskErrorMessage(error);
      if (disk !== undefined) {
        process.stderr.write(`soong-agent: ${disk}\n`);
        exitCode = EXIT_CODES.runtime;
      } else {
        process.stderr.write(
          `soong-agent: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
        );
        exitCode = EXIT_CODES.runtime;
      }
    }
  });
  try {
    await program.parseAsync([...argv]);
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end with exit code 0; a missing subcommand or a bad flag is a usage error.
      return error.exitCode === 0 ? EXIT_CODES.ok : EXIT_CODES.usage;
    }
    throw error;
  }
  return exitCode;
}
