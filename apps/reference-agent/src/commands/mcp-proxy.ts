import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { type HookSessionHandle, openHookSession } from '@soong-agent/loop-adapter';
import { createMcpHookProxy, WorkerTransport } from '@soong-agent/mcp';
import { RunnerError } from '@soong-agent/runner';
import { loadConfigOrExit, resolveLocations } from '../agent/locations.js';
import type { CommonOptions } from '../common-options.js';
import { CliError, EXIT_CODES, type ExitCode } from '../errors.js';

/** Options of `soong-agent mcp-proxy`. */
export interface McpProxyCommandOptions extends CommonOptions {
  /** `--name NAME`: the server's name in `mcp__<NAME>__<tool>`. @default the upstream's own name */
  name?: string;
}

const PLAIN_NAME = /^[A-Za-z0-9_.:-]+$/;

/**
 * `soong-agent mcp-proxy [--home H] [--project P] [--name NAME] -- COMMAND [ARGS…]` (spec §10): a
 * stdio MCP server in front of COMMAND, an upstream stdio MCP server started through the runner,
 * on `createMcpHookProxy` of `@soong-agent/mcp`. The config is loaded first: a broken one is exit 2,
 * nothing starts, and the client's first request is answered with the error text. Exit 0 when the
 * client disconnects, 1 when the upstream ends first or the client stops reading.
 */
export async function mcpProxyAction(
  command: string[],
  options: McpProxyCommandOptions,
): Promise<ExitCode> {
  const downstream = new StdioServerTransport();
  // A client that disconnects mid-answer makes stdout EPIPE: the session ends through stdin's end.
  process.stdout.on('error', () => {});
  // The SDK's stdio transport adds one 'drain' listener per answer waiting for a slow client; the
  // proxy bounds that backlog (MCP_CLIENT_BACKLOG_MAX_BYTES), so the count is not a leak.
  process.stdout.setMaxListeners(0);
  let upstream: WorkerTransport;
  let session: HookSessionHandle | undefined;
  let proxy: Awaited<ReturnType<typeof createMcpHookProxy>>;
  try {
    if (options.name !== undefined && !PLAIN_NAME.test(options.name)) {
      throw new CliError({
        code: 'USAGE',
        message: `--name ${JSON.stringify(options.name)} is not a plain name: use letters, digits, _ . : -`,
      });
    }
    const locations = resolveLocations(options);
    const config = loadConfigOrExit(locations);
    upstream = new WorkerTransport({
      command,
      cwd: config.projectDir,
      allowedRoots: [config.projectDir],
      envAllowlist: config.envAllowlist,
      killGraceMs: config.settings.runner.kill_grace_ms,
      onStderrLine: (line) => process.stderr.write(`${line}\n`),
    });
    // One snapshot for both: the upstream's environment and the session's hooks.
    session = await openHookSession({ projectDir: config.projectDir, config });
    proxy = await createMcpHookProxy({
      upstream,
      downstream,
      name: options.name,
      session,
      onWarning: (message) => process.stderr.write(`soong-agent mcp-proxy: ${message}\n`),
    }).catch((error: unknown) => {
      if (RunnerError.isInstance(error)) {
        throw new CliError({
          code: 'RUNTIME',
          message: `cannot start the MCP server ${JSON.stringify(command.join(' '))}: ${error.message}`,
          cause: error,
        });
      }
      throw error;
    });
  } catch (error) {
    await session?.close('error');
    // The client sees why, not only a closed pipe: its first request gets the error text.
    if (CliError.isInstance(error)) await refuseClient(downstream, error.message);
    throw error;
  }
  const clientGone = () => void downstream.close();
  process.stdin.once('end', clientGone);
  process.stdin.once('close', clientGone);
  try {
    // Rejects when the server ended on its own: said below, from the transport's exit.
    await proxy.closed.catch(() => undefined);
    await session.close(proxy.endReason === 'upstream_closed' ? 'error' : 'completed');
    if (proxy.endReason === 'upstream_closed') {
      const exit = upstream.exit;
      const how =
        exit?.signal != null
          ? `was killed by ${exit.signal}`
          : `exited with code ${exit?.exitCode}`;
      process.stderr.write(
        `soong-agent mcp-proxy: the MCP server ${JSON.stringify(command.join(' '))} ${how}; the proxy ends (session ${proxy.sessionId})\n`,
      );
      return EXIT_CODES.runtime;
    }
    if (proxy.endReason === 'client_stalled') {
      // The unread answers keep stdout's pipe busy forever (process.stdout cannot be closed): the
      // session is closed and logged, so the process leaves without them.
      await new Promise((resolve) => process.stderr.write('', resolve));
      process.exit(EXIT_CODES.runtime);
    }
    return EXIT_CODES.ok;
  } finally {
    process.stdin.off('end', clientGone);
    process.stdin.off('close', clientGone);
    process.stdin.pause();
  }
}

// Answers the client's first request with `message` as a JSON-RPC error; resolves then, or when
// the client has gone without asking.
async function refuseClient(downstream: StdioServerTransport, message: string): Promise<void> {
  await new Promise<void>((resolve) => {
    const done = () => {
      process.stdin.off('end', done);
      process.stdin.off('close', done);
      void downstream.close().finally(resolve);
    };
    downstream.onmessage = (request: JSONRPCMessage) => {
      const id = (request as { id?: string | number }).id;
      if (!('method' in request) || id === undefined) return;
      void downstream
        .send({
          jsonrpc: '2.0',
          id,
          error: { code: -32603, message: `soong-agent mcp-proxy cannot start: ${message}` },
        })
        .finally(done);
    };
    downstream.onerror = () => {};
    process.stdin.once('end', done);
    process.stdin.once('close', done);
    void downstream.start().then(() => process.stdin.resume());
  });
}
