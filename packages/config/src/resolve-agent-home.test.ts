import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveAgentHome } from './resolve-agent-home.js';

const homeDir = '/users/ada';

describe('resolveAgentHome', () => {
  it('prefers the --home value over SOONG_AGENT_HOME', () => {
    expect(resolveAgentHome({ home: '/a', env: { SOONG_AGENT_HOME: '/b' }, homeDir })).toBe('/a');
  });

  it('uses SOONG_AGENT_HOME when no --home is given', () => {
    expect(resolveAgentHome({ env: { SOONG_AGENT_HOME: '/b' }, homeDir })).toBe('/b');
  });

  it('falls back to ~/.soong-agent when neither is set or both are empty', () => {
    expect(resolveAgentHome({ env: {}, homeDir })).toBe('/users/ada/.soong-agent');
    expect(resolveAgentHome({ home: '', env: { SOONG_AGENT_HOME: '' }, homeDir })).toBe(
      '/users/ada/.soong-agent',
    );
  });

  it('makes a relative value absolute against the current dir and expands ~/', () => {
    expect(resolveAgentHome({ home: 'rel/home', env: {}, homeDir })).toBe(path.resolve('rel/home'));
    expect(resolveAgentHome({ env: { SOONG_AGENT_HOME: '~/agent' }, homeDir })).toBe(
      '/users/ada/agent',
    );
    expect(resolveAgentHome({ home: '~', env: {}, homeDir })).toBe('/users/ada');
  });

  it('reads process.env when no env is given', () => {
    const saved = process.env.SOONG_AGENT_HOME;
    process.env.SOONG_AGENT_HOME = '/from/process';
    try {
      expect(resolveAgentHome({ homeDir })).toBe('/from/process');
    } finally {
      if (saved === undefined) delete process.env.SOONG_AGENT_HOME;
      else process.env.SOONG_AGENT_HOME = saved;
    }
  });
});
