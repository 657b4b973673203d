import fs from 'node:fs';
import path from 'node:path';
import { isPathInside, type RealpathMemo, realPathOfLongestAncestor } from '@soong-agent/paths';
import { BLOCKING_EVENTS } from '@soong-agent/protocol/internal';
import {
  analyzeCommand,
  type CommandTarget,
  type CommandWordsOptions,
  findProgramInPath,
  hookCommandVariables,
} from './command-words.js';
import type { HookRuleConfig } from './compiled-hooks.js';
import type { HooksFileInput } from './hooks-file-schema.js';
import {
  createIssue,
  displayPath,
  type IssueText,
  type JsonPath,
  type Position,
} from './issues.js';
import { parseShellWords } from './shell-words.js';

/** Every code a {@link ConfigWarning} can carry. */
export const CONFIG_WARNING_CODES = [
  'FILE_WRITABLE_BY_OTHERS',
  'COMMAND_NOT_FOUND',
  'COMMAND_NOT_EXECUTABLE',
  'ON_FAILURE_DENY_OBSERVE_ONLY',
  'AGENT_HOME_IN_PROJECT',
  'AGENT_HOME_MISSING',
  'COMMAND_IN_PROJECT',
  'UNKNOWN_TOOL',
] as const;

/** What a {@link ConfigWarning} is about. */
export type ConfigWarningCode = (typeof CONFIG_WARNING_CODES)[number];

/** A problem worth showing that does not stop the agent; recorded in `config_loaded`. */
export interface ConfigWarning {
  /** What the warning is about. */
  code: ConfigWarningCode;
  /** The full line shown to the user, in the same form as a ConfigError message. */
  message: string;
  /** The file (or directory) concerned, absolute. */
  file?: string;
  /** 1-based line, when known. */
  line?: number;
  /** 1-based column, when known. */
  column?: number;
  /** JSON path of the value concerned, when it is one. */
  path?: string;
}

/** Builds a warning placed like an issue. */
export function createWarning(options: {
  code: ConfigWarningCode;
  file: string;
  homeDir: string;
  position?: Position | undefined;
  jsonPath?: JsonPath | undefined;
  text: IssueText;
}): ConfigWarning {
  const issue = createIssue(options);
  const warning: ConfigWarning = { code: options.code, message: issue.message, file: issue.file };
  if (issue.line !== undefined) warning.line = issue.line;
  if (issue.column !== undefined) warning.column = issue.column;
  if (issue.path !== undefined) warning.path = issue.path;
  return warning;
}

/** FILE_WRITABLE_BY_OTHERS when `mode` has group or other write bits. */
export function writableWarning(
  file: string,
  mode: number,
  homeDir: string,
  what: string,
): ConfigWarning[] {
  if ((mode & 0o022) === 0) return [];
  const octal = (mode & 0o777).toString(8).padStart(3, '0');
  return [
    createWarning({
      code: 'FILE_WRITABLE_BY_OTHERS',
      file,
      homeDir,
      text: {
        problem: `${what} is writable by ${mode & 0o020 ? 'group' : ''}${(mode & 0o022) === 0o022 ? ' and ' : ''}${mode & 0o002 ? 'others' : ''} (mode ${octal}): someone else could change what your hooks run`,
        fix: `chmod go-w ${JSON.stringify(file)}`,
      },
    }),
  ];
}

/** Options of {@link hookWarnings}. */
interface HookWarningsOptions {
  rules: readonly HookRuleConfig[];
  file: string;
  homeDir: string;
  projectDir: string;
  /** The agent home: the value of `$SOONG_AGENT_HOME` in hook commands. */
  home: string;
  /** The PATH hook commands are looked up in. @default process.env.PATH */
  searchPath?: string | undefined;
  /** hooks.json as validated, to tell a hook's own `on_failure` from the default. */
  data: HooksFileInput;
  locate(jsonPath: JsonPath): Position | undefined;
}

// What the checks of one load share: the warnings so far, and what is looked up once per load.
interface HookWarningsState {
  options: HookWarningsOptions;
  warnings: ConfigWarning[];
  // Many hooks often run the same script: stat it once per load.
  stats: Map<string, fs.Stats | undefined>;
  writableScripts: Set<string>;
  memo: RealpathMemo;
  realProject: string;
  // With the project dir over the agent home (the agent run from ~), a script in the agent home is
  // "in the project" too, yet no project supplies it and the agent's write tools refuse it.
  realHome: string;
}

// One hook's checks: where it runs, how to warn about it, the project files already named.
interface HookCheck {
  state: HookWarningsState;
  command: string;
  /** The hook's working dir, absolute. */
  base: string;
  wordsOptions: CommandWordsOptions & { cwd: string };
  // Per hook, so `hooks validate --strict` names every hook that runs project code.
  projectScripts: Set<string>;
  warn(code: ConfigWarning['code'], key: string, text: IssueText): void;
}

/**
 * Warnings about the hooks themselves: a command path that does not exist or cannot be executed
 * (the classic silent guard failure), a script writable by others, and `on_failure = "deny"` on an
 * event that cannot block.
 */
export function hookWarnings(options: HookWarningsOptions): ConfigWarning[] {
  const memo: RealpathMemo = new Map();
  const state: HookWarningsState = {
    options,
    warnings: [],
    stats: new Map(),
    writableScripts: new Set(),
    memo,
    realProject: realPath(options.projectDir, memo),
    realHome: realPath(options.home, memo),
  };
  for (const rule of options.rules) {
    for (const hook of rule.hooks) warnAboutHook(state, rule, hook);
  }
  return state.warnings;
}

function warnAboutHook(
  state: HookWarningsState,
  rule: HookRuleConfig,
  hook: HookRuleConfig['hooks'][number],
): void {
  const { options } = state;
  const { file, homeDir } = options;
  const hookPath = ['hooks', rule.event, rule.ruleIndex, 'hooks', hook.hookIndex];
  const warn = (code: ConfigWarning['code'], key: string, text: IssueText) => {
    const jsonPath = [...hookPath, key];
    state.warnings.push(
      createWarning({ code, file, homeDir, position: options.locate(jsonPath), jsonPath, text }),
    );
  };
  const own = options.data.hooks?.[rule.event]?.[rule.ruleIndex]?.hooks[hook.hookIndex];
  if (own?.on_failure === 'deny' && !BLOCKING_EVENTS.includes(rule.event)) {
    warn('ON_FAILURE_DENY_OBSERVE_ONLY', 'on_failure', {
      problem: `on_failure "deny" has no effect on ${rule.event}: only ${BLOCKING_EVENTS.join(' and ')} can block`,
      fix: 'remove it, or move the hook to a blocking event',
    });
  }
  const base =
    hook.workingDir === undefined
      ? options.projectDir
      : path.resolve(options.projectDir, hook.workingDir);
  // The words as the shell will see them: the variables we set (SOONG_AGENT_HOME, and for a
  // Claude Code hook CLAUDE_PROJECT_DIR, spec §7) expanded, `bash -c` bodies followed. Only
  // what is run as a program or a script is a path: a jq filter, a sed expression or
  // `node -e` code never is.
  const wordsOptions = {
    cwd: base,
    homeDir,
    variables: hookCommandVariables({
      home: options.home,
      projectDir: options.projectDir,
      protocol: hook.protocol,
    }),
  };
  const check: HookCheck = {
    state,
    command: hook.command,
    base,
    wordsOptions,
    projectScripts: new Set(),
    warn,
  };
  // The first target that makes the hook fail every time is the one warned about.
  for (const target of analyzeCommand(hook.command, wordsOptions).targets) {
    const failsEveryTime =
      target.path === undefined
        ? checkProgramName(check, target)
        : checkCommandFile(check, target, target.path);
    if (failsEveryTime) break;
  }
}

// A bare name is looked up in PATH when the hook runs; a builtin is never there. True when the
// hook fails every time (and that was warned about).
function checkProgramName(check: HookCheck, target: CommandTarget): boolean {
  const { state } = check;
  if (SHELL_BUILTINS.has(target.text)) return false;
  const found = findProgramInPath(target.text, {
    searchPath: state.options.searchPath ?? process.env.PATH,
    cwd: check.base,
  });
  if (found !== undefined) {
    // A PATH entry inside the project (`.`, `node_modules/.bin`) runs a project file.
    const realProgram = realPath(found, state.memo);
    if (
      isPathInside(realProgram, state.realProject) &&
      !isPathInside(realProgram, state.realHome) &&
      !check.projectScripts.has(realProgram)
    ) {
      check.projectScripts.add(realProgram);
      check.warn('COMMAND_IN_PROJECT', 'command', {
        problem: `${target.text} is found on PATH inside the project dir (${realProgram}): ${PROJECT_CODE}`,
        fix: 'keep hook scripts in the agent home and write their path, e.g. ~/.soong-agent/hooks/',
      });
    }
    return false;
  }
  if (target.leading !== true) return false;
  if (target.text === programAllowedToFail(check.command, check.wordsOptions)) return false;
  check.warn('COMMAND_NOT_FOUND', 'command', {
    problem: `${target.text} is neither a shell builtin nor a program on PATH: this hook will fail every time`,
    fix: 'install it, or write the path of the script',
  });
  return true;
}

// A program or script named by its path: in the project, missing, not executable, writable by
// others. True when the hook fails every time (and that was warned about).
function checkCommandFile(check: HookCheck, target: CommandTarget, targetPath: string): boolean {
  const { state } = check;
  const stat = statOnce(state, targetPath);
  warnProjectFile(check, target, targetPath, stat);
  if (stat === undefined) {
    check.warn('COMMAND_NOT_FOUND', 'command', {
      problem:
        target.role === 'script'
          ? `${target.text} does not exist (${targetPath}): ${target.runner} will fail every time`
          : `${target.text} does not exist (${targetPath}): this hook will fail every time`,
      fix: 'fix the path or create the script',
    });
    return true;
  }
  if (target.role === 'program' && (!stat.isFile() || (stat.mode & 0o111) === 0)) {
    check.warn('COMMAND_NOT_EXECUTABLE', 'command', {
      problem: `${target.text} is ${stat.isFile() ? 'not executable' : 'not a file'}: this hook will fail every time`,
      fix: stat.isFile()
        ? `chmod +x ${JSON.stringify(targetPath)}`
        : 'point the command at a script',
    });
    return true;
  }
  if (stat.isFile() && (stat.mode & 0o022) !== 0 && !state.writableScripts.has(targetPath)) {
    state.writableScripts.add(targetPath);
    state.warnings.push(
      ...writableWarning(targetPath, stat.mode, state.options.homeDir, 'the hook script'),
    );
  }
  return false;
}

// Whichever project is open supplies the file, and the agent's own write tools can change it
// mid-session: the snapshot covers hooks.json, not the files its commands run (one not created
// yet included: another project may have it).
function warnProjectFile(
  check: HookCheck,
  target: CommandTarget,
  targetPath: string,
  stat: fs.Stats | undefined,
): void {
  const { state, base } = check;
  const realScript = realPath(targetPath, state.memo);
  if (
    !(stat === undefined || stat.isFile()) ||
    !isPathInside(realScript, state.realProject) ||
    check.projectScripts.has(realScript)
  )
    return;
  const inHome = isPathInside(realScript, state.realHome);
  const relative = !target.text.startsWith('/') && !target.text.startsWith('~');
  if (!inHome) {
    check.projectScripts.add(realScript);
    check.warn('COMMAND_IN_PROJECT', 'command', {
      problem: `${target.text} lies inside the project dir (${realScript}): ${PROJECT_CODE}`,
      fix: 'copy it into the agent home (e.g. ~/.soong-agent/hooks/) and point the command there',
    });
  } else if (relative && !isPathInside(realPath(base, state.memo), state.realHome)) {
    // In the agent home, but only because this project dir is above it: written relative,
    // it names another file in every other project.
    check.projectScripts.add(realScript);
    check.warn('COMMAND_IN_PROJECT', 'command', {
      problem: `${target.text} is relative to the working dir (${base}): it is ${realScript} in the agent home only while the project dir is ${state.options.projectDir}; in any other project it names that project's file: ${PROJECT_CODE}`,
      fix: `write its full path, ${displayPath(realScript, state.options.homeDir)}`,
    });
  }
}

function statOnce(state: HookWarningsState, target: string): fs.Stats | undefined {
  if (!state.stats.has(target)) {
    let stat: fs.Stats | undefined;
    try {
      stat = fs.statSync(target);
    } catch {
      stat = undefined;
    }
    state.stats.set(target, stat);
  }
  return state.stats.get(target);
}

// Why a hook file inside the project is a warning (`hooks validate --strict` fails on it).
const PROJECT_CODE =
  "a home hook runs in every project, so whichever project the agent runs in supplies this file: any project you open (a cloned repo) can plant the code it runs, and the agent's own write tools can change it mid-session";

// `CMD || true`, `CMD || :`, `CMD; true`: what comes before the final `true` or `:`.
const ACCEPTED_FAILURE = /^([\s\S]*)(?:\|\||;|\n)[ \t]*(?:true|:)[\s;]*$/;

/**
 * The PATH program of `command` when the command is that one simple command followed by `|| true`,
 * `|| :` or `; true` (`notify-send "done" || true`): the user accepted that it may be missing, and
 * the hook then exits 0 with no decision, so it does not fail every time. A list before the `true`
 * (`jq … && echo '{"decision":"deny"}' || true`) does not count: there the missing program is what
 * would decide, and the guard would never deny.
 */
function programAllowedToFail(
  command: string,
  options: CommandWordsOptions & { cwd: string },
): string | undefined {
  const first = ACCEPTED_FAILURE.exec(command)?.[1];
  if (first === undefined || parseShellWords(first, options).commands.length !== 1)
    return undefined;
  const program = analyzeCommand(first, options).targets[0];
  return program?.role === 'program' && program.path === undefined ? program.text : undefined;
}

// Names the shell runs itself: never looked up in PATH.
const SHELL_BUILTINS = new Set(
  (
    ': . [ [[ alias bg break builtin cd command continue declare echo eval exec exit export false fc fg ' +
    'getopts hash jobs kill let local printf pwd read readonly return set shift source test times ' +
    'trap true type typeset ulimit umask unalias unset wait'
  ).split(' '),
);

/**
 * AGENT_HOME_MISSING when the home does not exist: nothing is read from it,
 * so no hook runs; a mistyped `SOONG_AGENT_HOME` would otherwise switch every guard off in silence.
 */
export function homeMissingWarning(home: string, homeDir: string): ConfigWarning[] {
  if (fs.existsSync(home)) return [];
  return [
    createWarning({
      code: 'AGENT_HOME_MISSING',
      file: home,
      homeDir,
      text: {
        problem: 'the agent home does not exist: no hooks.json is read, so no hook runs',
        fix: 'create it, or point --home / SOONG_AGENT_HOME at your agent home',
      },
    }),
  ];
}

/** AGENT_HOME_IN_PROJECT when the home (symlinks resolved) lies at or under the project dir. */
export function homeInProjectWarning(
  home: string,
  projectDir: string,
  homeDir: string,
): ConfigWarning[] {
  const memo: RealpathMemo = new Map();
  if (!isPathInside(realPath(home, memo), realPath(projectDir, memo))) return [];
  return [
    createWarning({
      code: 'AGENT_HOME_IN_PROJECT',
      file: home,
      homeDir,
      text: {
        problem: `the agent home is inside the project dir ${projectDir}: the agent's own tools could edit its hooks`,
        fix: 'move the agent home out of the project (--home or SOONG_AGENT_HOME)',
      },
    }),
  ];
}

// Where a path really leads, existing or not (a missing agent home reached through a symlinked
// folder is still inside the project): the rule the write tools refuse with.
function realPath(target: string, memo: RealpathMemo): string {
  return realPathOfLongestAncestor(path.resolve(target), memo);
}
