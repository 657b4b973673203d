import fs from 'node:fs';
import path from 'node:path';
import { type EventRecord, EventRecordSchema } from '@soong-agent/protocol';
import { afterEach } from 'vitest';
import { makeWorkspace, runCli } from './cli.js';
import { startModelServer, type Vendor } from './model-server.js';

/** The API key the provider tests use; it must never show up anywhere but the request header. */
export const TEST_KEY = 'sk-test-0123456789abcdef-SECRET';

/** `base_url` for a fake server at `url`: `openai`'s ends before `/chat/completions`. */
export function baseUrlFor(vendor: Vendor, url: string): string {
  return vendor.name === 'openai' ? `${url}/v1` : url;
}

/** The env variable holding the vendor's key by default. */
export function keyEnvFor(vendor: Vendor): string {
  return vendor.name === 'openai' ? 'OPENAI_API_KEY' : 'ANTHROPIC_API_KEY';
}

/** Every file under `dir`, read as text. */
export function allText(dir: string): string {
  let text = '';
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) text += fs.readFileSync(path.join(entry.parentPath, entry.name), 'utf8');
  }
  return text;
}

/**
 * A workspace whose `[model]` points at the fake server at `url` (key in the env), with
 * permissions that allow everything and `config` lines appended to config.toml.
 */
export function modelWorkspace(
  vendor: Vendor,
  url: string,
  options: {
    config?: string[];
    home?: Record<string, string>;
    project?: Record<string, string>;
  } = {},
) {
  const workspace = makeWorkspace({
    home: {
      'config.toml': [
        '[permissions]',
        'write = "allow"',
        'dangerous = "allow"',
        '[model]',
        `provider = "${vendor.name}"`,
        'model = "test-model"',
        `base_url = "${baseUrlFor(vendor, url)}"`,
        'max_tokens = 1000',
        ...(options.config ?? []),
      ].join('\n'),
      ...options.home,
    },
    project: options.project ?? {},
  });
  return { ...workspace, env: { ...workspace.env, [keyEnvFor(vendor)]: TEST_KEY } };
}

/** The records of the one session's event log under `home` (an empty list when there is none). */
export function eventLogRecords(home: string): EventRecord[] {
  const sessions = path.join(home, 'sessions');
  if (!fs.existsSync(sessions)) return [];
  const [session] = fs.readdirSync(sessions);
  if (session === undefined) return [];
  return fs
    .readFileSync(path.join(sessions, session, 'events.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => EventRecordSchema.parse(JSON.parse(line)));
}

/**
 * `soong-agent run PROMPT --json` (`json: false`: with the timeline) in the workspace; `log` is the
 * session's event log as written.
 */
export async function runPrompt(
  workspace: ReturnType<typeof modelWorkspace>,
  options: { prompt?: string; args?: string[]; env?: Record<string, string>; json?: boolean } = {},
) {
  const result = await runCli(
    [
      'run',
      options.prompt ?? 'fix it',
      ...(options.json === false ? [] : ['--json']),
      '--home',
      workspace.home,
      '--project',
      workspace.project,
      ...(options.args ?? []),
    ],
    { env: { ...workspace.env, ...options.env } },
  );
  return { ...result, log: eventLogRecords(workspace.home) };
}

/** A `startModelServer` for the tests of this file; every server it started closes after each test. */
export function modelServersClosedAfterEach() {
  const servers: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.close();
  });
  return async (replies: Parameters<typeof startModelServer>[0]) => {
    const server = await startModelServer(replies);
    servers.push(server);
    return server;
  };
}
