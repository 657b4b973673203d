import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeTempDir } from '@soong-agent/test-utils';
import { describe, expect, it } from 'vitest';
import { cliEnv, makeWorkspace, runCli, runScriptedSession, runShell } from './test-helpers/cli.js';

const README = fs.readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const ROOT_README = fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');

/** The commands of the root README's quick start block. */
function quickStartCommands(): string[] {
  const section = ROOT_README.slice(ROOT_README.indexOf('## Quick start'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  return block
    .split('\n')
    .map((line) => line.replace(/#.*$/, '').trim())
    .filter((line) => line !== '');
}

function starterHooksJson(): string {
  const marker = README.indexOf('<!-- starter-hooks.json -->');
  expect(marker).not.toBe(-1);
  const match = /```json\n([\s\S]*?)```/.exec(README.slice(marker));
  return match?.[1] ?? '';
}

describe('README', () => {
  it('shows a starter hooks.json that hooks validate accepts without warnings', async () => {
    const workspace = makeWorkspace({ home: { 'hooks.json': starterHooksJson() } });
    const result = await runCli(
      ['hooks', 'validate', '--home', workspace.home, '--project', workspace.project],
      { env: workspace.env },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('3 rules');
    expect(fs.existsSync(path.join(workspace.home, 'hooks.json'))).toBe(true);
  }, 60_000);
});

describe('README starter tests-pass Stop hook', () => {
  const stopOnly = () => {
    const hooks = JSON.parse(starterHooksJson()) as { hooks: { Stop: unknown } };
    return JSON.stringify({ version: 1, hooks: { Stop: hooks.hooks.Stop } });
  };
  const runStops = async (project: Record<string, string>) => {
    const workspace = makeWorkspace({ home: { 'hooks.json': stopOnly() }, project });
    return runScriptedSession(workspace, [{ text: 'done' }, { text: 'done again' }]);
  };

  it('blocks the stop once, saying why with the test output, when npm test fails', async () => {
    const records = await runStops({
      'package.json': JSON.stringify({
        scripts: { test: 'echo assertion-41c9 failed >&2; exit 1' },
      }),
    });
    const denied = records.filter((record) => record.type === 'hook_denied');
    expect(denied).toHaveLength(1);
    expect(JSON.stringify(denied[0])).toContain('assertion-41c9 failed');
    expect(records.some((record) => record.type === 'loop_ended')).toBe(true);
  }, 60_000);

  it('lets the stop through at once when the project has no test script', async () => {
    for (const project of [{}, { 'package.json': '{"name":"x"}' }]) {
      const records = await runStops(project);
      expect(records.filter((record) => record.type === 'hook_denied')).toEqual([]);
    }
  }, 60_000);
});

describe('README starter audit-log hook', () => {
  it('appends whole lines when 8 sessions write 300 KB inputs at the same time', async () => {
    const hooks = JSON.parse(starterHooksJson()) as {
      hooks: { PostToolUse: { hooks: { name: string; command: string }[] }[] };
    };
    const audit = hooks.hooks.PostToolUse.flatMap((rule) => rule.hooks).find(
      (hook) => hook.name === 'audit-log',
    );
    expect(audit).toBeDefined();
    const home = makeTempDir('soong-agent-audit-');
    const inputs = Array.from({ length: 8 }, (_, writer) => {
      const line = JSON.stringify({ writer, pad: String(writer).repeat(300_000) });
      const file = path.join(home, `input-${writer}.json`);
      fs.writeFileSync(file, line);
      return { line, file };
    });
    const runs = await Promise.all(
      inputs.map(({ file }) =>
        runShell(`(${audit?.command}) < '${file}'`, {
          env: cliEnv(home, { SOONG_AGENT_HOME: home }),
        }),
      ),
    );
    for (const run of runs) expect(run.code, run.stderr).toBe(0);
    const lines = fs.readFileSync(path.join(home, 'audit.jsonl'), 'utf8').split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.sort()).toEqual(inputs.map(({ line }) => line).sort());
  }, 60_000);
});

describe('root README', () => {
  it('keeps the quick start at npm run demo and npm test, both defined by the root package.json', () => {
    expect(quickStartCommands()).toEqual(['npm run demo', 'npm test']);
    const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(Object.keys(manifest.scripts)).toEqual(expect.arrayContaining(['demo', 'test']));
  });

  it('builds every package before it packs, and npm run demo builds them all', () => {
    const manifest = (dir: string) =>
      JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
        scripts: Record<string, string>;
      };
    const dirs = ['packages', 'apps'].flatMap((group) =>
      fs
        .readdirSync(path.join(REPO_ROOT, group))
        .map((name) => path.join(REPO_ROOT, group, name))
        .filter((dir) => fs.existsSync(path.join(dir, 'package.json'))),
    );
    for (const dir of dirs) {
      expect(manifest(dir).scripts.prepack, dir).toBe('node ../../scripts/build-before-pack.mjs');
    }
    // A filter on the CLI left @soong-agent/ai-sdk unbuilt.
    expect(manifest(REPO_ROOT).scripts.demo).toMatch(/turbo run build &&/);
  });

  it('links only to files and folders that exist', () => {
    const links = [...ROOT_README.matchAll(/\]\(([^)#\s]+)\)/g)]
      .map((match) => match[1] ?? '')
      .filter((target) => !/^[a-z]+:/.test(target));
    expect(links).toEqual(expect.arrayContaining(['examples/hooks', 'apps/reference-agent']));
    for (const target of links) {
      expect(fs.existsSync(path.join(REPO_ROOT, target)), target).toBe(true);
    }
  });

  it('shows the demo when the last step of npm run demo runs from the repository root', async () => {
    // `npm run demo` is install && build && <run the demo>: the first two are what CI runs on a
    // fresh clone anyway; this runs the last step as written, against the build under test.
    const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    const steps = (manifest.scripts.demo ?? '').split('&&').map((step) => step.trim());
    expect(steps.slice(0, -1).join(' && ')).toMatch(
      /install --frozen-lockfile && .*turbo run build/,
    );
    const osHome = makeTempDir('soong-agent-os-home-');
    const result = await runShell(steps.at(-1) ?? 'false', {
      cwd: REPO_ROOT,
      // TMPDIR: the demo's temp dir lands in a folder this test removes.
      env: cliEnv(osHome, { TMPDIR: makeTempDir('soong-agent-demo-tmp-') }),
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('denied by hook block-destructive');
    expect(result.stderr).toContain('stop prevented by require-tests (1)');
    expect(result.stderr).toMatch(/^end completed$/m);
    expect(result.stderr).toMatch(/was removed; .* demo --keep$/m);
    expect(fs.existsSync(path.join(osHome, '.soong-agent'))).toBe(false);
    // The README's next step, `npm run demo -- --keep`, appends --keep to that last step.
    expect(ROOT_README).toContain('`npm run demo -- --keep`');
    const kept = await runShell(`${steps.at(-1)} --keep`, {
      cwd: REPO_ROOT,
      env: cliEnv(osHome, { TMPDIR: makeTempDir('soong-agent-demo-tmp-') }),
    });
    expect(kept.code, kept.stderr).toBe(0);
    const hint = /^inspect it: (node \S+ events --home \S+)$/m.exec(kept.stderr)?.[1];
    const events = await runShell(hint ?? 'false', { env: cliEnv(osHome) });
    expect(events.code, events.stderr).toBe(0);
    expect(events.stdout).toContain('denied by hook block-destructive');
  }, 120_000);

  it('writes no escape codes into a pipe when npm test runs vitest after its colour prelude', async () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    const prelude = (manifest.scripts.test ?? '').split('&&')[0]?.trim() ?? '';
    expect(prelude).toBe('. ./scripts/plain-unless-tty.sh');
    // One small test file of another package, run by the repository's vitest into a pipe.
    const vitest = 'node_modules/.bin/vitest run --root packages/paths src/expand-home.test.ts';
    const env = { ...cliEnv(makeTempDir('soong-agent-os-home-')), TERM: 'xterm' };
    delete (env as Record<string, string>).NO_COLOR;
    const bare = await runShell(vitest, { cwd: REPO_ROOT, env });
    expect(bare.code, bare.stderr).toBe(0);
    // vitest colours into a pipe whenever TERM is set: the prelude is what prevents it.
    expect(bare.stdout + bare.stderr).toContain('\x1b[');
    for (const extra of [{}, { FORCE_COLOR: '0' }]) {
      const plain = await runShell(`${prelude} && ${vitest}`, {
        cwd: REPO_ROOT,
        env: { ...env, ...extra },
      });
      expect(plain.code, plain.stderr).toBe(0);
      expect(plain.stdout).toContain('passed');
      expect(plain.stdout + plain.stderr).not.toContain('\x1b[');
    }
  }, 120_000);

  it("gives each package's own npm test the same colour prelude, which leaves the choice to the root inside a turbo task", async () => {
    for (const group of ['packages', 'apps']) {
      for (const name of fs.readdirSync(path.join(REPO_ROOT, group))) {
        const file = path.join(REPO_ROOT, group, name, 'package.json');
        if (!fs.existsSync(file)) continue;
        const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as {
          scripts: Record<string, string>;
        };
        const prelude = (manifest.scripts.test ?? '').split('&&')[0]?.trim();
        expect(prelude, file).toBe('. ../../scripts/plain-unless-tty.sh');
      }
    }
    const env = { ...cliEnv(makeTempDir('soong-agent-os-home-')), TERM: 'xterm' };
    delete (env as Record<string, string>).NO_COLOR;
    const decide = (extra: Record<string, string>) =>
      runShell('. ./scripts/plain-unless-tty.sh && echo "NO_COLOR=$' + '{NO_COLOR:-unset}"', {
        cwd: REPO_ROOT,
        env: { ...env, ...extra },
      });
    // Its own stdout is a pipe here: plain.
    expect((await decide({})).stdout.trim()).toBe('NO_COLOR=1');
    // In a turbo task stdout is always turbo's pipe; the root's prelude already decided.
    expect((await decide({ TURBO_HASH: 'abc123' })).stdout.trim()).toBe('NO_COLOR=unset');
  }, 120_000);
});
