import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigError } from './config-error.js';
import { loadConfig } from './load-config.js';
import { createTempLayout } from './test-helpers/temp-dirs.js';

const fixtures = fileURLToPath(new URL('./__fixtures__/', import.meta.url));
const CONFIG_FILES = ['hooks.json', 'config.toml'];

interface InvalidExpectation {
  code: string;
  path?: string;
  line: number;
  column: number;
  message_contains?: string;
}

interface ValidExpectation {
  ruleCount: number;
  hooksEnabled: boolean;
  warnings: string[];
  fingerprint?: null;
  ids?: string[];
  settings?: Record<string, unknown>;
  envAllowlistIncludes?: string[];
  envAllowlistExcludes?: string[];
}

/** Every case folder; fails on a folder that has no expected.json or unknown files. */
function cases(kind: 'invalid' | 'valid') {
  const dir = path.join(fixtures, kind);
  return fs
    .readdirSync(dir)
    .sort()
    .map((name) => {
      const caseDir = path.join(dir, name);
      const files = fs.readdirSync(caseDir);
      const unknown = files.filter(
        (file) => file !== 'expected.json' && !CONFIG_FILES.includes(file),
      );
      if (unknown.length > 0 || !files.includes('expected.json')) {
        throw new Error(
          `fixture ${kind}/${name}: needs expected.json and only ${CONFIG_FILES.join(', ')}`,
        );
      }
      return { name, caseDir, files: files.filter((file) => CONFIG_FILES.includes(file)) };
    });
}

function loadCase(caseDir: string, files: string[]) {
  const layout = createTempLayout();
  try {
    for (const file of files) layout.write(file, fs.readFileSync(path.join(caseDir, file)));
    return loadConfig({
      home: layout.home,
      projectDir: layout.projectDir,
      homeDir: layout.homeDir,
    });
  } finally {
    layout.cleanup();
  }
}

const readExpected = <T>(caseDir: string): T =>
  JSON.parse(fs.readFileSync(path.join(caseDir, 'expected.json'), 'utf8')) as T;

describe('loadConfig invalid corpus', () => {
  const all = cases('invalid');
  it('has the cases the issue asks for', () => {
    expect(all.length).toBeGreaterThanOrEqual(30);
  });
  it.each(all)(
    'rejects $name with the expected code, path, line and column',
    ({ caseDir, files }) => {
      const expected = readExpected<InvalidExpectation>(caseDir);
      let caught: unknown;
      try {
        loadCase(caseDir, files);
      } catch (error) {
        caught = error;
      }
      expect(ConfigError.isInstance(caught)).toBe(true);
      const error = caught as ConfigError;
      expect({
        code: error.code,
        path: error.path,
        line: error.line,
        column: error.column,
      }).toEqual({
        code: expected.code,
        path: expected.path,
        line: expected.line,
        column: expected.column,
      });
      if (expected.message_contains !== undefined)
        expect(error.message).toContain(expected.message_contains);
    },
  );
});

describe('loadConfig valid corpus', () => {
  it.each(cases('valid'))(
    'loads $name with the expected rules, settings and warnings',
    ({ caseDir, files }) => {
      const expected = readExpected<ValidExpectation>(caseDir);
      const config = loadCase(caseDir, files);
      expect(config.hooks.ruleCount).toBe(expected.ruleCount);
      expect(config.hooksEnabled).toBe(expected.hooksEnabled);
      expect(config.warnings.map((warning) => warning.code)).toEqual(expected.warnings);
      if (expected.fingerprint === null) expect(config.hooksFingerprint).toBeNull();
      else if (files.includes('hooks.json'))
        expect(config.hooksFingerprint).toMatch(/^[0-9a-f]{64}$/);
      if (expected.ids !== undefined) {
        expect(config.hooks.rules.flatMap((rule) => rule.hooks.map((hook) => hook.id))).toEqual(
          expected.ids,
        );
      }
      if (expected.settings !== undefined) expect(config.settings).toMatchObject(expected.settings);
      for (const name of expected.envAllowlistIncludes ?? [])
        expect(config.envAllowlist).toContain(name);
      for (const name of expected.envAllowlistExcludes ?? [])
        expect(config.envAllowlist).not.toContain(name);
    },
  );
});
