import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { registerDialect } from '@soong-agent/dialects';
import { soongDialect } from '@soong-agent/dialects/internal';
import { builtInMatchers, createMatcherRegistry, defineMatcher } from '@soong-agent/matcher';
import { DEFAULT_ENV_ALLOWLIST } from '@soong-agent/runner/defaults';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadConfig } from './load-config.js';
import { catchConfigError } from './test-helpers/catch-config-error.js';
import { createTempLayout, isRoot, type TempLayout } from './test-helpers/temp-dirs.js';

let layout: TempLayout;
beforeEach(() => {
  layout = createTempLayout();
});
afterEach(() => layout.cleanup());

const load = (extra: { noHooks?: boolean; home?: string; projectDir?: string } = {}) =>
  loadConfig({
    home: extra.home ?? layout.home,
    projectDir: extra.projectDir ?? layout.projectDir,
    homeDir: layout.homeDir,
    ...(extra.noHooks === undefined ? {} : { noHooks: extra.noHooks }),
  });

const hooksJson = (hooks: unknown) => JSON.stringify({ version: 1, hooks }, null, 2);
const guardRule = (command = 'true') => ({
  matcher: { tool: 'bash' },
  hooks: [{ type: 'command', command }],
});

describe('loadConfig', () => {
  it('returns every default when the home has no files', () => {
    const config = load();
    expect(config.settings).toEqual({
      hooks: {
        enabled: true,
        default_timeout: 30,
        on_failure: 'ignore',
        stop_loop_limit: 5,
        inline_result_bytes: 16384,
        deliver_context: false,
      },
      runner: {
        env_allowlist: [],
        env_exclude: [],
        max_output_bytes: 1048576,
        kill_grace_ms: 1000,
      },
      permissions: { readonly: 'allow', write: 'ask', dangerous: 'ask' },
      model: {
        max_tokens: 4096,
        stream_idle_timeout: 300,
        request_timeout: 600,
        max_response_bytes: 33554432,
      },
      tools: [],
      mcp: {},
    });
    expect(config.hooksEnabled).toBe(true);
    expect(config.hooks.ruleCount).toBe(0);
    expect(config.hooksFingerprint).toBeNull();
    expect(config.envAllowlist).toEqual(DEFAULT_ENV_ALLOWLIST);
    expect(config.hooksFile).toBe(path.join(layout.home, 'hooks.json'));
    expect(config.configFile).toBe(path.join(layout.home, 'config.toml'));
    expect(config.warnings).toEqual([]);
    expect(config.hooksSource).toBeNull();
  });

  it('carries where each rule is written when hooks.json was read', () => {
    layout.write(
      'hooks.json',
      hooksJson({ PostToolUse: [guardRule()], PreToolUse: [guardRule()] }),
    );
    const source = load().hooksSource;
    expect(source?.specs).toEqual([
      { event: 'PostToolUse', matcher: { tool: 'bash' } },
      { event: 'PreToolUse', matcher: { tool: 'bash' } },
    ]);
    expect(source?.rulePath(1)).toEqual(['hooks', 'PreToolUse', 0]);
    expect(source?.locate(['hooks', 'PreToolUse', 0, 'matcher', 'tool'])).toEqual({
      line: 20,
      column: 19,
    });
  });

  it('returns defaults and warns AGENT_HOME_MISSING when the home itself does not exist', () => {
    const missing = path.join(layout.root, 'missing-home');
    const config = load({ home: missing });
    expect(config.hooks.ruleCount).toBe(0);
    expect(config.settings.hooks.default_timeout).toBe(30);
    expect(config.warnings).toEqual([
      expect.objectContaining({ code: 'AGENT_HOME_MISSING', file: missing }),
    ]);
    expect(fs.existsSync(missing)).toBe(false);
  });

  it('adds env_allowlist to the default list and removes env_exclude when both are set', () => {
    layout.write(
      'config.toml',
      '[runner]\nenv_allowlist = ["NODE_OPTIONS", "PATH", "CI"]\nenv_exclude = ["TZ", "CI"]\n',
    );
    const config = load();
    expect(config.envAllowlist).toEqual([
      ...DEFAULT_ENV_ALLOWLIST.filter((name) => name !== 'TZ'),
      'NODE_OPTIONS',
    ]);
    expect(config.envAllowlist).toContain('PATH');
    expect(config.envAllowlist).toContain('HOME');
  });

  it('fills settings from config.toml and keeps the defaults of keys not given', () => {
    layout.write(
      'config.toml',
      [
        '[hooks]',
        'default_timeout = 12.5',
        'on_failure = "deny"',
        'stop_loop_limit = 0',
        '[permissions]',
        'write = "deny"',
        '[model]',
        'provider = "scripted"',
        'script = "session.json"',
        '[[tools]]',
        'name = "run_tests"',
        'description = "Run the test suite"',
        'command = ["npm", "test"]',
        'risk = "readonly"',
        '[tools.parameters.filter]',
        'type = "string"',
      ].join('\n'),
    );
    const { settings } = load();
    expect(settings.hooks).toMatchObject({
      enabled: true,
      default_timeout: 12.5,
      on_failure: 'deny',
      stop_loop_limit: 0,
    });
    expect(settings.permissions).toEqual({ readonly: 'allow', write: 'deny', dangerous: 'ask' });
    expect(settings.model).toEqual({
      provider: 'scripted',
      script: path.join(layout.home, 'session.json'),
      max_tokens: 4096,
      stream_idle_timeout: 300,
      request_timeout: 600,
      max_response_bytes: 33554432,
    });
    expect(settings.tools).toEqual([
      {
        name: 'run_tests',
        description: 'Run the test suite',
        command: ['npm', 'test'],
        risk: 'readonly',
        tags: [],
        timeout: 120,
        parameters: { filter: { type: 'string', required: false } },
      },
    ]);
  });

  it('fills the provider keys of [model] when an openai model is configured', () => {
    layout.write(
      'config.toml',
      [
        '[model]',
        'provider = "openai"',
        'model = "gpt-4.1-mini"',
        'base_url = "http://127.0.0.1:8080/v1"',
        'api_key_env = "LOCAL_LLM_KEY"',
        'max_tokens = 1024',
        'stream_idle_timeout = 1.5',
        'request_timeout = 2',
        'max_response_bytes = 65536',
      ].join('\n'),
    );
    expect(load().settings.model).toEqual({
      provider: 'openai',
      model: 'gpt-4.1-mini',
      base_url: 'http://127.0.0.1:8080/v1',
      api_key_env: 'LOCAL_LLM_KEY',
      max_tokens: 1024,
      stream_idle_timeout: 1.5,
      request_timeout: 2,
      max_response_bytes: 65536,
    });
  });

  it.each([
    ['stream_idle_timeout = 0', 'model.stream_idle_timeout'],
    ['request_timeout = -1', 'model.request_timeout'],
    ['request_timeout = 100000', 'model.request_timeout'],
    ['max_response_bytes = 10', 'model.max_response_bytes'],
    ['max_response_bytes = 1.5', 'model.max_response_bytes'],
  ])('throws CONFIG_INVALID for %s in [model]', (line, where) => {
    layout.write('config.toml', ['[model]', line].join('\n'));
    const error = catchConfigError(() => load());
    expect(error.code).toBe('CONFIG_INVALID');
    expect([error.path, error.line]).toEqual([where, 2]);
  });

  it('reads hooks.deliver_context = true when config.toml turns context delivery on', () => {
    layout.write('config.toml', ['[hooks]', 'deliver_context = true'].join('\n'));
    expect(load().settings.hooks.deliver_context).toBe(true);
  });

  it.each([['deliver_context = "yes"'], ['deliver_context = 1'], ['deliver_context = "true"']])(
    'throws CONFIG_INVALID at hooks.deliver_context for %s',
    (line) => {
      layout.write('config.toml', ['[hooks]', line].join('\n'));
      const error = catchConfigError(() => load());
      expect(error.code).toBe('CONFIG_INVALID');
      expect([error.path, error.line]).toEqual(['hooks.deliver_context', 2]);
      expect(error.message).toContain('true or false');
    },
  );

  it('throws CONFIG_INVALID at model.base_url when it is not an http(s) URL', () => {
    layout.write('config.toml', ['[model]', 'base_url = "file:///etc/passwd"'].join('\n'));
    const error = catchConfigError(() => load());
    expect(error.code).toBe('CONFIG_INVALID');
    expect([error.path, error.line]).toEqual(['model.base_url', 2]);
  });

  it('throws CONFIG_INVALID at model.api_key_env when it is not an env name', () => {
    layout.write('config.toml', ['[model]', 'api_key_env = "sk-abc 123"'].join('\n'));
    const error = catchConfigError(() => load());
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.path).toBe('model.api_key_env');
  });

  it('fills [mcp.<NAME>] risk classes when an MCP server is configured', () => {
    layout.write(
      'config.toml',
      ['[mcp.fs]', 'risk = "write"', '[mcp.fs.tools.read_text_file]', 'risk = "readonly"'].join(
        '\n',
      ),
    );
    expect(load().settings.mcp).toEqual({
      fs: { risk: 'write', tools: { read_text_file: { risk: 'readonly' } } },
    });
  });

  it('throws CONFIG_INVALID at the mcp tool risk when it is not a risk class', () => {
    layout.write('config.toml', ['[mcp.fs.tools.write_file]', 'risk = "scary"'].join('\n'));
    const error = catchConfigError(() => load());
    expect(error.code).toBe('CONFIG_INVALID');
    expect([error.path, error.line]).toEqual(['mcp.fs.tools.write_file.risk', 2]);
  });

  it('compiles hooks.json into rules with ids and resolved defaults', () => {
    layout.write('config.toml', '[hooks]\ndefault_timeout = 7\non_failure = "deny"\n');
    layout.write(
      'hooks.json',
      hooksJson({
        Stop: [{ hooks: [{ type: 'command', command: 'echo stop', name: 'tests' }] }],
        PreToolUse: [
          guardRule('echo one'),
          {
            matcher: { tool: ['write_file', 'edit_file'], path_prefix: 'src' },
            hooks: [
              { type: 'command', command: 'echo two', timeout: 3, on_failure: 'ignore' },
              { type: 'command', command: 'echo three', working_dir: 'scripts' },
            ],
          },
        ],
      }),
    );
    const { hooks } = load();
    expect(hooks.ruleCount).toBe(3);
    expect(hooks.rules.map((rule) => `${rule.event}[${rule.ruleIndex}]`)).toEqual([
      'Stop[0]',
      'PreToolUse[0]',
      'PreToolUse[1]',
    ]);
    expect(hooks.rules[0]?.hooks[0]).toEqual({
      id: 'tests',
      name: 'tests',
      event: 'Stop',
      ruleIndex: 0,
      hookIndex: 0,
      command: 'echo stop',
      timeoutSec: 7,
      onFailure: 'deny',
      protocol: 'soong',
      mode: 'spawn',
    });
    const second = hooks.rules[2]?.hooks ?? [];
    expect(second.map((hook) => [hook.id, hook.timeoutSec, hook.onFailure])).toEqual([
      ['PreToolUse[1][0]', 3, 'ignore'],
      ['PreToolUse[1][1]', 7, 'deny'],
    ]);
    expect(second[1]?.workingDir).toBe('scripts');
  });

  it('matches hooks of matching rules in configuration order', () => {
    layout.write(
      'hooks.json',
      hooksJson({
        PreToolUse: [
          { matcher: { path_prefix: 'src' }, hooks: [{ type: 'command', command: 'a' }] },
          guardRule('b'),
          { hooks: [{ type: 'command', command: 'c' }] },
        ],
      }),
    );
    const { hooks } = load();
    const ids = (subject: Parameters<typeof hooks.match>[0]) =>
      hooks.match(subject).map((hook) => hook.id);
    expect(ids({ event: 'PreToolUse', tool: 'bash', paths: [] })).toEqual([
      'PreToolUse[1][0]',
      'PreToolUse[2][0]',
    ]);
    expect(ids({ event: 'PreToolUse', tool: 'write_file', paths: ['src/a.ts'] })).toEqual([
      'PreToolUse[0][0]',
      'PreToolUse[2][0]',
    ]);
    expect(ids({ event: 'Stop' })).toEqual([]);
    const explained = hooks.explain({ event: 'PreToolUse', tool: 'read_file', paths: ['docs/x'] });
    expect(explained.map((entry) => [entry.ruleIndex, entry.matched, entry.rule.event])).toEqual([
      [0, false, 'PreToolUse'],
      [1, false, 'PreToolUse'],
      [2, true, 'PreToolUse'],
    ]);
    expect(explained[1]).toMatchObject({ criterion: 'tool' });
  });

  it('gives explain the rule index within the event when other events come first', () => {
    layout.write(
      'hooks.json',
      hooksJson({
        Stop: [{ hooks: [{ type: 'command', command: 'a' }] }],
        PostToolUse: [
          guardRule('b'),
          { hooks: [{ type: 'command', command: 'c', working_dir: '~/.soong-agent/w' }] },
        ],
      }),
    );
    const { hooks } = load();
    const explained = hooks.explain({ event: 'PostToolUse', tool: 'grep' });
    expect(
      explained.map((entry) => [entry.ruleIndex, entry.matched, entry.rule.ruleIndex]),
    ).toEqual([
      [0, false, 0],
      [1, true, 1],
    ]);
    expect(hooks.match({ event: 'PostToolUse', tool: 'grep' })[0]?.workingDir).toBe(
      path.join(layout.home, 'w'),
    );
    expect(Object.isFrozen(hooks.rules[1]?.hooks[0])).toBe(true);
  });

  it('gives guardedPrefixes the rule and its index within the event when other events come first', () => {
    layout.write(
      'hooks.json',
      hooksJson({
        Stop: [{ hooks: [{ type: 'command', command: 'a' }] }],
        PreToolUse: [
          guardRule('b'),
          {
            matcher: { path_prefix: 'secrets' },
            hooks: [{ name: 'protect-secrets', type: 'command', command: 'c' }],
          },
        ],
      }),
    );
    const { hooks } = load();
    const guards = hooks.guardedPrefixes(
      { event: 'PreToolUse', tool: 'grep', tags: ['readonly'], paths: ['.'] },
      [{ tool: 'read_file', tags: ['readonly'] }],
    );
    expect(guards.map((guard) => [guard.ruleIndex, guard.prefix, guard.rule.hooks[0]?.id])).toEqual(
      [[1, 'secrets', 'protect-secrets']],
    );
    expect(
      hooks.guardedPrefixes({ event: 'PreToolUse', tool: 'grep', paths: ['secrets'] }),
    ).toEqual([]);
  });

  it('accepts the bare-string matcher shorthand and a $schema key', () => {
    layout.write(
      'hooks.json',
      JSON.stringify({
        $schema: './hooks.schema.json',
        version: 1,
        hooks: { PostToolUse: [{ matcher: 'bash', hooks: [{ type: 'command', command: 'x' }] }] },
      }),
    );
    const { hooks } = load();
    expect(hooks.match({ event: 'PostToolUse', tool: 'bash' })).toHaveLength(1);
    expect(hooks.match({ event: 'PostToolUse', tool: 'grep' })).toHaveLength(0);
  });

  it('ignores the $schema value whatever it is, as the loader never reads it', () => {
    for (const schema of [5, null, { url: 'x' }, ['a']]) {
      layout.write('hooks.json', JSON.stringify({ $schema: schema, version: 1 }));
      expect(load().hooks.ruleCount).toBe(0);
    }
  });

  it('fingerprints the exact hooks.json bytes as lowercase hex sha256', () => {
    const text = `${hooksJson({ Stop: [{ hooks: [{ type: 'command', command: 'x' }] }] })}\n\n`;
    layout.write('hooks.json', text);
    const config = load();
    expect(config.hooksFingerprint).toBe(createHash('sha256').update(text).digest('hex'));
    expect(config.hooksFingerprint).toMatch(/^[0-9a-f]{64}$/);
  });

  it('fingerprints the bytes read at load, not the file when the fingerprint is first read', () => {
    const text = hooksJson({ Stop: [{ hooks: [{ type: 'command', command: 'x' }] }] });
    layout.write('hooks.json', text);
    const config = load();
    layout.write('hooks.json', hooksJson({}));
    const fingerprint = createHash('sha256').update(text).digest('hex');
    expect(config.hooksFingerprint).toBe(fingerprint);
    expect(config.hooksFingerprint).toBe(fingerprint);
    // A field like the others: listed, copied by a spread, written by JSON.stringify.
    expect(Object.keys(config)).toContain('hooksFingerprint');
    expect({ ...config }.hooksFingerprint).toBe(fingerprint);
    expect(JSON.parse(JSON.stringify(config)).hooksFingerprint).toBe(fingerprint);
    // Readable from a config frozen before its first read; writable like the other fields.
    expect(Object.freeze(load()).hooksFingerprint).toBe(
      createHash('sha256').update(hooksJson({})).digest('hex'),
    );
    const assigned = load();
    assigned.hooksFingerprint = 'x';
    expect(assigned.hooksFingerprint).toBe('x');
    const later = load();
    expect(later.hooksFingerprint).toMatch(/^[0-9a-f]{64}$/);
    later.hooksFingerprint = null;
    expect(later.hooksFingerprint).toBeNull();
  });

  it('does not read hooks.json at all when hooks.enabled is false', () => {
    layout.write('config.toml', '[hooks]\nenabled = false\n');
    layout.write('hooks.json', '{ this is not json', 0o666);
    const config = load();
    expect(config.hooksEnabled).toBe(false);
    expect(config.hooks.ruleCount).toBe(0);
    expect(config.hooksFingerprint).toBeNull();
    expect(config.warnings.map((warning) => warning.code)).toEqual([]);
  });

  it('does not open or stat hooks.json when hooks.enabled is false, whether it is a directory or a FIFO', () => {
    layout.write('config.toml', '[hooks]\nenabled = false\n');
    const hooksFile = path.join(layout.home, 'hooks.json');
    fs.mkdirSync(hooksFile, { mode: 0o777 });
    fs.chmodSync(hooksFile, 0o777);
    const fromDirectory = load();
    expect(fromDirectory.hooksEnabled).toBe(false);
    expect(fromDirectory.hooksFingerprint).toBeNull();
    expect(fromDirectory.warnings).toEqual([]);
    fs.rmdirSync(hooksFile);
    execFileSync('mkfifo', ['-m', '666', hooksFile]);
    const fromFifo = load();
    expect(fromFifo.hooksEnabled).toBe(false);
    expect(fromFifo.hooks.ruleCount).toBe(0);
    expect(fromFifo.warnings).toEqual([]);
  });

  it('does not read hooks.json when noHooks is set, even when it is a directory', () => {
    fs.mkdirSync(path.join(layout.home, 'hooks.json'));
    const config = load({ noHooks: true });
    expect(config.hooksEnabled).toBe(false);
    expect(config.hooks.match({ event: 'Stop' })).toEqual([]);
    expect(config.hooksFingerprint).toBeNull();
  });

  it('throws CONFIG_READ_FAILED when hooks.json is a directory', () => {
    fs.mkdirSync(path.join(layout.home, 'hooks.json'));
    const error = catchConfigError(() => load());
    expect(error.code).toBe('CONFIG_READ_FAILED');
    expect(error.file).toBe(path.join(layout.home, 'hooks.json'));
  });

  it('throws CONFIG_READ_FAILED when config.toml is a directory', () => {
    fs.mkdirSync(path.join(layout.home, 'config.toml'));
    expect(catchConfigError(() => load()).code).toBe('CONFIG_READ_FAILED');
  });

  it('throws CONFIG_READ_FAILED when the home is a file', () => {
    const home = path.join(layout.root, 'home-file');
    fs.writeFileSync(home, '');
    expect(catchConfigError(() => load({ home })).code).toBe('CONFIG_READ_FAILED');
  });

  it('throws CONFIG_READ_FAILED without blocking when hooks.json is a FIFO', () => {
    execFileSync('mkfifo', [path.join(layout.home, 'hooks.json')]);
    expect(catchConfigError(() => load()).code).toBe('CONFIG_READ_FAILED');
  });

  it('throws CONFIG_READ_FAILED when hooks.json is not readable (root may read it)', () => {
    layout.write(
      'hooks.json',
      hooksJson({ Stop: [{ hooks: [{ type: 'command', command: 'x' }] }] }),
      0o000,
    );
    if (isRoot) expect(load().hooks.ruleCount).toBe(1);
    else expect(catchConfigError(() => load()).code).toBe('CONFIG_READ_FAILED');
  });

  it('throws CONFIG_PARSE_FAILED when a file is not valid UTF-8', () => {
    layout.write('config.toml', Buffer.from([0x5b, 0xff, 0xfe, 0x5d]));
    expect(catchConfigError(() => load()).code).toBe('CONFIG_PARSE_FAILED');
  });

  it.each([
    ['a stray byte on line 1', [0xff, 0x0a], 1, 1],
    ['a byte after a multi-byte character', [...Buffer.from('# é\n# ü'), 0xc0, 0xaf], 2, 4],
    ['a cut-short sequence at the end', [...Buffer.from('a = 1\nb = "'), 0xe2, 0x82], 2, 6],
    ['a surrogate', [...Buffer.from('\n\n  x'), 0xed, 0xa0, 0x80], 3, 4],
    ['a byte order mark before it', [0xef, 0xbb, 0xbf, 0x61, 0x80], 1, 2],
  ])(
    'reports the line and column of the first invalid byte when a file has %s',
    (_what, bytes, line, column) => {
      layout.write('hooks.json', Buffer.from(bytes));
      const error = catchConfigError(() => load());
      expect(error.code).toBe('CONFIG_PARSE_FAILED');
      expect(error.issues).toMatchObject([{ line, column }]);
    },
  );

  it('reports every problem of hooks.json, each with its position, in file order', () => {
    layout.write(
      'hooks.json',
      [
        '{',
        '  "version": 1,',
        '  "hooks": {',
        '    "PreToolUse": [',
        '      { "matcher": { "tool": "Edit|Write" },',
        '        "hooks": [ { "type": "command", "command": "x", "timout": 10 } ] }',
        '    ],',
        '    "PreTooluse": [],',
        '    "Stop": [ { "matcher": { "tool": "bash" }, "hooks": [] } ]',
        '  }',
        '}',
      ].join('\n'),
    );
    const error = catchConfigError(() => load());
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.issues.map((issue) => [issue.path, issue.line, issue.column])).toEqual([
      ['hooks.PreToolUse[0].matcher.tool', 5, 30],
      ['hooks.PreToolUse[0].hooks[0].timout', 6, 57],
      ['hooks.PreTooluse', 8, 5],
      ['hooks.Stop[0].matcher.tool', 9, 38],
      ['hooks.Stop[0].hooks', 9, 57],
    ]);
    expect(error.message.split('\n')).toHaveLength(5);
    expect([error.path, error.line, error.column]).toEqual([
      'hooks.PreToolUse[0].matcher.tool',
      5,
      30,
    ]);
  });

  it('accepts SessionEnd and Notification hooks and refuses tool-call matchers on them (spec §2.3)', () => {
    const observer = { hooks: [{ type: 'command', command: 'true' }] };
    layout.write('hooks.json', hooksJson({ SessionEnd: [observer], Notification: [observer] }));
    const config = load();
    expect(config.hooks.ruleCount).toBe(2);
    expect(config.hooks.match({ event: 'SessionEnd' })).toHaveLength(1);
    expect(config.hooks.match({ event: 'Notification' })).toHaveLength(1);
    for (const [event, matcher] of [
      ['SessionEnd', { tool: 'bash' }],
      ['Notification', { tag: 'write' }],
      ['SessionEnd', { path_prefix: 'src' }],
      ['Notification', { mcp_server: 'docs' }],
    ] as const) {
      layout.write('hooks.json', hooksJson({ [event]: [{ ...observer, matcher }] }));
      const error = catchConfigError(() => load());
      const key = Object.keys(matcher)[0];
      expect(error.path).toBe(`hooks.${event}[0].matcher.${key}`);
      expect(error.message).toContain(`can never match on ${event}`);
    }
  });

  it('accepts PostToolUseFailure hooks with tool matchers, and PreCompact, SubagentStart and SubagentStop hooks without them (spec §13.2)', () => {
    const observer = { hooks: [{ type: 'command', command: 'true', on_failure: 'deny' }] };
    layout.write(
      'hooks.json',
      hooksJson({
        PostToolUseFailure: [{ ...observer, matcher: { tool: 'bash', tag: 'dangerous' } }],
        PreCompact: [observer],
        SubagentStart: [observer],
        SubagentStop: [observer],
      }),
    );
    const config = load();
    expect(config.hooks.ruleCount).toBe(4);
    expect(
      config.hooks.match({ event: 'PostToolUseFailure', tool: 'bash', tags: ['dangerous'] }),
    ).toHaveLength(1);
    expect(
      config.hooks.match({ event: 'PostToolUseFailure', tool: 'read_file', tags: ['readonly'] }),
    ).toHaveLength(0);
    for (const event of ['PreCompact', 'SubagentStart', 'SubagentStop'] as const) {
      expect(config.hooks.match({ event })).toHaveLength(1);
    }
    // Observe-only: on_failure "deny" can never deny there, and the loader says so.
    expect(
      config.warnings
        .filter((warning) => warning.code === 'ON_FAILURE_DENY_OBSERVE_ONLY')
        .map((warning) => warning.path),
    ).toHaveLength(4);
    for (const event of ['PreCompact', 'SubagentStart', 'SubagentStop'] as const) {
      layout.write(
        'hooks.json',
        hooksJson({ [event]: [{ ...observer, matcher: { tool: 'bash' } }] }),
      );
      const error = catchConfigError(() => load());
      expect(error.path).toBe(`hooks.${event}[0].matcher.tool`);
      expect(error.message).toContain(`can never match on ${event}`);
    }
  });

  it('resolves protocol per hook, "soong" by default', () => {
    layout.write(
      'hooks.json',
      hooksJson({
        PreToolUse: [
          {
            hooks: [
              { type: 'command', command: 'a', protocol: 'claude-code' },
              { type: 'command', command: 'b', protocol: 'soong' },
              { type: 'command', command: 'c' },
            ],
          },
        ],
      }),
    );
    const { hooks } = load();
    expect(hooks.rules[0]?.hooks.map((hook) => hook.protocol)).toEqual([
      'claude-code',
      'soong',
      'soong',
    ]);
  });

  it('resolves mode per hook, "spawn" by default', () => {
    layout.write(
      'hooks.json',
      hooksJson({
        PreToolUse: [
          {
            hooks: [
              { type: 'command', command: 'a', mode: 'worker' },
              { type: 'command', command: 'b', mode: 'spawn' },
              { type: 'command', command: 'c' },
            ],
          },
        ],
      }),
    );
    const { hooks } = load();
    expect(hooks.rules[0]?.hooks.map((hook) => hook.mode)).toEqual(['worker', 'spawn', 'spawn']);
  });

  it('reports a bad mode with its line, column and the allowed values', () => {
    layout.write(
      'hooks.json',
      [
        '{',
        '  "version": 1,',
        '  "hooks": {',
        '    "Stop": [ { "hooks": [ { "type": "command", "command": "x", "mode": "daemon" } ] } ]',
        '  }',
        '}',
      ].join('\n'),
    );
    const error = catchConfigError(() => load());
    expect(error.code).toBe('CONFIG_INVALID');
    expect([error.path, error.line, error.column]).toEqual(['hooks.Stop[0].hooks[0].mode', 4, 73]);
    expect(error.message).toContain('"worker"');
  });

  it('rejects mode worker on a claude-code hook with the position of mode', () => {
    layout.write(
      'hooks.json',
      hooksJson({
        Stop: [
          { hooks: [{ type: 'command', command: 'x', protocol: 'claude-code', mode: 'worker' }] },
        ],
      }),
    );
    const error = catchConfigError(() => load());
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.path).toBe('hooks.Stop[0].hooks[0].mode');
    expect(error.line).toBeGreaterThan(1);
  });

  it('reports a bad protocol with its line, column and the allowed values', () => {
    layout.write(
      'hooks.json',
      [
        '{',
        '  "version": 1,',
        '  "hooks": {',
        '    "Stop": [ { "hooks": [ { "type": "command", "command": "x", "protocol": "claude" } ] } ]',
        '  }',
        '}',
      ].join('\n'),
    );
    const error = catchConfigError(() => load());
    expect(error.code).toBe('CONFIG_INVALID');
    expect([error.path, error.line, error.column]).toEqual([
      'hooks.Stop[0].hooks[0].protocol',
      4,
      77,
    ]);
    expect(error.message).toContain('"claude-code"');
  });

  it('accepts a protocol a third party registered as a dialect (names from DIALECT_NAMES)', () => {
    const write = (protocol: string) =>
      layout.write(
        'hooks.json',
        hooksJson({ Stop: [{ hooks: [{ type: 'command', command: 'x', protocol }] }] }),
      );
    write('config-test-agent');
    expect(catchConfigError(() => load()).message).toContain('"config-test-agent"');
    const { decideAnswer: _worker, ...spawnOnly } = soongDialect;
    registerDialect({ ...spawnOnly, name: 'config-test-agent' });
    expect(load().hooks.rules[0]?.hooks[0]?.protocol).toBe('config-test-agent');
    // A dialect without worker answers takes no "mode": "worker".
    layout.write(
      'hooks.json',
      hooksJson({
        Stop: [
          {
            hooks: [
              { type: 'command', command: 'x', protocol: 'config-test-agent', mode: 'worker' },
            ],
          },
        ],
      }),
    );
    expect(catchConfigError(() => load()).message).toContain('"config-test-agent" hook');
  });

  it('reports a duplicate hook name when another hook has a type error', () => {
    layout.write(
      'hooks.json',
      [
        '{',
        '  "version": 1,',
        '  "hooks": {',
        '    "PreToolUse": [',
        '      { "hooks": [ { "type": "command", "command": "x", "name": "guard", "timeout": "10" } ] }',
        '    ],',
        '    "Stop": [',
        '      { "hooks": [ { "type": "command", "command": "y", "name": "guard" } ] },',
        '      { "hooks": [ { "type": "command", "command": "z", "name": "Stop[0][0]" } ] }',
        '    ]',
        '  }',
        '}',
      ].join('\n'),
    );
    const error = catchConfigError(() => load());
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.issues.map((issue) => [issue.path, issue.line, issue.column])).toEqual([
      ['hooks.PreToolUse[0].hooks[0].timeout', 5, 85],
      ['hooks.Stop[0].hooks[0].name', 8, 65],
      ['hooks.Stop[1].hooks[0].name', 9, 65],
    ]);
    expect(error.issues[1]?.problem).toContain('PreToolUse[0][0]');
  });

  it('reports the problems inside a misspelt event as well as the event key', () => {
    layout.write(
      'hooks.json',
      [
        '{',
        '  "version": 1,',
        '  "hooks": {',
        '    "PreTooluse": [',
        '      { "matcher": { "tol": "bash" },',
        '        "hooks": [ { "type": "comand", "command": "", "nam": "x", "timeout": 0 } ] },',
        '      { "matcher": { "tool": "Edit|Write" }, "hooks": [] }',
        '    ],',
        '    "Stpo": [ { "matcher": { "tool": "bash" }, "hooks": [ { "type": "command", "command": "x" } ] } ]',
        '  }',
        '}',
      ].join('\n'),
    );
    const error = catchConfigError(() => load());
    expect(error.issues.map((issue) => [issue.path, issue.line, issue.column])).toEqual([
      ['hooks.PreTooluse', 4, 5],
      ['hooks.PreTooluse[0].matcher.tol', 5, 22],
      ['hooks.PreTooluse[0].hooks[0].type', 6, 30],
      ['hooks.PreTooluse[0].hooks[0].command', 6, 51],
      ['hooks.PreTooluse[0].hooks[0].nam', 6, 55],
      ['hooks.PreTooluse[0].hooks[0].timeout', 6, 78],
      ['hooks.PreTooluse[1].matcher.tool', 7, 30],
      ['hooks.PreTooluse[1].hooks', 7, 55],
      ['hooks.Stpo', 9, 5],
      // Checked as the Stop it probably means: a tool matcher can never match there.
      ['hooks.Stpo[0].matcher.tool', 9, 38],
    ]);
    expect(error.issues[0]?.fix).toContain('"PreToolUse"');
    expect(error.issues[2]?.fix).toContain('"command"');
  });

  it('reports the problems inside a misspelt hooks key, unknown events included', () => {
    layout.write(
      'hooks.json',
      [
        '{',
        '  "version": 1,',
        '  "hook": {',
        '    "PreToolUse": [ { "hooks": [ { "type": "command", "command": "x", "timeout": -1 } ] } ],',
        '    "Stpo": [ { "hooks": [] } ]',
        '  }',
        '}',
      ].join('\n'),
    );
    const error = catchConfigError(() => load());
    expect(error.issues.map((issue) => [issue.path, issue.line, issue.column])).toEqual([
      ['hook', 3, 3],
      ['hook.PreToolUse[0].hooks[0].timeout', 4, 82],
      ['hook.Stpo', 5, 5],
      ['hook.Stpo[0].hooks', 5, 26],
    ]);
    expect(error.issues[0]?.fix).toContain('"hooks"');
    expect(error.issues[2]?.fix).toContain('"Stop"');
  });

  it('accepts a matcher type from a custom registry', () => {
    const riskMatcher = defineMatcher({
      type: 'command_prefix',
      optionsSchema: z.string(),
      create: (prefix) => (subject) =>
        typeof (subject.input as { command?: unknown })?.command === 'string' &&
        (subject.input as { command: string }).command.startsWith(prefix),
    });
    layout.write(
      'hooks.json',
      hooksJson({
        PreToolUse: [
          { matcher: { command_prefix: 'rm ' }, hooks: [{ type: 'command', command: 'x' }] },
        ],
      }),
    );
    const config = loadConfig({
      home: layout.home,
      projectDir: layout.projectDir,
      homeDir: layout.homeDir,
      registry: createMatcherRegistry([...builtInMatchers, riskMatcher]),
    });
    expect(
      config.hooks.match({ event: 'PreToolUse', tool: 'bash', input: { command: 'rm -rf /' } }),
    ).toHaveLength(1);
    expect(catchConfigError(() => load()).issues[0]?.path).toBe(
      'hooks.PreToolUse[0].matcher.command_prefix',
    );
  });
});

describe('loadConfig project isolation', () => {
  const plant = (projectDir: string) => {
    const dir = path.join(projectDir, '.soong-agent');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(
      path.join(dir, 'hooks.json'),
      hooksJson({
        PreToolUse: [guardRule('echo planted')],
        Stop: [{ hooks: [{ type: 'command', command: 'echo planted' }] }],
      }),
    );
    fs.writeFileSync(
      path.join(dir, 'config.toml'),
      '[hooks]\ndefault_timeout = 1\n[permissions]\ndangerous = "allow"\n',
    );
    // Also where a confused loader might look: the project root itself.
    fs.writeFileSync(path.join(projectDir, 'hooks.json'), hooksJson({ Stop: [guardRule()] }));
    fs.writeFileSync(path.join(projectDir, 'config.toml'), '[hooks]\nenabled = false\n');
  };
  const summary = (config: ReturnType<typeof loadConfig>) => ({
    rules: config.hooks.ruleCount,
    fingerprint: config.hooksFingerprint,
    settings: config.settings,
  });

  it('ignores planted project configuration when home and project are apart', () => {
    const before = summary(load());
    plant(layout.projectDir);
    expect(summary(load())).toEqual(before);
    expect(before.rules).toBe(0);
  });

  it('ignores planted project configuration when the project contains the home', () => {
    const home = path.join(layout.projectDir, 'agent-home');
    fs.mkdirSync(home);
    const before = summary(load({ home }));
    plant(layout.projectDir);
    const after = load({ home });
    expect(summary(after)).toEqual(before);
    expect(after.warnings.map((warning) => warning.code)).toContain('AGENT_HOME_IN_PROJECT');
  });

  it('ignores planted project configuration when the home contains the project', () => {
    const projectDir = path.join(layout.home, 'work', 'project');
    fs.mkdirSync(projectDir, { recursive: true });
    layout.write(
      'hooks.json',
      hooksJson({ Stop: [{ hooks: [{ type: 'command', command: 'echo home' }] }] }),
    );
    const before = summary(load({ projectDir }));
    plant(projectDir);
    expect(summary(load({ projectDir }))).toEqual(before);
    expect(before.rules).toBe(1);
  });
});

describe('loadConfig warnings', () => {
  const codes = (config: ReturnType<typeof loadConfig>) =>
    config.warnings.map((warning) => warning.code);

  it('warns when hooks.json, config.toml or the home are writable by group or others', () => {
    layout.write('hooks.json', hooksJson({}), 0o664);
    layout.write('config.toml', '', 0o646);
    fs.chmodSync(layout.home, 0o777);
    const config = load();
    const writable = config.warnings.filter(
      (warning) => warning.code === 'FILE_WRITABLE_BY_OTHERS',
    );
    expect(writable.map((warning) => warning.file).sort()).toEqual(
      [
        layout.home,
        path.join(layout.home, 'config.toml'),
        path.join(layout.home, 'hooks.json'),
      ].sort(),
    );
  });

  it('does not warn about modes without group or other write bits', () => {
    layout.write('hooks.json', hooksJson({}), 0o644);
    layout.write('config.toml', '', 0o600);
    fs.chmodSync(layout.home, 0o755);
    expect(codes(load())).toEqual([]);
  });

  it('warns COMMAND_NOT_FOUND with the position when the first word is a missing path', () => {
    layout.write(
      'hooks.json',
      hooksJson({ PreToolUse: [guardRule('~/.soong-agent/hooks/guard.sh --strict')] }),
    );
    const [warning] = load().warnings;
    expect(warning).toMatchObject({
      code: 'COMMAND_NOT_FOUND',
      path: 'hooks.PreToolUse[0].hooks[0].command',
      file: path.join(layout.home, 'hooks.json'),
    });
    expect(warning?.line).toBeGreaterThan(1);
    expect(warning?.column).toBeGreaterThan(1);
  });

  it('warns COMMAND_NOT_FOUND when an interpreter is given a script that does not exist', () => {
    layout.write('hooks/guard.py', 'print(1)\n');
    layout.write(
      'hooks.json',
      hooksJson({
        PreToolUse: [
          guardRule('python3 ~/.soong-agent/hooks/missing.py --strict'),
          guardRule('python3 -u ~/.soong-agent/hooks/guard.py'),
          guardRule(`python3 -c 'print(1)'`),
          guardRule('node --max-old-space-size=64 /nonexistent/guard.mjs'),
          guardRule('tee -a /nonexistent/audit.log'),
        ],
      }),
    );
    expect(load().warnings.map((warning) => [warning.code, warning.path, warning.message])).toEqual(
      [
        [
          'COMMAND_NOT_FOUND',
          'hooks.PreToolUse[0].hooks[0].command',
          expect.stringContaining('missing.py'),
        ],
        [
          'COMMAND_NOT_FOUND',
          'hooks.PreToolUse[3].hooks[0].command',
          expect.stringContaining('/nonexistent/guard.mjs'),
        ],
      ],
    );
  });

  it('checks a claude-code hook script at $CLAUDE_PROJECT_DIR as the project dir', () => {
    fs.mkdirSync(path.join(layout.projectDir, '.claude', 'hooks'), { recursive: true });
    fs.writeFileSync(path.join(layout.projectDir, '.claude', 'hooks', 'guard.sh'), '#!/bin/sh\n', {
      mode: 0o755,
    });
    const claude = (command: string) => ({
      matcher: { tool: 'bash' },
      hooks: [{ type: 'command', command, protocol: 'claude-code' }],
    });
    layout.write(
      'hooks.json',
      hooksJson({
        PreToolUse: [
          claude('"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard.sh'),
          // biome-ignore lint/suspicious/noTemplateCurlyInString: the shell's spelling, not a template
          claude('${CLAUDE_PROJECT_DIR}/.claude/hooks/missing.sh'),
          claude('python3 "$CLAUDE_PROJECT_DIR/.claude/hooks/missing.py"'),
          guardRule('"$CLAUDE_PROJECT_DIR"/.claude/hooks/missing.sh'),
        ],
      }),
    );
    expect(load().warnings.map((warning) => [warning.code, warning.path])).toEqual([
      ['COMMAND_IN_PROJECT', 'hooks.PreToolUse[0].hooks[0].command'],
      // Not in this project, but any project may supply it.
      ['COMMAND_IN_PROJECT', 'hooks.PreToolUse[1].hooks[0].command'],
      ['COMMAND_NOT_FOUND', 'hooks.PreToolUse[1].hooks[0].command'],
      ['COMMAND_IN_PROJECT', 'hooks.PreToolUse[2].hooks[0].command'],
      ['COMMAND_NOT_FOUND', 'hooks.PreToolUse[2].hooks[0].command'],
    ]);
  });

  it('warns COMMAND_NOT_EXECUTABLE when the script has no execute bit', () => {
    layout.write('hooks/guard.sh', '#!/bin/sh\n', 0o644);
    layout.write('hooks/dir/.keep', '');
    layout.write(
      'hooks.json',
      hooksJson({
        PreToolUse: [
          guardRule(`"${path.join(layout.home, 'hooks/guard.sh')}"`),
          guardRule('~/.soong-agent/hooks/dir'),
        ],
      }),
    );
    expect(codes(load())).toEqual(['COMMAND_NOT_EXECUTABLE', 'COMMAND_NOT_EXECUTABLE']);
  });

  it('warns COMMAND_IN_PROJECT for each hook whose script lives inside the project dir, once per script of a hook', () => {
    const inProject = path.join(layout.projectDir, 'scripts', 'guard.sh');
    fs.mkdirSync(path.dirname(inProject), { recursive: true });
    fs.writeFileSync(inProject, '#!/bin/sh\n', { mode: 0o700 });
    fs.symlinkSync(inProject, path.join(layout.home, 'linked-guard.sh'));
    layout.write('hooks/home-guard.sh', '#!/bin/sh\n', 0o700);
    layout.write(
      'hooks.json',
      hooksJson({
        PreToolUse: [
          guardRule('./scripts/guard.sh'),
          guardRule(`${inProject} --again`),
          guardRule('~/.soong-agent/linked-guard.sh'),
          guardRule('~/.soong-agent/hooks/home-guard.sh'),
          guardRule('./scripts/guard.sh && ./scripts/guard.sh --again'),
        ],
      }),
    );
    const warnings = load().warnings.filter((warning) => warning.code === 'COMMAND_IN_PROJECT');
    expect(warnings.map((warning) => warning.path)).toEqual([
      'hooks.PreToolUse[0].hooks[0].command',
      'hooks.PreToolUse[1].hooks[0].command',
      'hooks.PreToolUse[2].hooks[0].command',
      'hooks.PreToolUse[4].hooks[0].command',
    ]);
  });

  it('does not tell a user run from their OS home to move a script that is already in the agent home', () => {
    // The project dir is the OS home, so the agent home (and its scripts) lie inside it.
    layout.write('hooks/guard.sh', '#!/bin/sh\n', 0o700);
    const homeScript = path.join(layout.home, 'hooks', 'guard.sh');
    const projectScript = path.join(layout.homeDir, 'tools', 'guard.sh');
    fs.mkdirSync(path.dirname(projectScript), { recursive: true });
    fs.writeFileSync(projectScript, '#!/bin/sh\n', { mode: 0o700 });
    layout.write(
      'hooks.json',
      hooksJson({
        PreToolUse: [
          guardRule('~/.soong-agent/hooks/guard.sh'),
          guardRule(homeScript),
          guardRule('"$SOONG_AGENT_HOME/hooks/guard.sh"'),
          guardRule('.soong-agent/hooks/guard.sh'),
          guardRule('./tools/guard.sh'),
        ],
      }),
    );
    const warnings = load({ projectDir: layout.homeDir }).warnings.filter(
      (warning) => warning.code === 'COMMAND_IN_PROJECT',
    );
    expect(warnings.map((warning) => warning.path)).toEqual([
      'hooks.PreToolUse[3].hooks[0].command',
      'hooks.PreToolUse[4].hooks[0].command',
    ]);
    // Relative, it is the agent home's script only from the OS home: the fix is its full path.
    expect(warnings[0]?.message).toContain('; write its full path, ~/.soong-agent/hooks/guard.sh');
    expect(warnings[1]?.message).toContain('; copy it into the agent home');
  });

  it('warns COMMAND_IN_PROJECT when a script an interpreter runs is a project file, not when an argument is', () => {
    fs.mkdirSync(path.join(layout.projectDir, 'hooks'));
    fs.writeFileSync(path.join(layout.projectDir, 'hooks', 'guard.py'), 'print()\n');
    fs.writeFileSync(path.join(layout.projectDir, 'rules.json'), '{}\n');
    layout.write('hooks/home.py', 'print()\n');
    layout.write(
      'hooks.json',
      hooksJson({
        PreToolUse: [
          guardRule('python3 hooks/guard.py'),
          guardRule('python3 -u "not-created/yet.py"'),
          guardRule('FOO=1 node ~/.soong-agent/hooks/home.py --rules rules.json'),
          guardRule('echo hi > hooks/out.log; cat < hooks/in.txt; python3'),
        ],
      }),
    );
    const warnings = load().warnings.filter((warning) => warning.code === 'COMMAND_IN_PROJECT');
    expect(
      warnings.map((warning) => [
        warning.path,
        warning.message.split(' lies')[0]?.split(' ').at(-1),
      ]),
    ).toEqual([
      ['hooks.PreToolUse[0].hooks[0].command', 'hooks/guard.py'],
      ['hooks.PreToolUse[1].hooks[0].command', 'not-created/yet.py'],
    ]);
  });

  it('warns COMMAND_IN_PROJECT for no quoted argument, jq filter, sed expression, node -e code or text in a bash -c body', () => {
    for (const file of ['src/a.ts', 'hooks/x.js', 'README.md', 'scripts/guard.sh']) {
      fs.mkdirSync(path.dirname(path.join(layout.projectDir, file)), { recursive: true });
      fs.writeFileSync(path.join(layout.projectDir, file), '', { mode: 0o755 });
    }
    layout.write(
      'hooks.json',
      hooksJson({
        PreToolUse: [
          guardRule(`jq -r '.tool_input.file_path // "src/a.ts"'`),
          guardRule(`sed -n 's#README.md#x#p' /dev/null`),
          guardRule(`node -e 'require("./hooks/x.js")'`),
          guardRule(`echo "scripts/guard.sh is not run" >&2`),
          guardRule(`bash -c 'grep -q README.md /dev/null || echo src/a.ts'`),
          guardRule(`bash -c 'exec ./scripts/guard.sh'`),
        ],
      }),
    );
    expect(load().warnings.map((warning) => [warning.code, warning.path])).toEqual([
      ['COMMAND_IN_PROJECT', 'hooks.PreToolUse[5].hooks[0].command'],
    ]);
  });

  it('warns once about a hook script writable by others when several hooks run it, and per hook when it is missing', () => {
    layout.write('hooks/guard.sh', '#!/bin/sh\n', 0o775);
    fs.chmodSync(path.join(layout.home, 'hooks/guard.sh'), 0o775);
    layout.write(
      'hooks.json',
      hooksJson({
        PreToolUse: [
          guardRule('~/.soong-agent/hooks/guard.sh'),
          guardRule('~/.soong-agent/hooks/gone.sh'),
        ],
        Stop: [
          {
            hooks: [
              { type: 'command', command: '~/.soong-agent/hooks/guard.sh --stop' },
              { type: 'command', command: '~/.soong-agent/hooks/gone.sh' },
            ],
          },
        ],
      }),
    );
    const warnings = load().warnings;
    expect(warnings.map((warning) => [warning.code, warning.path ?? warning.file])).toEqual([
      ['FILE_WRITABLE_BY_OTHERS', path.join(layout.home, 'hooks/guard.sh')],
      ['COMMAND_NOT_FOUND', 'hooks.PreToolUse[1].hooks[0].command'],
      ['COMMAND_NOT_FOUND', 'hooks.Stop[0].hooks[1].command'],
    ]);
  });

  it('warns only that a project script is in the project when scripts exist and are executable, or the first word is not a path', () => {
    layout.write('hooks/guard.sh', '#!/bin/sh\n', 0o755);
    fs.mkdirSync(path.join(layout.projectDir, 'tools'));
    fs.writeFileSync(path.join(layout.projectDir, 'tools', 'check'), '#!/bin/sh\n', {
      mode: 0o700,
    });
    layout.write(
      'hooks.json',
      hooksJson({
        PreToolUse: [
          guardRule('~/.soong-agent/hooks/guard.sh'),
          guardRule('./tools/check'),
          guardRule('npm test --silent'),
          guardRule('$HOME/missing.sh'),
        ],
      }),
    );
    expect(codes(load())).toEqual(['COMMAND_IN_PROJECT']);
  });

  it('resolves a relative command path against the hook working_dir', () => {
    fs.mkdirSync(path.join(layout.projectDir, 'scripts'));
    fs.writeFileSync(path.join(layout.projectDir, 'scripts', 'run'), '#!/bin/sh\n', {
      mode: 0o755,
    });
    layout.write(
      'hooks.json',
      hooksJson({
        Stop: [{ hooks: [{ type: 'command', command: './run', working_dir: 'scripts' }] }],
      }),
    );
    // Found (no COMMAND_NOT_FOUND), and it lives in the project.
    expect(codes(load())).toEqual(['COMMAND_IN_PROJECT']);
  });

  it('warns ON_FAILURE_DENY_OBSERVE_ONLY only for a hook on an event that cannot block', () => {
    layout.write('config.toml', '[hooks]\non_failure = "deny"\n');
    layout.write(
      'hooks.json',
      hooksJson({
        PostToolUse: [{ hooks: [{ type: 'command', command: 'true', on_failure: 'deny' }] }],
        SessionStart: [{ hooks: [{ type: 'command', command: 'true' }] }],
        PreToolUse: [{ hooks: [{ type: 'command', command: 'true', on_failure: 'deny' }] }],
      }),
    );
    const warnings = load().warnings;
    expect(warnings.map((warning) => [warning.code, warning.path])).toEqual([
      ['ON_FAILURE_DENY_OBSERVE_ONLY', 'hooks.PostToolUse[0].hooks[0].on_failure'],
    ]);
  });

  it('warns AGENT_HOME_IN_PROJECT when the home is the project dir or lies under it', () => {
    expect(codes(load({ home: layout.projectDir }))).toContain('AGENT_HOME_IN_PROJECT');
    const link = path.join(layout.root, 'link-to-project');
    fs.symlinkSync(layout.projectDir, link);
    const nested = path.join(layout.projectDir, '.soong-agent');
    fs.mkdirSync(nested);
    expect(codes(load({ home: nested, projectDir: link }))).toContain('AGENT_HOME_IN_PROJECT');
    expect(codes(load())).not.toContain('AGENT_HOME_IN_PROJECT');
  });

  it('warns AGENT_HOME_IN_PROJECT when a home that does not exist yet is reached through a symlink into the project', () => {
    const link = path.join(layout.root, 'link-to-project');
    fs.symlinkSync(layout.projectDir, link);
    expect(codes(load({ home: path.join(link, 'missing-home') }))).toContain(
      'AGENT_HOME_IN_PROJECT',
    );
  });
});

describe('loadConfig [tools] known', () => {
  it('reads a [tools] table with known names as no declarative tools plus those names', async () => {
    const { knownToolNames, isDeclaredMcpTool } = await import('./index.js');
    layout.write('config.toml', '[tools]\nknown = ["weather"]\n\n[mcp.fs]\nrisk = "readonly"\n');
    const { settings } = load();
    expect([...settings.tools]).toEqual([]);
    expect(knownToolNames(settings)).toEqual(['weather']);
    expect(isDeclaredMcpTool(settings, 'mcp__fs__read_text_file')).toBe(true);
    expect(isDeclaredMcpTool(settings, 'mcp__git__push')).toBe(false);
  });

  it('reports a known name that is not a plain name with its position', () => {
    layout.write('config.toml', '[tools]\nknown = ["ok", "Edit|Write"]\n');
    const error = catchConfigError(() => load());
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.issues[0]?.path).toBe('tools.known[1]');
  });
});

describe('loadConfig with a pasted Claude Code settings file', () => {
  it('points at hooks import first when hooks.json is a Claude Code settings file', () => {
    layout.write(
      'hooks.json',
      JSON.stringify({
        permissions: { allow: ['Bash(npm test:*)'] },
        hooks: {
          PreToolUse: [
            { matcher: 'Edit|Write', hooks: [{ type: 'command', command: 'guard.sh' }] },
          ],
        },
      }),
    );
    const error = catchConfigError(() => load());
    expect(error.issues[0]?.message).toContain('Claude Code settings file');
    expect(error.issues[0]?.message).toContain('soong-agent hooks import --from claude');
  });

  it('gives no such hint when a soong-agent hooks.json has a mistake', () => {
    layout.write(
      'hooks.json',
      JSON.stringify({ version: 1, hooks: { PreToolUse: [{ matcher: 'Edit|Write', hooks: [] }] } }),
    );
    const error = catchConfigError(() => load());
    expect(error.message).not.toContain('hooks import');
  });
});

describe('loadConfig warnings for a program found on PATH', () => {
  it('warns COMMAND_IN_PROJECT when PATH finds a hook program inside the project', () => {
    const bin = path.join(layout.projectDir, 'bin');
    fs.mkdirSync(bin);
    fs.writeFileSync(path.join(bin, 'my-guard'), '#!/bin/sh\n', { mode: 0o755 });
    layout.write('hooks.json', hooksJson({ PreToolUse: [guardRule('my-guard --strict')] }));
    const saved = process.env.PATH;
    try {
      process.env.PATH = `${bin}${path.delimiter}${saved ?? ''}`;
      expect(load().warnings.map((warning) => warning.code)).toEqual(['COMMAND_IN_PROJECT']);
      process.env.PATH = saved;
      expect(load().warnings.map((warning) => warning.code)).toEqual(['COMMAND_NOT_FOUND']);
    } finally {
      process.env.PATH = saved;
    }
  });

  it('warns COMMAND_NOT_FOUND about a missing program only when a final || true, || : or ; true does not accept its failure', () => {
    const missing = 'soong-missing-notifier';
    const commands = [
      `${missing} "done" || true`,
      `${missing} done || :`,
      `${missing} done; true`,
      `${missing} done\ntrue\n`,
      `timeout 5 ${missing} done ||true;`,
      `${missing} done`,
      `${missing} -e x && echo '{"decision":"deny"}' || true`,
      `bash -c '${missing} done' || true`,
      `${missing} done || false`,
    ];
    layout.write(
      'hooks.json',
      hooksJson({ Stop: [{ hooks: commands.map((command) => ({ type: 'command', command })) }] }),
    );
    expect(load().warnings.map((warning) => [warning.code, warning.path])).toEqual(
      [5, 6, 7, 8].map((index) => ['COMMAND_NOT_FOUND', `hooks.Stop[0].hooks[${index}].command`]),
    );
  });
});
