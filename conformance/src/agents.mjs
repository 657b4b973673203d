// The four real agents: how each is installed, configured (its own files in its own HOME), and
// run offline against the fake model server; plus how its hooks are imported into a soong home.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The dummy key every agent gets. Copilot CLI masks its provider key wherever it appears (the prompt
 * included), so it is a string no prompt, path or token contains.
 */
const DUMMY_KEY = 'dummy-key-7f3a9c';

/**
 * One hook as a case asks for it, in our event names (the adapter renames it).
 * @typedef {{ event: Event, matcher?: 'shell' | 'other', command: string, timeoutSec?: number }} HookEntry
 * @typedef {'PreToolUse' | 'PostToolUse' | 'UserPromptSubmit' | 'SessionStart' | 'Stop'} Event
 */

/** Writes `value` as JSON to `file`, creating its directory. */
function writeJson(file, value) {
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

/**
 * Claude Code's settings shape (also Codex's and Gemini's): `{ hooks: { Event: [{ matcher?, hooks:
 * [{ type, command, timeout? }] }] } }`.
 */
function claudeShapedHooks(entries, { events, matchers, timeout }) {
  /** @type {Record<string, unknown[]>} */
  const hooks = {};
  for (const entry of entries) {
    const name = events[entry.event];
    const handler = { type: 'command', command: entry.command };
    if (entry.timeoutSec !== undefined) handler.timeout = timeout(entry.timeoutSec);
    const group = { hooks: [handler] };
    if (entry.matcher !== undefined) group.matcher = matchers[entry.matcher];
    hooks[name] ??= [];
    hooks[name].push(group);
  }
  return hooks;
}

const CLAUDE_EVENTS = {
  PreToolUse: 'PreToolUse',
  PostToolUse: 'PostToolUse',
  UserPromptSubmit: 'UserPromptSubmit',
  SessionStart: 'SessionStart',
  Stop: 'Stop',
};

/**
 * @typedef {object} Agent
 * @property {'claude' | 'codex' | 'gemini' | 'copilot'} name the `hooks import --from` name too
 * @property {string} title
 * @property {string} packageName
 * @property {string} version
 * @property {string} bin the executable under node_modules/.bin
 * @property {Record<Event, string>} events its event names
 * @property {(tools: string[], command: string) => { name: string, input: Record<string, unknown> }} shellCall
 *   the model's call of its shell tool, given the tools the request offers
 * @property {(home: string, entries: HookEntry[]) => string} writeHooks writes the hooks into its
 *   config under `home`; returns the file `hooks import` reads
 * @property {(context: { bin: string, home: string, project: string, url: string, prompt: string }) =>
 *   { argv: string[], env: Record<string, string> }} command how to run it once, offline
 */

/** @type {Agent} */
const claude = {
  name: 'claude',
  title: 'Claude Code',
  packageName: '@anthropic-ai/claude-code',
  version: '2.1.328',
  bin: 'claude',
  events: CLAUDE_EVENTS,
  shellCall: (_tools, command) => ({ name: 'Bash', input: { command } }),
  writeHooks(home, entries) {
    const file = join(home, '.claude', 'settings.json');
    writeJson(file, {
      hooks: claudeShapedHooks(entries, {
        events: CLAUDE_EVENTS,
        matchers: { shell: 'Bash', other: 'Edit|Write' },
        timeout: (seconds) => seconds,
      }),
    });
    return file;
  },
  command: ({ bin, home, url, prompt }) => ({
    argv: [
      bin,
      '-p',
      prompt,
      '--output-format',
      'stream-json',
      '--verbose',
      '--permission-mode',
      'bypassPermissions',
      '--model',
      'claude-sonnet-4-5',
    ],
    env: {
      HOME: home,
      ANTHROPIC_BASE_URL: url,
      ANTHROPIC_API_KEY: DUMMY_KEY,
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      // Claude Code refuses bypassPermissions as root unless it is told it runs in a sandbox.
      IS_SANDBOX: '1',
    },
  }),
};

/** @type {Agent} */
const codex = {
  name: 'codex',
  title: 'Codex',
  packageName: '@openai/codex',
  version: '0.169.0',
  bin: 'codex',
  events: CLAUDE_EVENTS,
  // Codex offers `exec_command` (unified exec) or the older `shell`; both reach hooks as `Bash`.
  shellCall: (tools, command) =>
    tools.includes('exec_command')
      ? { name: 'exec_command', input: { cmd: command } }
      : { name: 'shell', input: { command: ['bash', '-lc', command] } },
  writeHooks(home, entries) {
    const file = join(home, '.codex', 'hooks.json');
    writeJson(file, {
      hooks: claudeShapedHooks(entries, {
        events: CLAUDE_EVENTS,
        matchers: { shell: 'Bash', other: 'apply_patch' },
        timeout: (seconds) => seconds,
      }),
    });
    return file;
  },
  command: ({ bin, home, url, prompt }) => {
    const codexHome = join(home, '.codex');
    writeFileSync(
      join(codexHome, 'config.toml'),
      [
        'model = "conformance-model"',
        'model_provider = "conformance"',
        'approval_policy = "never"',
        'sandbox_mode = "danger-full-access"',
        '',
        '[model_providers.conformance]',
        'name = "conformance"',
        `base_url = "${url}/v1"`,
        'env_key = "CONFORMANCE_API_KEY"',
        'wire_api = "responses"',
        '',
      ].join('\n'),
    );
    return {
      argv: [
        bin,
        'exec',
        '--json',
        '--dangerously-bypass-hook-trust',
        '--skip-git-repo-check',
        prompt,
      ],
      env: { HOME: home, CODEX_HOME: codexHome, CONFORMANCE_API_KEY: DUMMY_KEY },
    };
  },
};

const GEMINI_EVENTS = {
  PreToolUse: 'BeforeTool',
  PostToolUse: 'AfterTool',
  UserPromptSubmit: 'BeforeAgent',
  SessionStart: 'SessionStart',
  Stop: 'AfterAgent',
};

/** @type {Agent} */
const gemini = {
  name: 'gemini',
  title: 'Gemini CLI',
  packageName: '@google/gemini-cli',
  version: '0.61.0',
  bin: 'gemini',
  events: GEMINI_EVENTS,
  shellCall: (_tools, command) => ({ name: 'run_shell_command', input: { command } }),
  writeHooks(home, entries) {
    const file = join(home, '.gemini', 'settings.json');
    writeJson(file, {
      security: { auth: { selectedType: 'gemini-api-key' } },
      general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      hooks: claudeShapedHooks(entries, {
        events: GEMINI_EVENTS,
        matchers: { shell: 'run_shell_command', other: 'write_file|replace' },
        timeout: (seconds) => seconds * 1000,
      }),
    });
    return file;
  },
  command: ({ bin, home, url, prompt }) => ({
    argv: [bin, '-p', prompt, '--yolo', '-o', 'json', '-m', 'gemini-2.5-flash'],
    env: {
      HOME: home,
      GOOGLE_GEMINI_BASE_URL: url,
      GEMINI_API_KEY: DUMMY_KEY,
      GEMINI_CLI_TRUST_WORKSPACE: 'true',
      GEMINI_CLI_NO_RELAUNCH: 'true',
    },
  }),
};

const COPILOT_EVENTS = {
  PreToolUse: 'preToolUse',
  PostToolUse: 'postToolUse',
  UserPromptSubmit: 'userPromptSubmitted',
  SessionStart: 'sessionStart',
  Stop: 'agentStop',
};

/** @type {Agent} */
const copilot = {
  name: 'copilot',
  title: 'Copilot CLI',
  packageName: '@github/copilot',
  version: '1.0.102',
  bin: 'copilot',
  events: COPILOT_EVENTS,
  shellCall: (_tools, command) => ({ name: 'bash', input: { command, description: 'Run it' } }),
  writeHooks(home, entries) {
    const file = join(home, '.copilot', 'hooks', 'conformance.json');
    /** @type {Record<string, unknown[]>} */
    const hooks = {};
    for (const entry of entries) {
      const name = COPILOT_EVENTS[entry.event];
      const hook = { type: 'command', bash: entry.command };
      if (entry.timeoutSec !== undefined) hook.timeoutSec = entry.timeoutSec;
      if (entry.matcher !== undefined)
        hook.matcher = entry.matcher === 'shell' ? 'bash' : 'edit|create';
      hooks[name] ??= [];
      hooks[name].push(hook);
    }
    writeJson(file, { version: 1, hooks });
    return file;
  },
  command: ({ bin, home, url, prompt }) => ({
    argv: [
      bin,
      '-p',
      prompt,
      '--allow-all-tools',
      '--trust-folder',
      '--output-format',
      'json',
      '--no-auto-update',
      '--disable-client-telemetry',
    ],
    env: {
      HOME: home,
      COPILOT_OFFLINE: 'true',
      COPILOT_PROVIDER_BASE_URL: `${url}/v1`,
      COPILOT_PROVIDER_API_KEY: DUMMY_KEY,
      COPILOT_MODEL: 'gpt-4.1',
    },
  }),
};

/** The agents in the order the suite runs them (most users first). */
export const AGENTS = [claude, gemini, codex, copilot];
