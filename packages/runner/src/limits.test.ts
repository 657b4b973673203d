import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeRunLimit, RUN_LIMITS, withinRunLimit } from './defaults.js';
import { PACKAGE_DIR } from './test-helpers/build.js';

describe('RUN_LIMITS', () => {
  it('pins the bounds of every numeric option', () => {
    expect(RUN_LIMITS).toEqual({
      timeoutMs: {
        min: 100,
        max: 2_147_483_647,
        integer: false,
        unit: 'milliseconds',
        zero: 'no timeout',
      },
      killGraceMs: { min: 0, max: 60_000, integer: false, unit: 'milliseconds' },
      maxOutputBytes: { min: 0, max: 67_108_864, integer: true, unit: 'bytes' },
      tailBytes: { min: 0, max: 67_108_864, integer: true, unit: 'bytes' },
    });
    expect(Object.isFrozen(RUN_LIMITS)).toBe(true);
    expect(Object.isFrozen(RUN_LIMITS.timeoutMs)).toBe(true);
  });

  it('is exported from the side-effect free subpath @soong-agent/runner/defaults, which imports nothing', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(PACKAGE_DIR, 'package.json'), 'utf8'));
    expect(manifest.exports['./defaults']).toEqual({
      types: './dist/defaults.d.ts',
      default: './dist/defaults.js',
    });
    expect(Object.keys(manifest.exports)).not.toContain('./limits');
    const source = fs.readFileSync(path.join(PACKAGE_DIR, 'src', 'defaults.ts'), 'utf8');
    expect(source).not.toMatch(/^\s*import\s/m);
  });
});

describe('withinRunLimit', () => {
  it.each([
    ['timeoutMs', 0, true],
    ['timeoutMs', 100, true],
    ['timeoutMs', 2_147_483_647, true],
    ['timeoutMs', 99.9, false],
    ['timeoutMs', 1e-297, false],
    ['timeoutMs', 2_147_483_648, false],
    ['killGraceMs', 0, true],
    ['killGraceMs', 60_000, true],
    ['killGraceMs', 2_147_483_648, false],
    ['maxOutputBytes', 0, true],
    ['maxOutputBytes', 67_108_864, true],
    ['maxOutputBytes', 2e9, false],
    ['maxOutputBytes', 1.5, false],
    ['tailBytes', Number.NaN, false],
    ['tailBytes', Number.POSITIVE_INFINITY, false],
    ['tailBytes', '5', false],
  ] as const)('judges %s = %s as %s', (name, value, expected) => {
    expect(withinRunLimit(RUN_LIMITS[name], value)).toBe(expected);
  });
});

describe('describeRunLimit', () => {
  it('says the unit, the range and what 0 means when the limit has a zero meaning', () => {
    expect(describeRunLimit(RUN_LIMITS.timeoutMs)).toBe(
      'a number of milliseconds from 100 to 2147483647, or 0 for no timeout',
    );
    expect(describeRunLimit(RUN_LIMITS.maxOutputBytes)).toBe(
      'a whole number of bytes from 0 to 67108864',
    );
  });
});
