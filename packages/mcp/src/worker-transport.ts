import { deserializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { startWorker, type Worker, type WorkerExit, type WorkerOptions } from '@soong-agent/runner';

/** The largest message the upstream may send (the SDK's own stdio buffer limit). */
export const MCP_MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

/** Options of {@link WorkerTransport}: the runner's worker options minus the line callbacks. */
export type WorkerTransportOptions = Omit<
  WorkerOptions,
  'onStdoutLine' | 'onStderrLine' | 'onStdoutOverflow' | 'maxLineBytes'
> & {
  /** Each stderr line of the server (its log). @default undefined */
  onStderrLine?: (line: string) => void;
};

/**
 * An MCP client transport over a stdio MCP server started by the runner's `startWorker`: its own
 * process group, the allowlisted environment, killed with the agent (even on SIGKILL, through the
 * runner's watchdog). MCP's stdio framing is one JSON-RPC message per line, which is the worker's.
 * `onclose` fires once, when the server has exited (`exit` tells how) or after `close()`.
 */
export class WorkerTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** How the server ended, once it has. */
  exit: WorkerExit | undefined;
  private worker: Worker | undefined;
  private closing = false;

  constructor(private readonly options: WorkerTransportOptions) {}

  /** The pid of the server's process group leader, once started. */
  get pid(): number | undefined {
    return this.worker?.pid;
  }

  async start(): Promise<void> {
    if (this.worker !== undefined) throw new Error('WorkerTransport already started');
    const { onStderrLine, ...workerOptions } = this.options;
    this.worker = await startWorker({
      ...workerOptions,
      maxLineBytes: MCP_MAX_MESSAGE_BYTES,
      onStdoutLine: (line) => {
        if (line.trim() === '') return;
        let message: JSONRPCMessage;
        try {
          message = deserializeMessage(line);
        } catch (error) {
          this.onerror?.(
            new Error(
              `the MCP server wrote a line that is not a JSON-RPC message: ${describe(error)}`,
            ),
          );
          return;
        }
        this.onmessage?.(message);
      },
      onStderrLine: (line) => onStderrLine?.(line),
      onStdoutOverflow: (bytes) => {
        this.onerror?.(
          new Error(
            `the MCP server wrote a message larger than ${MCP_MAX_MESSAGE_BYTES} bytes (${bytes} so far); stopping it`,
          ),
        );
        void this.worker?.kill();
      },
    });
    void this.worker.exited.then((exit) => {
      this.exit = exit;
      this.onclose?.();
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.worker === undefined || !this.worker.writeLine(JSON.stringify(message))) {
      throw new Error('the MCP server is not running');
    }
  }

  /** Ends the server: EOF on its stdin, then SIGTERM and SIGKILL to its group (the runner's rules). */
  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    await this.worker?.stop();
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
