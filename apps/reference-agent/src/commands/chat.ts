import { createInterface, type Interface } from 'node:readline';
import type { EventRecord } from '@soong-agent/protocol';
import {
  type AgentSession,
  loadSessionSetup,
  notifyingAsk,
  startSession,
} from '../agent/session.js';
import type { CommonOptions } from '../common-options.js';
import { CliError, EXIT_CODES } from '../errors.js';
import { createPermissionCallback } from '../permissions.js';
import { createTimeline, hookProtocols, printableLines } from '../ui/timeline.js';

/** Options of `soong-agent chat`. */
export interface ChatCommandOptions extends CommonOptions {
  /** `--model`: as for `run`. @default `[model]` of config.toml */
  model?: string;
  /** `--base-url`: the model API's address, over `base_url` of `[model]` and `OPENAI_BASE_URL` / `ANTHROPIC_BASE_URL`. @default undefined */
  baseUrl?: string;
  /** `--yes`: permission `ask` becomes `allow` (never `deny`). @default false */
  yes?: boolean;
  /** `--max-turns`: model calls per prompt before its loop ends with `max_turns`. @default 20 */
  maxTurns?: number;
  /** commander's `--no-hooks`: false when given. @default true */
  hooks?: boolean;
}

/** The prompt shown for each line. */
export const CHAT_PROMPT = 'you› ';
const EXIT_HINT = '(Ctrl-C again, Ctrl-D or /exit ends the session)';

/**
 * `soong-agent chat`: an interactive session on a terminal (SPEC §9). One session (one event log,
 * one hook engine, one conversation): SessionStart once, then each line is a UserPromptSubmit and
 * one agent loop. While a loop runs the terminal is in cooked mode, so Ctrl-C is a SIGINT that
 * aborts the loop (model call, hook or tool: `aborted`) and returns to the prompt; `ask`
 * permissions are asked at the same readline. At the prompt, Ctrl-C clears the line, a second
 * Ctrl-C at an empty prompt ends the session, as do Ctrl-D and `/exit`. Line editing and history
 * are Node's `readline` (emacs keys, ↑/↓ history of this session).
 */
export async function chatAction(options: ChatCommandOptions): Promise<number> {
  if (process.stdin.isTTY !== true || process.stderr.isTTY !== true) {
    throw new CliError({
      code: 'USAGE',
      message:
        'chat needs a terminal (stdin and stderr); for a single prompt from a script or pipe use: soong-agent run PROMPT',
    });
  }
  const { config, provider } = loadSessionSetup(options, 'chat');
  const stdin = process.stdin;
  const timeline = createTimeline({ stream: process.stderr, protocols: hookProtocols(config) });
  let streamed = false;
  const readline: Interface = createInterface({
    input: stdin,
    output: process.stderr,
    terminal: true,
    prompt: CHAT_PROMPT,
    historySize: 200,
  });

  /** The loop running now, if any. */
  let running: AbortController | undefined;
  let asking = false;
  let ctrlCAtEmptyPrompt = false;
  let ending: ((code: number) => void) | undefined;
  const ended = new Promise<number>((resolve) => {
    ending = resolve;
  });
  let exitCode: number | undefined;
  const end = (code: number) => {
    exitCode ??= code;
    ending?.(exitCode);
  };

  // Cooked mode while a loop runs: Ctrl-C is a real SIGINT (also with the readline paused).
  const cooked = (on: boolean) => {
    if (on) {
      readline.pause();
      stdin.setRawMode(false);
    } else {
      stdin.setRawMode(true);
      readline.resume();
    }
  };
  const onSignal = (name: NodeJS.Signals) => {
    if (running !== undefined) {
      running.abort(new Error(`received ${name}`));
      if (name === 'SIGTERM') end(143);
      return;
    }
    end(name === 'SIGTERM' ? 143 : EXIT_CODES.ok);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  // Raw mode: Ctrl-C reaches readline, not the process.
  readline.on('SIGINT', () => {
    if (running !== undefined) {
      // Ctrl-C at a permission question cancels the loop, as it does while a tool runs.
      running.abort(new Error('received SIGINT'));
      return;
    }
    if (readline.line !== '') {
      readline.write(null, { ctrl: true, name: 'e' });
      readline.write(null, { ctrl: true, name: 'u' });
      ctrlCAtEmptyPrompt = false;
      return;
    }
    if (ctrlCAtEmptyPrompt) {
      process.stderr.write('\n');
      end(EXIT_CODES.ok);
      return;
    }
    ctrlCAtEmptyPrompt = true;
    process.stderr.write(`\n${EXIT_HINT}\n`);
    readline.prompt();
  });
  readline.on('close', () => {
    if (!asking) end(EXIT_CODES.ok);
  });

  const lines: string[] = [];
  let waiting: ((line: string | undefined) => void) | undefined;
  readline.on('line', (line) => {
    if (waiting === undefined) lines.push(line);
    else {
      const resolve = waiting;
      waiting = undefined;
      resolve(line);
    }
  });
  const nextLine = () =>
    new Promise<string | undefined>((resolve) => {
      const queued = lines.shift();
      if (queued !== undefined) {
        resolve(queued);
        return;
      }
      waiting = resolve;
      readline.prompt();
      void ended.then(() => resolve(undefined));
    });

  const ask = async (question: string): Promise<boolean> => {
    const signal = running?.signal;
    return timeline.suspend(async () => {
      asking = true;
      cooked(false);
      try {
        const answer = await new Promise<string>((resolve, reject) => {
          if (signal?.aborted) {
            reject(signal.reason);
            return;
          }
          // The signal cancels the pending question in readline too.
          const onAbort = () => {
            process.stderr.write('\n');
            reject(signal?.reason);
          };
          signal?.addEventListener('abort', onAbort, { once: true });
          readline.question(
            `${question} [y/N] `,
            signal === undefined ? {} : { signal },
            (text) => {
              signal?.removeEventListener('abort', onAbort);
              resolve(text);
            },
          );
        });
        return /^y(es)?$/i.test(answer.trim());
      } finally {
        asking = false;
        cooked(true);
      }
    });
  };
  // A permission question is a wait for the user: Notification hooks run first (SPEC §2.3).
  const notifier = notifyingAsk(ask);
  const permission = createPermissionCallback({
    permissions: config.settings.permissions,
    projectDir: config.projectDir,
    yes: options.yes === true,
    ask: notifier.ask,
  });
  let endReason: 'completed' | 'aborted' | 'error' = 'completed';

  let session: AgentSession | undefined;
  try {
    running = new AbortController();
    cooked(true);
    session = await startSession({
      config,
      provider,
      permission,
      onRecord: (record: EventRecord) => timeline.onRecord(record),
      onText: (text) => {
        streamed = true;
        timeline.text(text);
      },
      signal: running.signal,
      onOpen: notifier.bind,
      noHooks: options.hooks === false,
      ...(options.maxTurns === undefined ? {} : { maxTurns: options.maxTurns }),
    });
    running = undefined;
    cooked(false);
    process.stderr.write(
      `chat with ${provider.id} · one line is one prompt · Ctrl-C cancels what runs · /exit or Ctrl-D ends\n`,
    );
    for (;;) {
      if (exitCode !== undefined) break;
      const line = await nextLine();
      if (line === undefined || exitCode !== undefined) break;
      const prompt = line.trim();
      ctrlCAtEmptyPrompt = false;
      if (prompt === '') continue;
      if (prompt === '/exit' || prompt === '/quit') break;
      running = new AbortController();
      streamed = false;
      cooked(true);
      let result: Awaited<ReturnType<AgentSession['prompt']>>;
      endReason = 'error';
      try {
        result = await session.prompt(prompt, { signal: running.signal });
        endReason = 'completed';
      } finally {
        running = undefined;
        timeline.close();
        if (exitCode === undefined) cooked(false);
      }
      if (result.reason === 'completed') {
        if (!streamed) process.stdout.write(`${printableLines(result.finalText)}\n`);
      } else if (result.reason === 'aborted') {
        process.stderr.write('cancelled; back at the prompt\n');
      } else if (result.reason === 'max_turns') {
        process.stderr.write(
          `soong-agent: stopped after ${result.turns} model turns (--max-turns)\n`,
        );
      } else {
        const error = result.error;
        process.stderr.write(
          `soong-agent: ${error instanceof Error ? error.message : String(error)}\n`,
        );
      }
    }
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    timeline.close();
    readline.removeAllListeners('close');
    readline.close();
    if (stdin.isTTY) stdin.setRawMode(false);
    stdin.pause();
    // SessionEnd: a signal that ended the chat is an abort; a prompt that threw, an error.
    await session?.close(exitCode === 143 ? 'aborted' : endReason);
  }
  return exitCode ?? EXIT_CODES.ok;
}
