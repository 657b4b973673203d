import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeWorkspace, runCli } from '../test-helpers/cli.js';

const TIMEOUT = 60_000;

type Rules = Record<string, { matcher?: unknown; hooks: { name?: string; command: string }[] }[]>;

const namesIn = (hooks: Rules) =>
  Object.values(hooks).flatMap((rules) =>
    rules.flatMap((rule) =>
      rule.hooks.flatMap((hook) => (hook.name === undefined ? [] : [hook.name])),
    ),
  );

/** A workspace with `settings` as a Claude Code settings file in the project, and `home` files. */
function workspaceWith(settings: unknown, home: Record<string, string> = {}) {
  const workspace = makeWorkspace({ home });
  const file = path.join(workspace.root, 'settings.json');
  fs.writeFileSync(file, JSON.stringify(settings));
  const where = ['--home', workspace.home, '--project', workspace.project];
  const cli = (args: string[]) => runCli(args, { env: workspace.env });
  const readHooks = () =>
    (
      JSON.parse(fs.readFileSync(path.join(workspace.home, 'hooks.json'), 'utf8')) as {
        hooks: Rules;
      }
    ).hooks;
  return { ...workspace, file, where, cli, readHooks };
}

// Two PreToolUse groups of one script; the second's regex becomes two rules with the same hooks.
const TWO_GROUPS = {
  hooks: {
    PreToolUse: [
      {
        matcher: 'Bash',
        hooks: [
          { type: 'command', command: '~/.claude/hooks/pretooluse.sh' },
          { type: 'command', command: '~/.claude/hooks/pretooluse.sh --strict' },
        ],
      },
      {
        matcher: 'Edit|Write|mcp__github__.*',
        hooks: [{ type: 'command', command: '~/.claude/hooks/pretooluse.sh' }],
      },
    ],
  },
};

describe('soong-agent hooks import: hook names', () => {
  it(
    'gives every hook of two PreToolUse groups its own name, writes them, and validate passes',
    async () => {
      const workspace = workspaceWith(TWO_GROUPS);
      const printed = await workspace.cli(['hooks', 'import', '--from', 'claude', workspace.file]);
      expect(printed.code, printed.stderr).toBe(0);
      const names = namesIn((JSON.parse(printed.stdout) as { hooks: Rules }).hooks);
      expect(names).toEqual(['pretooluse', 'pretooluse-2', 'pretooluse-3', 'pretooluse-4']);
      const written = await workspace.cli([
        'hooks',
        'import',
        '--from',
        'claude',
        workspace.file,
        '--write',
        ...workspace.where,
      ]);
      expect(written.code, written.stderr).toBe(0);
      expect(namesIn(workspace.readHooks())).toEqual(names);
      const validate = await workspace.cli(['hooks', 'validate', ...workspace.where]);
      expect(validate.code, validate.stderr).toBe(0);
    },
    TIMEOUT,
  );

  it(
    "merges with --write under names the home's hooks.json does not have, and validate passes",
    async () => {
      const home = {
        'hooks.json': JSON.stringify({
          version: 1,
          hooks: {
            Stop: [
              {
                hooks: [
                  { type: 'command', command: 'true', name: 'pretooluse-2' },
                  { type: 'command', command: 'true', name: 'pretooluse' },
                  { type: 'command', command: 'true', name: 'pretooluse-4' },
                ],
              },
            ],
          },
        }),
      };
      const workspace = workspaceWith(TWO_GROUPS, home);
      const written = await workspace.cli([
        'hooks',
        'import',
        '--from',
        'claude',
        workspace.file,
        '--write',
        ...workspace.where,
      ]);
      expect(written.code, written.stderr).toBe(0);
      const names = namesIn(workspace.readHooks());
      expect(names).toHaveLength(7);
      expect(new Set(names).size).toBe(7);
      expect(names.slice(0, 3)).toEqual(['pretooluse-2', 'pretooluse', 'pretooluse-4']);
      const validate = await workspace.cli(['hooks', 'validate', ...workspace.where]);
      expect(validate.code, validate.stderr).toBe(0);
    },
    TIMEOUT,
  );

  it(
    'imports 12,000 hooks of one script, each under its own name, printed and written',
    async () => {
      const hooks = Array.from({ length: 12_000 }, (_, index) => ({
        type: 'command',
        command: '~/.claude/hooks/guard.sh',
        timeout: (index % 600) + 1,
      }));
      const workspace = workspaceWith(
        { hooks: { PreToolUse: [{ matcher: 'Bash', hooks }] } },
        // The home already has the first names an import of them would take.
        {
          'hooks.json': JSON.stringify({
            version: 1,
            hooks: {
              Stop: [
                {
                  hooks: ['guard', 'guard-2', 'guard-3'].map((name) => ({
                    type: 'command',
                    command: 'true',
                    name,
                  })),
                },
              ],
            },
          }),
        },
      );
      const printed = await workspace.cli(['hooks', 'import', '--from', 'claude', workspace.file]);
      expect(printed.code, printed.stderr).toBe(0);
      const printedNames = namesIn((JSON.parse(printed.stdout) as { hooks: Rules }).hooks);
      expect(new Set(printedNames).size).toBe(12_000);
      const written = await workspace.cli([
        'hooks',
        'import',
        '--from',
        'claude',
        workspace.file,
        '--write',
        ...workspace.where,
      ]);
      expect(written.code, written.stderr).toBe(0);
      const names = namesIn(workspace.readHooks());
      expect(names).toHaveLength(12_003);
      expect(new Set(names).size).toBe(12_003);
    },
    TIMEOUT,
  );
});
