import { describe, expect, it } from 'vitest';
import { createPermissionCallback } from './permissions.js';
import type { AgentTool } from './tools/types.js';

const tool = { name: 'write_file', risk: 'write' } as unknown as AgentTool;
const request = (risk: 'readonly' | 'write' | 'dangerous', paths: string[] = ['/p/src/a.ts']) => ({
  call: { id: 'call_1', name: 'write_file', input: { path: 'src/a.ts' } },
  tool,
  risk,
  paths,
});
const permissions = { readonly: 'allow', write: 'ask', dangerous: 'deny' } as const;

describe('createPermissionCallback', () => {
  it('allows and denies by risk class when the policy is allow or deny', async () => {
    const permission = createPermissionCallback({ permissions, projectDir: '/p', yes: true });
    expect(await permission(request('readonly'))).toEqual({ allow: true });
    expect(await permission(request('dangerous'))).toMatchObject({ allow: false });
  });

  it('denies ask with a reason naming the missing TTY and --yes when there is no terminal', async () => {
    const permission = createPermissionCallback({ permissions, projectDir: '/p' });
    const decision = await permission(request('write'));
    expect(decision).toMatchObject({ allow: false });
    expect(decision.allow === false && decision.reason).toContain('--yes');
  });

  it('turns ask into allow but never deny into allow when --yes is given', async () => {
    const permission = createPermissionCallback({ permissions, projectDir: '/p', yes: true });
    expect(await permission(request('write'))).toEqual({ allow: true });
    expect((await permission(request('dangerous'))).allow).toBe(false);
  });

  it('asks with the tool and the project-relative path when a terminal is there', async () => {
    const questions: string[] = [];
    const answers = [true, false];
    const permission = createPermissionCallback({
      permissions,
      projectDir: '/p',
      ask: async (question) => {
        questions.push(question);
        return answers.shift() ?? false;
      },
    });
    expect(await permission(request('write'))).toEqual({ allow: true });
    expect((await permission(request('write'))).allow).toBe(false);
    expect(questions).toEqual(['Allow write_file src/a.ts?', 'Allow write_file src/a.ts?']);
  });

  it('asks even for an allowed risk class when a Claude Code hook asked, never for a denied one', async () => {
    const questions: string[] = [];
    const hookAsk = { hookId: 'guard', reason: 'touches .env' };
    const permission = createPermissionCallback({
      permissions,
      projectDir: '/p',
      ask: async (question) => {
        questions.push(question);
        return false;
      },
    });
    expect(await permission({ ...request('readonly'), hookAsk })).toEqual({
      allow: false,
      reason: 'denied by the user at the prompt',
    });
    expect(questions).toEqual(['Allow write_file src/a.ts? (hook guard asked: touches .env)']);
    expect(await permission({ ...request('dangerous'), hookAsk })).toMatchObject({ allow: false });
    expect(questions).toHaveLength(1);
    const headless = createPermissionCallback({ permissions, projectDir: '/p' });
    expect(await headless({ ...request('readonly'), hookAsk })).toEqual({
      allow: false,
      reason: 'hook guard asked: touches .env; no TTY to ask on; pass --yes to allow',
    });
    const yes = createPermissionCallback({ permissions, projectDir: '/p', yes: true });
    expect(await yes({ ...request('readonly'), hookAsk })).toEqual({ allow: true });
  });
});
