import path from 'node:path';
import { createInterface } from 'node:readline/promises';
import type { Settings } from '@soong-agent/config';
import type { PermissionCallback } from '@soong-agent/loop-adapter';

/** `[permissions]` of config.toml: `allow` | `ask` | `deny` per risk class. */
export type PermissionSettings = Settings['permissions'];

/** Asks the user a yes/no question; resolves true for yes. */
export type AskUser = (question: string) => Promise<boolean>;

/**
 * Asks on the terminal when both stdin and stderr are TTYs (node:readline; answer `y` or `yes`;
 * `signal` cancels a pending question);
 * undefined otherwise — then `ask` means deny. `/dev/tty` is not opened behind a redirected
 * stdin, so a piped or CI run can never block on a prompt.
 */
export function createTerminalAsk(options: { signal?: AbortSignal } = {}): AskUser | undefined {
  if (process.stdin.isTTY !== true || process.stderr.isTTY !== true) return undefined;
  return async (question) => {
    const readline = createInterface({ input: process.stdin, output: process.stderr });
    // In raw mode Ctrl+C reaches readline, not the process: forward it so the run aborts as usual.
    readline.on('SIGINT', () => process.kill(process.pid, 'SIGINT'));
    try {
      const answer = await readline.question(
        `${question} [y/N] `,
        options.signal === undefined ? {} : { signal: options.signal },
      );
      return /^y(es)?$/i.test(answer.trim());
    } finally {
      readline.close();
    }
  };
}

function describeCall(request: Parameters<PermissionCallback>[0], projectDir: string): string {
  const [first] = request.paths;
  if (first !== undefined) {
    const relative = path.relative(projectDir, first);
    return `${request.call.name} ${relative === '' ? '.' : relative.startsWith('..') ? first : relative}`;
  }
  const input = request.call.input as Record<string, unknown> | undefined;
  const command =
    typeof input?.command === 'string' ? input.command : JSON.stringify(request.call.input ?? {});
  return `${request.call.name} ${command.length > 80 ? `${command.slice(0, 79)}…` : command}`;
}

/**
 * The permission callback of the reference agent (spec §2.3: hooks never bypass it): per risk class,
 * `allow` allows, `deny` denies, `ask` asks the user when a terminal is there; without one, `ask`
 * denies with a reason that says so — unless `yes` is set (`--yes`), which turns `ask` (never `deny`)
 * into `allow`.
 */
export function createPermissionCallback(options: {
  permissions: PermissionSettings;
  projectDir: string;
  /** `--yes`: treat `ask` as `allow`. @default false */
  yes?: boolean;
  /** How to ask; undefined = no terminal to ask on. @default undefined */
  ask?: AskUser;
}): PermissionCallback {
  return async (request) => {
    const { hookAsk } = request;
    const configured = options.permissions[request.risk];
    // A Claude Code hook's "ask" turns an allowed class into a question, never a deny into one.
    const policy = hookAsk !== undefined && configured === 'allow' ? 'ask' : configured;
    if (policy === 'allow') return { allow: true };
    if (policy === 'deny') {
      return { allow: false, reason: `permissions.${request.risk} = "deny" in config.toml` };
    }
    if (options.yes === true) return { allow: true };
    const asked = hookAsk === undefined ? '' : ` (hook ${hookAsk.hookId} asked: ${hookAsk.reason})`;
    if (options.ask === undefined) {
      return {
        allow: false,
        reason:
          hookAsk === undefined
            ? `permission 'ask' for ${request.risk} tools and no TTY to ask on; pass --yes to allow`
            : `hook ${hookAsk.hookId} asked: ${hookAsk.reason}; no TTY to ask on; pass --yes to allow`,
      };
    }
    const allowed = await options.ask(
      `Allow ${describeCall(request, options.projectDir)}?${asked}`,
    );
    return allowed ? { allow: true } : { allow: false, reason: 'denied by the user at the prompt' };
  };
}
