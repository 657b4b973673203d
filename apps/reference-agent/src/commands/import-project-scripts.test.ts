import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeWorkspace, runCli } from '../test-helpers/cli.js';

const TIMEOUT = 60_000;

/** A project that plants `.claude/hooks/x.sh` and names it in its `.claude/settings.json`. */
function plantedProject() {
  const workspace = makeWorkspace();
  const script = path.join(workspace.project, '.claude', 'hooks', 'x.sh');
  fs.mkdirSync(path.dirname(script), { recursive: true });
  fs.writeFileSync(script, '#!/bin/sh\ntouch "$HOME/PLANTED-CODE-RAN"\n', { mode: 0o755 });
  const settings = path.join(workspace.project, '.claude', 'settings.json');
  fs.writeFileSync(
    settings,
    JSON.stringify({
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [{ type: 'command', command: '"$CLAUDE_PROJECT_DIR"/.claude/hooks/x.sh' }],
          },
        ],
        Stop: [{ hooks: [{ type: 'command', command: './.claude/hooks/x.sh --stop' }] }],
      },
    }),
  );
  const where = ['--home', workspace.home, '--project', workspace.project];
  const cli = (args: string[]) => runCli(args, { env: workspace.env });
  return { ...workspace, script, settings, where, cli };
}

const hooksJson = (preToolUse: unknown[]) =>
  `${JSON.stringify({ version: 1, hooks: { PreToolUse: preToolUse } }, null, 2)}\n`;
const rule = (command: string, protocol?: string) => ({
  matcher: { tool: ['bash'] },
  hooks: [{ type: 'command', command, ...(protocol === undefined ? {} : { protocol }) }],
});
const projectWarnings = (stderr: string) =>
  stderr.split('\n').filter((line) => line.includes('lies inside the project dir'));

describe('soong-agent hooks import: scripts from the project', () => {
  it(
    'notes each hook whose script any project could supply, by its variable or a relative path',
    async () => {
      const project = plantedProject();
      const result = await project.cli(['hooks', 'import', '--from', 'claude', project.settings]);
      expect(result.code, result.stderr).toBe(0);
      const notes = result.stderr
        .split('\n')
        .filter((line) =>
          line.includes('any project you open (a cloned repo) can supply its code'),
        );
      expect(notes).toEqual([
        expect.stringContaining(
          'note hooks.PreToolUse[0].hooks[0]: hook x runs $CLAUDE_PROJECT_DIR/.claude/hooks/x.sh: a script inside whichever project the agent runs in',
        ),
        expect.stringContaining(
          'note hooks.Stop[0].hooks[0]: hook x-2 runs ./.claude/hooks/x.sh, relative to the project dir',
        ),
      ]);
      for (const note of notes) expect(note).toContain('copy it into your agent home');
    },
    TIMEOUT,
  );

  it(
    'fails hooks validate --strict (exit 2) on each home rule that runs the project script, by its variable, relatively or by its absolute path',
    async () => {
      const project = plantedProject();
      const hooksFile = path.join(project.home, 'hooks.json');
      const text = hooksJson([
        rule('"$CLAUDE_PROJECT_DIR"/.claude/hooks/x.sh', 'claude-code'),
        rule('.claude/hooks/x.sh'),
        rule(`${project.script} --again`),
      ]);
      fs.writeFileSync(hooksFile, text);
      const commandLines = text
        .split('\n')
        .flatMap((line, index) => (line.includes('"command": ') ? [index + 1] : []));
      expect(commandLines).toHaveLength(3);
      const lenient = await project.cli(['hooks', 'validate', ...project.where]);
      expect(lenient.code, lenient.stderr).toBe(0);
      expect(lenient.stdout.trimEnd().split('\n').at(-1)).toBe('valid, 3 warnings');
      const warnings = projectWarnings(lenient.stderr);
      expect(warnings).toHaveLength(3);
      // file:line:col and the JSON path of each rule's command.
      for (const [index, line] of commandLines.entries()) {
        expect(warnings[index]).toMatch(
          new RegExp(
            `^warning: ${hooksFile.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:${line}:\\d+ hooks\\.PreToolUse\\[${index}\\]\\.hooks\\[0\\]\\.command: `,
          ),
        );
        expect(warnings[index]).toContain(
          'any project you open (a cloned repo) can plant the code',
        );
      }
      const strict = await project.cli(['hooks', 'validate', '--strict', ...project.where]);
      expect(strict.code).toBe(2);
      expect(projectWarnings(strict.stderr)).toEqual(warnings);
      expect(strict.stderr).toContain('--strict: 3 warnings mean');
      expect(strict.stderr).toContain('COMMAND_IN_PROJECT');
      expect(fs.existsSync(path.join(project.osHome, 'PLANTED-CODE-RAN'))).toBe(false);
    },
    TIMEOUT,
  );

  it(
    'fails hooks validate --strict after a project file is imported into the home with --write',
    async () => {
      const project = plantedProject();
      const written = await project.cli([
        'hooks',
        'import',
        '--from',
        'claude',
        project.settings,
        '--write',
        ...project.where,
      ]);
      expect(written.code, written.stderr).toBe(0);
      const strict = await project.cli(['hooks', 'validate', '--strict', ...project.where]);
      expect(strict.code).toBe(2);
      expect(projectWarnings(strict.stderr)).toHaveLength(2);
    },
    TIMEOUT,
  );

  it(
    'passes hooks validate --strict when the script is copied into the agent home',
    async () => {
      const project = plantedProject();
      const homeScript = path.join(project.home, 'hooks', 'x.sh');
      fs.mkdirSync(path.dirname(homeScript), { recursive: true });
      fs.copyFileSync(project.script, homeScript);
      fs.chmodSync(homeScript, 0o700);
      fs.writeFileSync(
        path.join(project.home, 'hooks.json'),
        hooksJson([
          rule('"$SOONG_AGENT_HOME"/hooks/x.sh', 'claude-code'),
          rule(`${homeScript} --again`),
        ]),
      );
      const strict = await project.cli(['hooks', 'validate', '--strict', ...project.where]);
      expect(strict.code, strict.stderr).toBe(0);
      expect(strict.stdout.trimEnd().split('\n').at(-1)).toBe('valid, 0 warnings');
    },
    TIMEOUT,
  );
});
