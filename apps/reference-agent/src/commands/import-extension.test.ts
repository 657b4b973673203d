import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeWorkspace, runCli, runShell } from '../test-helpers/cli.js';

const TIMEOUT = 60_000;
// Gemini CLI's placeholder, written literally in an extension's hooks file.
const EXTENSION_PATH = ['$', '{extensionPath}'].join('');

describe('soong-agent hooks import --from gemini: an extension folder named to inject', () => {
  it(
    'converts "ext; touch PWNED #" into a command that runs the extension script and nothing else',
    async () => {
      const workspace = makeWorkspace();
      const extension = path.join(workspace.osHome, '.gemini', 'extensions', 'ext; touch PWNED #');
      fs.mkdirSync(path.join(extension, 'hooks'), { recursive: true });
      fs.writeFileSync(
        path.join(extension, 'gemini-extension.json'),
        JSON.stringify({ name: 'ext', version: '1.0.0' }),
      );
      fs.writeFileSync(
        path.join(extension, 'hooks', 'guard.sh'),
        '#!/bin/sh\nprintf "%s" "$1" > guard-ran\n',
        { mode: 0o755 },
      );
      const hooksFile = path.join(extension, 'hooks', 'hooks.json');
      fs.writeFileSync(
        hooksFile,
        JSON.stringify({
          hooks: {
            BeforeTool: [
              {
                matcher: 'run_shell_command',
                hooks: [
                  { type: 'command', command: `${EXTENSION_PATH}/hooks/guard.sh bare` },
                  { type: 'command', command: `"${EXTENSION_PATH}/hooks/guard.sh" quoted` },
                ],
              },
            ],
          },
        }),
      );
      const where = ['--home', workspace.home, '--project', workspace.project];
      const result = await runCli(['hooks', 'import', '--from', 'gemini', hooksFile, ...where], {
        env: workspace.env,
      });
      expect(result.code, result.stderr).toBe(0);
      const converted = JSON.parse(result.stdout) as {
        hooks: { PreToolUse: { hooks: { command: string }[] }[] };
      };
      const commands = converted.hooks.PreToolUse.flatMap((rule) =>
        rule.hooks.map((hook) => hook.command),
      );
      expect(commands).toHaveLength(2);
      for (const [index, command] of commands.entries()) {
        // Run as the runner runs a hook: /bin/sh -c, in the project dir.
        const run = await runShell(command, { cwd: workspace.project, env: workspace.env });
        expect(run.code, run.stderr).toBe(0);
        const entries = fs.readdirSync(workspace.root, { recursive: true, encoding: 'utf8' });
        expect(entries.filter((entry) => path.basename(entry) === 'PWNED')).toEqual([]);
        expect(fs.readFileSync(path.join(workspace.project, 'guard-ran'), 'utf8')).toBe(
          index === 0 ? 'bare' : 'quoted',
        );
      }
    },
    TIMEOUT,
  );
});
