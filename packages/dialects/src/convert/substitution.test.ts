import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { convertCursorConfig } from '../cursor.js';
import { convertGeminiConfig } from '../gemini.js';
import { convertClaudeCodeConfig } from './claude.js';

// The agents' placeholders, written literally in their files.
const EXTENSION_PATH = ['$', '{extensionPath}'].join('');
const WORKSPACE_PATH = ['$', '{workspacePath}'].join('');
const SEPARATOR = ['$', '{/}'].join('');
const PLUGIN_ROOT = ['$', '{CLAUDE_PLUGIN_ROOT}'].join('');

// Folder names an attacker picks: each would run `touch PWNED` if pasted into a command as is.
const HOSTILE_NAMES = [
  'ext; touch PWNED #',
  'ext$(touch PWNED)',
  'ext`touch PWNED`',
  `e'x"t; touch PWNED; echo '`,
  'ext\n touch PWNED',
  'a b && touch PWNED || true',
];

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) fs.rmSync(root, { recursive: true, force: true });
});

/** A temp dir holding `name/hooks/guard.sh` (it writes `$RAN_DIR/RAN` with its arguments) and an empty cwd. */
function plantExtension(name: string) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'soong-dialects-ext-'));
  roots.push(root);
  const folder = path.join(root, name);
  fs.mkdirSync(path.join(folder, 'hooks'), { recursive: true });
  const script = path.join(folder, 'hooks', 'guard.sh');
  fs.writeFileSync(script, '#!/bin/sh\nprintf "%s|" "$@" > "$RAN_DIR/RAN"\n', { mode: 0o755 });
  const cwd = path.join(root, 'cwd');
  fs.mkdirSync(cwd);
  return { folder, cwd };
}

/** Runs a converted command as the runner does (`/bin/sh -c`, in `cwd`); PWNED looked for anywhere. */
function runCommand(command: string, cwd: string, env: Record<string, string> = {}) {
  execFileSync('/bin/sh', ['-c', command], {
    cwd,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', RAN_DIR: cwd, ...env },
  });
  const root = path.dirname(cwd);
  return {
    pwned: fs
      .readdirSync(root, { recursive: true, encoding: 'utf8' })
      .some((entry) => path.basename(entry) === 'PWNED'),
    ran: fs.existsSync(path.join(cwd, 'RAN')) ? fs.readFileSync(path.join(cwd, 'RAN'), 'utf8') : '',
  };
}

function commandsOf(result: { hooks: { hooks: Record<string, unknown> } }): string[] {
  return Object.values(result.hooks.hooks).flatMap((rules) =>
    (rules as { hooks: { command: string }[] }[]).flatMap((rule) =>
      rule.hooks.map((hook) => hook.command),
    ),
  );
}

const geminiFile = (command: string) =>
  JSON.stringify({ hooks: { BeforeTool: [{ hooks: [{ type: 'command', command }] }] } });

describe('convertGeminiConfig', () => {
  const forms = [
    `${EXTENSION_PATH}/hooks/guard.sh one`,
    `"${EXTENSION_PATH}/hooks/guard.sh" one`,
    `sh ${EXTENSION_PATH}${SEPARATOR}hooks${SEPARATOR}guard.sh one`,
    `"$(dirname "${EXTENSION_PATH}/hooks/guard.sh")/guard.sh" one # from ${EXTENSION_PATH}`,
    `cd "${EXTENSION_PATH}" && ./hooks/guard.sh one`,
  ];
  for (const name of HOSTILE_NAMES) {
    it.each(forms)(
      `runs the extension's script and nothing of its folder's name ${JSON.stringify(name)} when the command is %s`,
      (form) => {
        const { folder, cwd } = plantExtension(name);
        const result = convertGeminiConfig(geminiFile(form), { plugin: { root: folder } });
        expect(result.refused).toEqual([]);
        const [command] = commandsOf(result);
        const outcome = runCommand(command as string, cwd);
        expect(outcome.pwned).toBe(false);
        expect(outcome.ran).toBe('one|');
      },
    );
  }

  it('refuses an extension folder that needs quoting where it cannot be quoted', () => {
    const { folder } = plantExtension('ext; touch PWNED #');
    for (const form of [
      `sh -c '${EXTENSION_PATH}/hooks/guard.sh'`,
      `bash -c "${EXTENSION_PATH}/hooks/guard.sh"`,
      `eval ${EXTENSION_PATH}/hooks/guard.sh`,
      `node -e 'require("${EXTENSION_PATH}/x.js")'`,
      `cat <<EOF\n${EXTENSION_PATH}\nEOF`,
    ]) {
      const result = convertGeminiConfig(geminiFile(form), { plugin: { root: folder } });
      expect(
        result.refused.map((refusal) => refusal.path),
        form,
      ).toEqual(['hooks.BeforeTool[0].hooks[0].command']);
    }
  });

  it('fills in a folder that needs no quoting as it is, in every form', () => {
    const result = convertGeminiConfig(geminiFile(`sh -c '${EXTENSION_PATH}/hooks/guard.sh'`), {
      plugin: { root: '/ext/plain-name' },
    });
    expect(commandsOf(result)).toEqual(["sh -c '/ext/plain-name/hooks/guard.sh'"]);
  });

  it('expands the workspace path as one word, unquoted or inside double quotes', () => {
    const { folder: project, cwd } = plantExtension('my project; touch PWNED #');
    for (const form of [
      `${WORKSPACE_PATH}/hooks/guard.sh one`,
      `"${WORKSPACE_PATH}/hooks/guard.sh" one`,
      `sh -c "${WORKSPACE_PATH}/hooks/guard.sh one"`,
    ]) {
      fs.rmSync(path.join(cwd, 'RAN'), { force: true });
      const [command] = commandsOf(convertGeminiConfig(geminiFile(form)));
      const outcome = runCommand(command as string, cwd, { GEMINI_PROJECT_DIR: project });
      expect(outcome, form).toEqual({ pwned: false, ran: 'one|' });
    }
  });
});

describe('convertClaudeCodeConfig', () => {
  it.each(HOSTILE_NAMES)(
    "runs a plugin's script through args and nothing of its folder's name %j",
    (name) => {
      const { folder, cwd } = plantExtension(name);
      const settings = JSON.stringify({
        hooks: {
          PreToolUse: [
            {
              hooks: [
                { type: 'command', command: `${PLUGIN_ROOT}/hooks/guard.sh`, args: ['one'] },
                { type: 'command', command: `"${PLUGIN_ROOT}/hooks/guard.sh" one` },
              ],
            },
          ],
        },
      });
      const result = convertClaudeCodeConfig(settings, { plugin: { root: folder } });
      expect(result.refused).toEqual([]);
      for (const command of commandsOf(result)) {
        fs.rmSync(path.join(cwd, 'RAN'), { force: true });
        expect(runCommand(command, cwd), command).toEqual({ pwned: false, ran: 'one|' });
      }
    },
  );

  it('gives a shell: "bash" body to bash unexpanded, so a project folder name is never code', () => {
    const { folder: project, cwd } = plantExtension('proj$(touch PWNED)');
    const settings = JSON.stringify({
      hooks: {
        Stop: [
          {
            hooks: [
              {
                type: 'command',
                shell: 'bash',
                command: '"$CLAUDE_PROJECT_DIR"/hooks/guard.sh one',
              },
            ],
          },
        ],
      },
    });
    const [command] = commandsOf(convertClaudeCodeConfig(settings));
    expect(runCommand(command as string, cwd, { CLAUDE_PROJECT_DIR: project })).toEqual({
      pwned: false,
      ran: 'one|',
    });
  });
});

describe('convertCursorConfig', () => {
  it("writes a user hook's relative script under its folder as one word", () => {
    const { folder, cwd } = plantExtension('cursor home; touch PWNED #');
    const file = path.join(folder, 'hooks.json');
    const text = JSON.stringify({
      version: 1,
      hooks: { stop: [{ command: './hooks/guard.sh one' }] },
    });
    const [command] = commandsOf(convertCursorConfig(text, { file, scope: 'user' }));
    expect(runCommand(command as string, cwd)).toEqual({ pwned: false, ran: 'one|' });
  });
});
