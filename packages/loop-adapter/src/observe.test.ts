import path from 'node:path';
import { makeTempDir } from '@soong-agent/test-utils';
import { describe, expect, it } from 'vitest';
import {
  hookContextToMessage,
  recordConfigLoaded,
  recordSessionStarted,
  runSessionStart,
  runUserPromptSubmit,
} from './observe.js';
import { hookCommand, recordsOf, recordTypes, setup } from './test-helpers/setup.js';

const tempDir = () => makeTempDir();

describe('hookContextToMessage', () => {
  it('makes a user message, never a system one, when given a node', () => {
    const message = hookContextToMessage({
      kind: 'hook_context',
      event: 'Stop',
      hook_id: 'h',
      reason: 'r',
    });
    expect(message.role).toBe('user');
    expect(message.content).toContain('"h"');
  });
});

describe('recordSessionStarted', () => {
  it('records session_started with the dirs when called', () => {
    const { sink, projectDir, home } = setup(tempDir(), {});
    recordSessionStarted(sink, { projectDir, agentHome: home });
    expect(recordTypes(sink.records)).toEqual(['session_started']);
    expect(sink.records[0]).toMatchObject({
      source: 'startup',
      project_dir: projectDir,
      agent_home: home,
    });
  });
});

describe('recordConfigLoaded', () => {
  it('records the fingerprint, rule count, warnings and switch when a config is loaded', () => {
    const { sink, config } = setup(tempDir(), {
      Stop: [{ hooks: [{ command: hookCommand('allow.sh') }] }],
      PreToolUse: [{ hooks: [{ command: path.join('/no', 'such', 'hook') }] }],
    });
    recordConfigLoaded(sink, config, { no_hooks: false });
    expect(recordTypes(sink.records)).toEqual(['config_loaded']);
    const record = recordsOf(sink.records, 'config_loaded')[0];
    expect(record).toMatchObject({
      hooks_fingerprint: config.hooksFingerprint,
      rules: 2,
      hooks_enabled: true,
      no_hooks: false,
    });
    expect(record?.hooks_fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(record?.warnings).toEqual(config.warnings.map((warning) => warning.message));
    expect(record?.warnings.length).toBeGreaterThan(0);
  });
});

describe('runSessionStart', () => {
  it('runs SessionStart hooks with source startup when called', async () => {
    const { engine, sink } = setup(tempDir(), {
      SessionStart: [{ hooks: [{ command: hookCommand('deny.sh', 'x') }] }],
    });
    const outcome = await runSessionStart(engine);
    expect(outcome.decision).toBe('none');
    expect(recordTypes(sink.records)).toEqual([
      'hook_started',
      'hook_finished',
      'hook_decision_ignored',
    ]);
  }, 60_000);
});

describe('runUserPromptSubmit', () => {
  it('records the bounded prompt before running the hooks when the prompt is long', async () => {
    const { engine, sink } = setup(tempDir(), {
      UserPromptSubmit: [{ hooks: [{ command: hookCommand('allow.sh') }] }],
    });
    const prompt = 'word '.repeat(100_000);
    const outcome = await runUserPromptSubmit(engine, prompt);
    expect(outcome.decision).toBe('allow');
    expect(recordTypes(sink.records)).toEqual([
      'user_prompt_submitted',
      'hook_started',
      'hook_finished',
    ]);
    const recorded = recordsOf(sink.records, 'user_prompt_submitted')[0]?.prompt ?? '';
    expect(Buffer.byteLength(recorded)).toBeLessThan(10_000);
    expect(recorded).toContain('500000 bytes');
  }, 60_000);
});
