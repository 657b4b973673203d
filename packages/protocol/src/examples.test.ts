import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type HookInput, HookInputSchema, parseHookOutput } from './index.js';

const packageDir = join(import.meta.dirname, '..');
const readme = readFileSync(join(packageDir, 'README.md'), 'utf8');
const examples = ['secrets-guard.sh', 'secrets-guard.py', 'secrets-guard.mjs'];
const projectDir = mkdtempSync(join(tmpdir(), 'protocol-examples-'));
const agentHome = join(projectDir, '.home');
afterAll(() => rmSync(projectDir, { recursive: true, force: true }));

const common = {
  protocol_version: 1,
  session_id: '20261202T135512Z-3f9a1c',
  project_dir: projectDir,
  agent_home: agentHome,
  hook_id: 'secrets-guard',
  timestamp: '2026-12-02T13:55:12.345Z',
} as const;

function toolInput(name: string, path: string, risk: 'write' | 'readonly'): HookInput {
  return HookInputSchema.parse({
    ...common,
    event: 'PreToolUse',
    tool: {
      name,
      call_id: 'call_1',
      input: { path, content: 'TOKEN=abc\n' },
      risk,
      tags: [risk],
      paths: [join(projectDir, path)],
    },
  });
}

const cases: { name: string; input: HookInput; decision: 'allow' | 'deny' }[] = [
  {
    name: 'a write_file under secrets/',
    input: toolInput('write_file', 'config/secrets/api.env', 'write'),
    decision: 'deny',
  },
  {
    name: 'an edit_file outside secrets/',
    input: toolInput('edit_file', 'src/secrets.ts', 'write'),
    decision: 'allow',
  },
  {
    name: 'a read_file under secrets/',
    input: toolInput('read_file', 'secrets/api.env', 'readonly'),
    decision: 'allow',
  },
  {
    name: 'a Stop event',
    input: HookInputSchema.parse({
      ...common,
      event: 'Stop',
      stop_hook_active: false,
      prevented_count: 0,
      previous_reasons: [],
      last_assistant_message: 'Done.',
    }),
    decision: 'allow',
  },
];

function runHook(file: string, input: HookInput) {
  return spawnSync(join(packageDir, 'examples', file), [], {
    cwd: projectDir,
    input: JSON.stringify(input),
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      SOONG_AGENT_HOME: agentHome,
      SOONG_AGENT_PROJECT_DIR: projectDir,
      SOONG_AGENT_SESSION_ID: input.session_id,
      SOONG_AGENT_HOOK_EVENT: input.event,
    },
    timeout: 60_000, // generous upper bound: the hooks answer at once
  });
}

describe.each(examples)('examples/%s', (file) => {
  it('appears verbatim in the README when compared', () => {
    const text = readFileSync(join(packageDir, 'examples', file), 'utf8');
    expect(readme.includes(text), `README.md must contain examples/${file} exactly`).toBe(true);
  });

  it.each(cases)(
    'answers as a real process when given $name',
    ({ input, decision }) => {
      const result = runHook(file, input);
      expect(result.error).toBeUndefined();
      expect(result.status, result.stderr).toBe(0);
      const output = parseHookOutput(result.stdout);
      expect(output?.decision).toBe(decision);
      if (decision === 'deny') {
        expect(output?.reason).toContain('secrets/api.env');
        expect(output?.metadata).toEqual({ rule: 'secrets' });
      }
      expect(result.stderr).toBe(
        `secrets-guard: ${input.event} ${'tool' in input ? input.tool.name : ''}\n`,
      );
    },
    60_000,
  );
});
