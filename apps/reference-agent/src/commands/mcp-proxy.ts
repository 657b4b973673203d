import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { RunnerError } from '@soong-agent/runner';
import { loadConfigOrExit, resolveLocations } from '../agent/session.js';
import { CliError, EXIT_CODES, type ExitCode } from '../errors.js';
import { runMcpProxy } from '../mcp/proxy.js';
import { WorkerTransport } from '../mcp/worker-transport.js';
import type { CommonOptions } from '../program.js';

/** Options of `soong-agent mcp-proxy`. */
export interface McpProxyCommandOptions extends CommonOptions {
  /** `--name NAME`: the server's name in `mcp__<NAME>__<tool>`. @default the upstream's own name */
  name?: string;
}

const PLAIN_NAME = /^[A-Za-z0-9_.:-]+$/;

/**
 * `soong-agent mcp-proxy [--home H] [--project P] [--name NAME] -- COMMAND [ARGS…]` (SPEC §10): a
 * stdio MCP server in front of COMMAND, an upstream stdio MCP server started through the runner.
 * The config is loaded first: a broken one is exit 2 and nothing starts. Exit 0 when the client
 * disconnects, 1 when the upstream ends first.
 */
export async function mcpProxyAction(
  command: string[],
  options: McpProxyCommandOptions,
): Promise<ExitCode> {
  if (options.name !== undefined && !PLAIN_NAME.test(options.name)) {
    throw new CliError({
      code: 'USAGE',
      message: `--name ${JSON.stringify(options.name)} is not a plain name: use letters, digits, _ . : -`,
    });
  }
  const locations = resolveLocations(options);
  const config = loadConfigOrExit(locations);
  const upstream = new WorkerTransport({
    command,
    cwd: config.projectDir,
    allowedRoots: [config.projectDir],
    envAllowlist: config.envAllowlist,
    killGraceMs: config.settings.runner.kill_grace_ms,
    onStderrLine: (line) => process.stderr.write(`${line}\n`),
  });
  try {
    await upstream.start();
  } catch (error) {
    if (RunnerError.isInstance(error)) {
      throw new CliError({
        code: 'RUNTIME',
        message: `cannot start the MCP server ${JSON.stringify(command.join(' '))}: ${error.message}`,
        cause: error,
      });
    }
    throw error;
  }
  // A client that disconnects mid-answer makes stdout EPIPE: the session ends through stdin's end.
  process.stdout.on('error', () => {});
  const clientClosed = new Promise<void>((resolve) => {
    process.stdin.once('end', resolve);
    process.stdin.once('close', resolve);
  });
  try {
    const outcome = await runMcpProxy({
      config,
      name: options.name,
      downstream: new StdioServerTransport(),
      upstream,
      clientClosed,
      warn: (message) => process.stderr.write(`soong-agent mcp-proxy: ${message}\n`),
    });
    if (outcome.reason === 'upstream_exited') {
      const exit = upstream.exit;
      const how =
        exit?.signal != null
          ? `was killed by ${exit.signal}`
          : `exited with code ${exit?.exitCode}`;
      process.stderr.write(
        `soong-agent mcp-proxy: the MCP server ${JSON.stringify(command.join(' '))} ${how}; the proxy ends (session ${outcome.sessionId})\n`,
      );
      return EXIT_CODES.runtime;
    }
    return EXIT_CODES.ok;
  } finally {
    await upstream.close();
    process.stdin.pause();
  }
}
