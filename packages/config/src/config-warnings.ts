import fs from 'node:fs';
import path from 'node:path';
import {
  isPathInside,
  type RealpathMemo,
  realPathOfLongestAncestor,
  resolveUserPath,
} from '@soong-agent/paths';
import { BLOCKING_EVENTS } from '@soong-agent/protocol';
import { commandWords, expandClaudeProjectDir } from './command-words.js';
import type { HookRuleConfig } from './compiled-hooks.js';
import type { HooksFileInput } from './hooks-file-schema.js';
import { createIssue, type IssueText, type JsonPath, type Position } from './issues.js';

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

/** The first word of a shell command when it is a path (contains `/` or starts with `~`), unquoted. */
export function commandPath(command: string): string | undefined {
  const match = /^\s*(?:'([^']*)'|"([^"$`\\]*)"|([^\s'"]+))/.exec(command);
  const word = match?.[1] ?? match?.[2] ?? match?.[3];
  if (word === undefined || word === '') return undefined;
  if (match?.[3] !== undefined && /[$`\\*?[{;&|<>()]/.test(word)) return undefined;
  // `~user/…` is another user's home: not resolvable here, so not checked.
  if (word.startsWith('~') && word !== '~' && !word.startsWith('~/')) return undefined;
  return word.includes('/') || word.startsWith('~') ? word : undefined;
}

/**
 * Warnings about the hooks themselves: a command path that does not exist or cannot be executed
 * (the classic silent guard failure), a script writable by others, and `on_failure = "deny"` on an
 * event that cannot block.
 */
export function hookWarnings(options: {
  rules: readonly HookRuleConfig[];
  file: string;
  homeDir: string;
  projectDir: string;
  /** hooks.json as validated, to tell a hook's own `on_failure` from the default. */
  data: HooksFileInput;
  locate(jsonPath: JsonPath): Position | undefined;
}): ConfigWarning[] {
  const { file, homeDir } = options;
  const warnings: ConfigWarning[] = [];
  // Many hooks often run the same script: stat it once per load.
  const stats = new Map<string, fs.Stats | undefined>();
  const statOnce = (target: string): fs.Stats | undefined => {
    if (!stats.has(target)) {
      let stat: fs.Stats | undefined;
      try {
        stat = fs.statSync(target);
      } catch {
        stat = undefined;
      }
      stats.set(target, stat);
    }
    return stats.get(target);
  };
  const writableScripts = new Set<string>();
  const projectScripts = new Set<string>();
  const memo: RealpathMemo = new Map();
  const realProject = realPath(options.projectDir, memo);
  for (const rule of options.rules) {
    for (const hook of rule.hooks) {
      const hookPath = ['hooks', rule.event, rule.ruleIndex, 'hooks', hook.hookIndex];
      const warn = (code: ConfigWarning['code'], key: string, text: IssueText) => {
        const jsonPath = [...hookPath, key];
        warnings.push(
          createWarning({
            code,
            file,
            homeDir,
            position: options.locate(jsonPath),
            jsonPath,
            text,
          }),
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
      // A Claude Code hook gets CLAUDE_PROJECT_DIR (SPEC §7): its scripts are checked where the
      // variable will point.
      const command =
        hook.protocol === 'claude-code'
          ? expandClaudeProjectDir(hook.command, options.projectDir)
          : hook.command;
      // The snapshot covers hooks.json, not the files its commands name: one inside the project
      // (`python3 hooks/guard.py`, not only `./guard.sh`) can be rewritten by the agent's own
      // write tools in the middle of the session it guards.
      const words = commandWords(command);
      for (const word of words) {
        if (word.program && !word.text.includes('/')) continue;
        const resolved = resolveUserPath(word.text, base, homeDir);
        const pathLike = word.text.includes('/') || word.text.startsWith('~');
        const stat = statOnce(resolved);
        // A path-like word may name a script not created yet; a bare one counts when it exists.
        if (!(stat?.isFile() || (pathLike && stat === undefined && !word.program))) continue;
        const realScript = realPath(resolved, memo);
        if (!isPathInside(realScript, realProject) || projectScripts.has(realScript)) continue;
        projectScripts.add(realScript);
        warn('COMMAND_IN_PROJECT', 'command', {
          problem: `${word.text} lies inside the project dir (${realScript}): the agent's own write tools can change what this hook runs, mid-session`,
          fix: 'keep hook scripts in the agent home, e.g. ~/.soong-agent/hooks/',
        });
      }
      // `python3 guard.py`: the script an interpreter is given must exist too.
      const script = interpreterScript(words);
      if (script !== undefined) {
        const resolved = resolveUserPath(script, base, homeDir);
        if (statOnce(resolved) === undefined) {
          warn('COMMAND_NOT_FOUND', 'command', {
            problem: `${script} does not exist (${resolved}): ${words[0]?.text} will fail every time`,
            fix: 'fix the path or create the script',
          });
          continue;
        }
      }
      const first = words[0];
      const written =
        first?.program === true && (first.text.includes('/') || first.text.startsWith('~'))
          ? first.text
          : commandPath(command);
      if (written === undefined) continue;
      const resolved = resolveUserPath(written, base, homeDir);
      const stat = statOnce(resolved);
      if (stat === undefined) {
        warn('COMMAND_NOT_FOUND', 'command', {
          problem: `${written} does not exist (${resolved}): this hook will fail every time`,
          fix: 'fix the path or create the script',
        });
        continue;
      }
      if (!stat.isFile() || (stat.mode & 0o111) === 0) {
        warn('COMMAND_NOT_EXECUTABLE', 'command', {
          problem: `${written} is ${stat.isFile() ? 'not executable' : 'not a file'}: this hook will fail every time`,
          fix: stat.isFile()
            ? `chmod +x ${JSON.stringify(resolved)}`
            : 'point the command at a script',
        });
      } else if ((stat.mode & 0o022) !== 0 && !writableScripts.has(resolved)) {
        writableScripts.add(resolved);
        warnings.push(...writableWarning(resolved, stat.mode, homeDir, 'the hook script'));
      }
    }
  }
  return warnings;
}

const INTERPRETERS = /^(?:python[0-9.]*|node|nodejs|deno|bun|bash|sh|dash|zsh|ruby|perl|php|lua)$/;

/** The script of `python3 [options] script.py …` (a simple command's first operand), if any. */
function interpreterScript(
  words: readonly { text: string; program: boolean }[],
): string | undefined {
  const [program, ...rest] = words;
  if (program === undefined || !program.program) return undefined;
  if (!INTERPRETERS.test(path.basename(program.text))) return undefined;
  for (const word of rest) {
    if (word.program) return undefined;
    if (word.text.startsWith('-')) {
      // `-c CODE` / `-e CODE` / `-m module`: no script file follows.
      if (/^-[cem]$/.test(word.text) || word.text === '--eval') return undefined;
      continue;
    }
    return /\.(?:py|sh|bash|zsh|js|mjs|cjs|ts|mts|rb|pl|php|lua)$/.test(word.text)
      ? word.text
      : undefined;
  }
  return undefined;
}

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
