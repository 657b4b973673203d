import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildChildEnv } from './child-env.js';
import { DEFAULT_ENV_ALLOWLIST } from './defaults.js';

describe('DEFAULT_ENV_ALLOWLIST', () => {
  it('equals the pinned list', () => {
    const pinned = Object.freeze([
      'PATH',
      'HOME',
      'USER',
      'LOGNAME',
      'SHELL',
      'TERM',
      'LANG',
      'LC_ALL',
      'TZ',
      'TMPDIR',
    ]);
    expect([...DEFAULT_ENV_ALLOWLIST]).toEqual(pinned);
  });

  it('is frozen', () => {
    expect(Object.isFrozen(DEFAULT_ENV_ALLOWLIST)).toBe(true);
  });
});

describe('buildChildEnv', () => {
  it('keeps only allowlisted names that are set, by exact name', () => {
    const env = buildChildEnv({
      parentEnv: { PATH: '/bin', Path: '/x', PATHX: '/y', HOME: '/h', AWS_SECRET_ACCESS_KEY: 's' },
    });
    expect(env).toEqual({ PATH: '/bin', HOME: '/h' });
  });

  it('drops values that begin with () and keeps values that merely contain it', () => {
    const env = buildChildEnv({
      parentEnv: { SHELL: '() { :; }', TERM: 'x () y' },
    });
    expect(env).toEqual({ TERM: 'x () y' });
  });

  it('applies extras over allowlisted values and passes them as given', () => {
    const env = buildChildEnv({
      parentEnv: { HOME: '/h', LANG: 'C' },
      extra: { HOME: '/other', FN: '() { x; }' },
    });
    expect(env).toEqual({ HOME: '/other', LANG: 'C', FN: '() { x; }' });
  });

  it('uses the given allowlist instead of the default', () => {
    expect(buildChildEnv({ allowlist: ['A'], parentEnv: { A: '1', PATH: '/bin' } })).toEqual({
      A: '1',
    });
  });

  it('reads process.env when no parentEnv is given', () => {
    process.env.SOONG_BUILD_ENV_TEST = 'v';
    try {
      expect(buildChildEnv({ allowlist: ['SOONG_BUILD_ENV_TEST'] })).toEqual({
        SOONG_BUILD_ENV_TEST: 'v',
      });
      expect(buildChildEnv()).not.toHaveProperty('SOONG_BUILD_ENV_TEST');
    } finally {
      delete process.env.SOONG_BUILD_ENV_TEST;
    }
  });

  it('keeps a variable named __proto__ as a variable', () => {
    const env = buildChildEnv({ parentEnv: {}, extra: JSON.parse('{"__proto__":"x"}') });
    expect(Object.keys(env)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(env)).toBe(Object.prototype);
  });

  it('yields only allowlisted or extra names, and never a parent value beginning with ()', () => {
    const name = fc.constantFrom('PATH', 'HOME', 'SECRET', 'TOKEN', 'LANG', 'X', 'path');
    fc.assert(
      fc.property(
        fc.dictionary(
          name,
          fc.oneof(
            fc.string(),
            fc.string().map((s) => `()${s}`),
          ),
        ),
        fc.uniqueArray(name),
        fc.dictionary(fc.constantFrom('X', 'EXTRA', 'HOME'), fc.string()),
        (parentEnv, allowlist, extra) => {
          const env = buildChildEnv({ parentEnv, allowlist, extra });
          for (const [key, value] of Object.entries(env)) {
            if (Object.hasOwn(extra, key)) {
              expect(value).toBe(extra[key]);
            } else {
              expect(allowlist).toContain(key);
              expect(value).toBe(parentEnv[key]);
              expect(value.startsWith('()')).toBe(false);
            }
          }
          for (const key of allowlist) {
            const value = parentEnv[key];
            if (value !== undefined && !value.startsWith('()'))
              expect(Object.hasOwn(env, key)).toBe(true);
          }
        },
      ),
    );
  });
});
