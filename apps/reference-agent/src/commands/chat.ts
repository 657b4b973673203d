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
 * `soong-agent chat`: an interactive session on a terminal (spec §9). One session (one event log,
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
  const terminal = new ChatTerminal(
    createTimeline({ stream: process.stderr, protocols: hookProtocols(config) }),
  );
  // A permission question is a wait for the user: Notification hooks run first (spec §2.3).
  const notifier = notifyingAsk((question) => terminal.ask(question));
  const permission = createPermissionCallback({
    permissions: config.settings.permissions,
    projectDir: config.projectDir,
    yes: options.yes === true,
    ask: notifier.ask,
  });
  let endReason: 'completed' | 'aborted' | 'error' = 'completed';

  let session: AgentSession | undefined;
  try {
    session = await terminal.starting((signal) =>
      startSession({
        config,
        provider,
        permission,
        onRecord: (record: EventRecord) => terminal.timeline.onRecord(record),
        onText: (text) => terminal.text(text),
        signal,
        onOpen: notifier.bind,
        noHooks: options.hooks === false,
        ...(options.maxTurns === undefined ? {} : { maxTurns: options.maxTurns }),
      }),
    );
    process.stderr.write(
      `chat with ${provider.id} · one line is one prompt · Ctrl-C cancels what runs · /exit or Ctrl-D ends\n`,
    );
    for (;;) {
      const prompt = await terminal.nextPrompt();
      if (prompt === undefined) break;
      endReason = 'error';
      const current = session;
      const result = await terminal.prompting((signal) => current.prompt(prompt, { signal }));
      endReason = 'completed';
      terminal.report(result);
    }
  } finally {
    terminal.close();
    // SessionEnd: a signal that ended the chat is an abort; a prompt that threw, an error.
    await session?.close(terminal.exitCode === 143 ? 'aborted' : endReason);
  }
  return terminal.exitCode ?? EXIT_CODES.ok;
}

type PromptResult = Awaited<ReturnType<AgentSession['prompt']>>;

// The terminal of one chat: the readline, the loop running now (Ctrl-C and signals abort it), the
// lines typed ahead, and how the chat ends.
class ChatTerminal {
  readonly timeline: ReturnType<typeof createTimeline>;
  /** The code the chat ends with, once something ended it. */
  exitCode: number | undefined;
  private readonly stdin = process.stdin;
  private readonly readline: Interface;
  /** The loop running now, if any. */
  private running: AbortController | undefined;
  private asking = false;
  private ctrlCAtEmptyPrompt = false;
  private streamed = false;
  private ending: ((code: number) => void) | undefined;
  private readonly ended: Promise<number>;
  private readonly lines: string[] = [];
  private waiting: ((line: string | undefined) => void) | undefined;

  constructor(timeline: ReturnType<typeof createTimeline>) {
    this.timeline = timeline;
    this.readline = createInterface({
      input: this.stdin,
      output: process.stderr,
      terminal: true,
      prompt: CHAT_PROMPT,
      historySize: 200,
    });
    this.ended = new Promise<number>((resolve) => {
      this.ending = resolve;
    });
    process.on('SIGINT', this.onSignal);
    process.on('SIGTERM', this.onSignal);
    // Raw mode: Ctrl-C reaches readline, not the process.
    this.readline.on('SIGINT', () => this.onCtrlC());
    this.readline.on('close', () => {
      if (!this.asking) this.end(EXIT_CODES.ok);
    });
    this.readline.on('line', (line) => {
      if (this.waiting === undefined) this.lines.push(line);
      else {
        const resolve = this.waiting;
        this.waiting = undefined;
        resolve(line);
      }
    });
  }

  /** Streamed model text: the answer needs no printing at the end. */
  text(text: string): void {
    this.streamed = true;
    this.timeline.text(text);
  }

  /** Starts the session as a run Ctrl-C and signals abort (SessionStart hooks may ask). */
  async starting<T>(start: (signal: AbortSignal) => Promise<T>): Promise<T> {
    this.running = new AbortController();
    this.cooked(true);
    const started = await start(this.running.signal);
    this.running = undefined;
    this.cooked(false);
    return started;
  }

  /** One prompt's loop, in cooked mode, as the run Ctrl-C and signals abort. */
  async prompting(run: (signal: AbortSignal) => Promise<PromptResult>): Promise<PromptResult> {
    this.running = new AbortController();
    this.streamed = false;
    this.cooked(true);
    try {
      return await run(this.running.signal);
    } finally {
      this.running = undefined;
      this.timeline.close();
      if (this.exitCode === undefined) this.cooked(false);
    }
  }

  /** The next prompt typed, blank lines skipped; `undefined` when the chat ends. */
  async nextPrompt(): Promise<string | undefined> {
    for (;;) {
      if (this.exitCode !== undefined) return undefined;
      const line = await this.nextLine();
      if (line === undefined || this.exitCode !== undefined) return undefined;
      const prompt = line.trim();
      this.ctrlCAtEmptyPrompt = false;
      if (prompt === '') continue;
      if (prompt === '/exit' || prompt === '/quit') return undefined;
      return prompt;
    }
  }

  /** How a prompt's loop ended, for the user. */
  report(result: PromptResult): void {
    if (result.reason === 'completed') {
      if (!this.streamed) process.stdout.write(`${printableLines(result.finalText)}\n`);
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

  /** A permission question at the readline; Ctrl-C (the run's signal) cancels it. */
  async ask(question: string): Promise<boolean> {
    const signal = this.running?.signal;
    return this.timeline.suspend(async () => {
      this.asking = true;
      this.cooked(false);
      try {
        const answer = await this.question(question, signal);
        return /^y(es)?$/i.test(answer.trim());
      } finally {
        this.asking = false;
        this.cooked(true);
      }
    });
  }

  /** Gives the terminal back: signal handlers off, readline closed, stdin out of raw mode. */
  close(): void {
    process.off('SIGINT', this.onSignal);
    process.off('SIGTERM', this.onSignal);
    this.timeline.close();
    this.readline.removeAllListeners('close');
    this.readline.close();
    if (this.stdin.isTTY) this.stdin.setRawMode(false);
    this.stdin.pause();
  }

  private end(code: number): void {
    this.exitCode ??= code;
    this.ending?.(this.exitCode);
  }

  // Cooked mode while a loop runs: Ctrl-C is a real SIGINT (also with the readline paused).
  private cooked(on: boolean): void {
    if (on) {
      this.readline.pause();
      this.stdin.setRawMode(false);
    } else {
      this.stdin.setRawMode(true);
      this.readline.resume();
    }
  }

  private readonly onSignal = (name: NodeJS.Signals): void => {
    if (this.running !== undefined) {
      this.running.abort(new Error(`received ${name}`));
      if (name === 'SIGTERM') this.end(143);
      return;
    }
    this.end(name === 'SIGTERM' ? 143 : EXIT_CODES.ok);
  };

  private onCtrlC(): void {
    if (this.running !== undefined) {
      // Ctrl-C at a permission question cancels the loop, as it does while a tool runs.
      this.running.abort(new Error('received SIGINT'));
      return;
    }
    if (this.readline.line !== '') {
      this.readline.write(null, { ctrl: true, name: 'e' });
      this.readline.write(null, { ctrl: true, name: 'u' });
      this.ctrlCAtEmptyPrompt = false;
      return;
    }
    if (this.ctrlCAtEmptyPrompt) {
      process.stderr.write('\n');
      this.end(EXIT_CODES.ok);
      return;
    }
    this.ctrlCAtEmptyPrompt = true;
    process.stderr.write(`\n${EXIT_HINT}\n`);
    this.readline.prompt();
  }

  private nextLine(): Promise<string | undefined> {
    return new Promise<string | undefined>((resolve) => {
      const queued = this.lines.shift();
      if (queued !== undefined) {
        resolve(queued);
        return;
      }
      this.waiting = resolve;
      this.readline.prompt();
      void this.ended.then(() => resolve(undefined));
    });
  }

  private question(question: string, signal: AbortSignal | undefined): Promise<string> {
    return new Promise<string>((resolve, reject) => {
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
      this.readline.question(
        `${question} [y/N] `,
        signal === undefined ? {} : { signal },
        (text) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(text);
        },
      );
    });
  }
}
