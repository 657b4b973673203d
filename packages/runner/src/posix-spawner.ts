import type { ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import type { Socket } from 'node:net';
import os from 'node:os';
import { PassThrough, type Readable, type Writable } from 'node:stream';
import { childProcessModule } from './lazy-builtins.js';
import { onProcessExit } from './live-runs.js';
import { POSIX_SPAWNER_SCRIPT } from './posix-spawner-script.js';
import { RunnerError, switchValue } from './runner-error.js';

// The posix spawner: a small Python process that starts this process's children with vfork
// (subprocess.Popen), on Linux when a system python3 (3.8 or later) is installed. Node's spawn
// forks: it copies this process's page tables, the child's exec tears the copy down, and this
// process then takes a fault on every page it writes. On a VM that traps page table writes (this
// project's CI machines) a spawn from Node holds the caller's thread 4–6 ms; through the spawner
// it costs about 2 ms, off the caller's thread (JDK's jspawnhelper exists for the same reason).
// Where it cannot run (no python3, not Linux, a /proc it may not read) children are spawned by
// Node, as before, with the same results: the spawner is a faster path, never a different one.
//
// What the children see is what Node's spawn gives them: a new session and process group, the
// exact environment, descriptors 0–2 as asked and no other, sockets for pipes, every signal at its
// default. Their parent is the spawner, not this process (so `$PPID`); it relays their output to
// this process over its own socket (no pipe of a run is ever open to another process by a /proc
// name), and reads their exit, real-time signals included: a child killed by one exits 128+N
// here, where Node reports it as exit 0.

/** The child of a spawn, as much of Node's ChildProcess as the process-group core uses. */
export interface SpawnedChild extends EventEmitter {
  readonly pid?: number | undefined;
  readonly stdio: readonly (Readable | Writable | null | undefined)[];
  readonly stdin: Writable | null;
  readonly stdout: Readable | null;
  readonly stderr: Readable | null;
  /** Set when what started it died before its exit could be read: why (the run then fails). */
  readonly lost?: string | undefined;
  /** The runner has sent its group SIGKILL: its exit must follow. */
  groupKilled?(): void;
}

/** What to spawn: a child in a new session, with `stdio` as Node's spawn takes it. */
export interface SpawnRequest {
  file: string;
  args: readonly string[];
  argv0?: string;
  cwd: string;
  env: Record<string, string>;
  stdio: readonly ('pipe' | 'ignore' | number)[];
  /**
   * `stdio[0]` is a descriptor several children are given in turn (a list's input file): they
   * share its file offset, as a shell's children share the shell's descriptor.
   */
  sharedStdin?: boolean;
}

type Source = { pipe: 1 } | { null: 1 } | { fd: number } | { shared: number };

type Reply =
  | { t: 'ready'; pid: number }
  | { t: 'started'; id: number; pid: number }
  | { t: 'failed'; id: number; code?: string; fallback?: string }
  | { t: 'data'; pid: number; fd: number; n: number }
  | { t: 'eof'; pid: number; fd: number }
  | { t: 'exit'; pid: number; code?: number; signal?: number };

interface Pending {
  request: SpawnRequest;
  resolve(child: SpawnedChild): void;
  reject(error: unknown): void;
  /** Past it, the spawner is taken for stopped (see {@link ANSWER_TIMEOUT_MS}). */
  deadline?: NodeJS.Timeout;
}

interface Spawner {
  process: ChildProcess;
  ready: boolean;
  pending: Map<number, Pending>;
  children: Map<number, PosixChild>;
  shared: Set<number>;
  /** Called once it is ready. */
  onReady: (() => void)[];
  /** Lines not written yet (see {@link later}, {@link flush}). */
  later: string[];
  laterTimer?: NodeJS.Timeout;
  /** Why it was given up on, when it was (else it died by itself). */
  why?: string;
}

/** How long the spawner may take to say it is ready before it is given up on. */
const READY_TIMEOUT_MS = 10_000;

/**
 * How long a spawn may wait for the spawner's answer, and a group the runner SIGKILLed for the
 * spawner to report its end, before the spawner is taken for stopped (SIGSTOP, a debugger, a
 * wedged machine) and killed: its runs then fail as `HELPER_FAILED`, as the spawn helper's do.
 */
const ANSWER_TIMEOUT_MS = 10_000;
const EXIT_AFTER_KILL_MS = 2_000;

/** The places a python3 is looked for: the system's own, not whatever a PATH puts first. */
export const PYTHONS = ['/usr/bin/python3', '/usr/local/bin/python3', '/bin/python3'];

let enabled = true;
let spawner: Spawner | undefined;
let unavailable = process.platform !== 'linux';
let nextId = 1;

/**
 * Turns the posix spawner on (the default, where it can run) or off for this process and the
 * spawn helpers it starts from now on; off, every child is spawned by Node. Call it between runs:
 * turning it off stops the spawner, and with it what the spawner has started.
 */
export function setPosixSpawner(on: boolean): void {
  enabled = switchValue('setPosixSpawner', on);
  if (on) unavailable = process.platform !== 'linux';
  else if (spawner !== undefined) stopSpawner(spawner);
}

/** The setting of {@link setPosixSpawner}. @internal */
export function posixSpawnerSetting(): boolean {
  return enabled;
}

/** Whether the spawner is running and ready (for tests and the bench). @internal */
export function posixSpawnerReady(): boolean {
  return spawner?.ready === true;
}

/**
 * Starts the spawner now, where it is on and can run, so that the first spawn finds it ready (a
 * Python start takes ~30 ms here; a spawn asked before waits for it). @internal
 */
export function warmPosixSpawner(): void {
  posixSpawnerUsable();
}

/**
 * Whether this process's children are spawned through the spawner (it is on, and could start or
 * has started); starts it when it is not yet. @internal
 */
export function posixSpawnerUsable(): boolean {
  if (!enabled || unavailable) return false;
  if (spawner === undefined) start();
  return spawner !== undefined;
}

/**
 * Spawns `request` through the spawner when it is usable and the request is one it takes (a
 * request made while it starts waits for it); else returns undefined and the caller spawns with
 * Node. The promise rejects with an error shaped as Node's spawn errors (`code`, `errno`,
 * `syscall`, `path`, `spawnargs`).
 */
export function spawnThroughSpawner(request: SpawnRequest): Promise<SpawnedChild> | undefined {
  if (!takes(request) || !posixSpawnerUsable()) return undefined;
  const target = spawner as Spawner;
  return new Promise((resolve, reject) => {
    const id = nextId;
    nextId += 1;
    const pending: Pending = { request, resolve, reject };
    target.pending.set(id, pending);
    if (target.ready)
      pending.deadline = setTimeout(
        () => giveUp(target, 'stopped answering and was killed'),
        ANSWER_TIMEOUT_MS,
      );
    holdWhileBusy(target);
    const stdio = request.stdio.map((slot, index) => sourceOf(target, request, slot, index));
    // Node writes a lone surrogate of a string as U+FFFD; Python would write its own bytes.
    const env = Object.fromEntries(
      Object.entries(request.env).map(([name, value]) => [wellFormed(name), wellFormed(value)]),
    );
    write(target, {
      t: 'spawn',
      id,
      file: wellFormed(request.file),
      argv: [request.argv0 ?? request.file, ...request.args].map(wellFormed),
      env,
      cwd: wellFormed(request.cwd),
      stdio,
    });
  });
}

/** Calls `then` once the spawner is ready (at once when it is; never when it does not start). @internal */
export function whenPosixSpawnerReady(then: () => void): void {
  if (spawner === undefined) return;
  if (spawner.ready) then();
  else spawner.onReady.push(then);
}

/** The caller closed its descriptor `fd`, which children had as a shared stdin. @internal */
export function forgetSharedDescriptor(fd: number): void {
  if (spawner?.shared.delete(fd) === true) later(spawner, { t: 'drop', fd });
}

// Only what it does exactly as Node would: a file named by a path (Node and Python search a PATH
// differently), no stdin pipe to write, descriptors 0–2 only.
function takes(request: SpawnRequest): boolean {
  if (!request.file.includes('/') || request.stdio.length !== 3) return false;
  return request.stdio[0] !== 'pipe';
}

function sourceOf(
  target: Spawner,
  request: SpawnRequest,
  slot: 'pipe' | 'ignore' | number,
  index: number,
): Source {
  if (slot === 'pipe') return { pipe: 1 };
  if (slot === 'ignore') return { null: 1 };
  if (index === 0 && request.sharedStdin === true) {
    target.shared.add(slot);
    return { shared: slot };
  }
  return { fd: slot };
}

function start(): void {
  const python = PYTHONS.find(isExecutable);
  if (python === undefined) {
    unavailable = true;
    return;
  }
  let child: ChildProcess;
  try {
    child = childProcessModule().spawn(
      python,
      ['-I', '-S', '-c', POSIX_SPAWNER_SCRIPT, String(process.pid)],
      // Nothing of this process's environment: the spawner is given each child's whole one.
      { stdio: ['pipe', 'pipe', 'ignore'], env: {}, cwd: '/', detached: true },
    );
  } catch {
    unavailable = true;
    return;
  }
  const target: Spawner = {
    process: child,
    ready: false,
    pending: new Map(),
    children: new Map(),
    shared: new Set(),
    later: [],
    onReady: [],
  };
  spawner = target;
  child.on('error', () => lost(target));
  child.stdin?.on('error', () => {});
  child.unref();
  replies(target)?.unref();
  const reader = new ReplyReader(
    (reply, data) => onReply(target, reply, data),
    // Not the spawner's lines: nothing it says can be trusted from here on.
    () => giveUp(target, 'answered outside its protocol and was killed'),
  );
  child.stdout?.on('data', (chunk: Buffer) => reader.push(chunk));
  child.stdout?.on('close', () => lost(target));
  // Not ready in time (a wedged machine, a stopped process): given up on, its waiting spawns go to
  // Node.
  const readyTimer = setTimeout(() => {
    if (!target.ready) giveUp(target, 'did not start in time and was killed');
  }, READY_TIMEOUT_MS);
  readyTimer.unref();
  killAtExit();
}

/** Lines of JSON, a `data` line followed by its bytes. */
class ReplyReader {
  private buffered: Buffer = Buffer.alloc(0);
  private awaiting: Extract<Reply, { t: 'data' }> | undefined;
  constructor(
    private readonly onReply: (reply: Reply, data?: Buffer) => void,
    private readonly onGarbage: () => void,
  ) {}

  push(chunk: Buffer): void {
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    for (;;) {
      if (this.awaiting !== undefined) {
        if (this.buffered.length < this.awaiting.n) return;
        const reply = this.awaiting;
        this.awaiting = undefined;
        const data = this.buffered.subarray(0, reply.n);
        this.buffered = this.buffered.subarray(reply.n);
        this.onReply(reply, data);
        continue;
      }
      const newline = this.buffered.indexOf(10);
      if (newline === -1) return;
      let reply: Reply;
      try {
        reply = JSON.parse(this.buffered.toString('utf8', 0, newline)) as Reply;
      } catch {
        this.onGarbage();
        return;
      }
      this.buffered = this.buffered.subarray(newline + 1);
      if (reply.t === 'data') this.awaiting = reply;
      else this.onReply(reply);
    }
  }
}

function onReply(target: Spawner, reply: Reply, data?: Buffer): void {
  switch (reply.t) {
    case 'ready':
      target.ready = true;
      for (const waiter of target.onReady.splice(0)) waiter();
      return;
    case 'data':
      if (data !== undefined) target.children.get(reply.pid)?.output(reply.fd, data);
      return;
    case 'eof':
      target.children.get(reply.pid)?.ended(reply.fd);
      return;
    case 'exit':
      target.children.get(reply.pid)?.exited(exitOf(reply));
      return;
  }
  const pending = target.pending.get(reply.id);
  if (pending === undefined) return;
  target.pending.delete(reply.id);
  clearTimeout(pending.deadline);
  if (reply.t === 'failed') {
    if (reply.code === undefined) spawnPendingWithNode(pending);
    else pending.reject(spawnError(pending.request, reply.code));
  } else {
    const child = new PosixChild(
      reply.pid,
      pending.request.stdio,
      () => {
        target.children.delete(reply.pid);
        later(target, { t: 'release', pid: reply.pid });
        releaseIfIdle(target);
      },
      () => giveUp(target, 'stopped answering and was killed'),
    );
    target.children.set(reply.pid, child);
    pending.resolve(child);
  }
  releaseIfIdle(target);
}

function exitOf(reply: Extract<Reply, { t: 'exit' }>): [number | null, NodeJS.Signals | null] {
  if (reply.signal === undefined) return [reply.code ?? 0, null];
  const name = signalName(reply.signal);
  // A real-time signal has no name in Node: reported as the shell reports any signal death.
  return name === undefined ? [128 + reply.signal, null] : [null, name];
}

let signalNames: Map<number, NodeJS.Signals> | undefined;
function signalName(signal: number): NodeJS.Signals | undefined {
  if (signalNames === undefined) {
    signalNames = new Map();
    // The first name of a number is the one Node reports (SIGABRT, not SIGIOT; SIGIO, not SIGPOLL).
    for (const [name, number] of Object.entries(os.constants.signals))
      if (!signalNames.has(number)) signalNames.set(number, name as NodeJS.Signals);
  }
  return signalNames.get(signal);
}

function spawnError(request: SpawnRequest, code: string): NodeJS.ErrnoException {
  const errno = (os.constants.errno as Record<string, number | undefined>)[code];
  const error = new Error(`spawn ${request.file} ${code}`) as NodeJS.ErrnoException & {
    spawnargs: string[];
  };
  error.code = code;
  if (errno !== undefined) error.errno = -errno;
  error.syscall = `spawn ${request.file}`;
  error.path = request.file;
  error.spawnargs = [...request.args];
  return error;
}

/**
 * A plain child_process.spawn in a new session: the group, the timeout, the bounded output and the
 * drain window are all driven by the process-group core and its owner, so nothing of a process
 * library's own promise, buffering or cleanup is needed (execa's act on the direct child only, or
 * wait for every pipe holder). Also what the spawner falls back to for a request it could not take
 * after all (a name it cannot encode, a working dir it cannot enter: Node says why in its words).
 * @internal
 */
export function spawnWithNode(request: SpawnRequest): SpawnedChild {
  return childProcessModule().spawn(request.file, request.args, {
    cwd: request.cwd,
    env: request.env,
    stdio: [...request.stdio],
    detached: true,
    ...(request.argv0 === undefined ? {} : { argv0: request.argv0 }),
  });
}

/** A child started by the spawner: its output relayed into streams, its exit from the spawner. */
class PosixChild extends EventEmitter implements SpawnedChild {
  readonly stdin = null;
  lost: string | undefined;
  readonly stdout: PassThrough | null;
  readonly stderr: PassThrough | null;
  readonly stdio: readonly (PassThrough | null)[];
  private open = 0;
  private hasExited = false;
  private watchdog: NodeJS.Timeout | undefined;
  constructor(
    readonly pid: number,
    stdio: SpawnRequest['stdio'],
    private readonly onDone: () => void,
    private readonly onStuck: () => void,
  ) {
    super();
    const streams = stdio.map((slot, index) => {
      if (index === 0 || slot !== 'pipe') return null;
      this.open += 1;
      const stream = new PassThrough();
      // Read no more once the owner is done with it (destroyed at settle).
      stream.once('close', () => this.closed());
      return stream;
    });
    this.stdio = streams;
    this.stdout = streams[1] ?? null;
    this.stderr = streams[2] ?? null;
  }

  output(fd: number, data: Buffer): void {
    const stream = this.stdio[fd];
    if (stream !== null && stream !== undefined && !stream.destroyed) stream.write(data);
  }

  ended(fd: number): void {
    this.stdio[fd]?.end();
  }

  groupKilled(): void {
    if (this.hasExited || this.watchdog !== undefined) return;
    // A SIGKILLed process is gone at once: a spawner that does not say so is not answering.
    this.watchdog = setTimeout(this.onStuck, EXIT_AFTER_KILL_MS);
  }

  exited([code, signal]: [number | null, NodeJS.Signals | null]): void {
    clearTimeout(this.watchdog);
    // The answer that started it may have come in the same read: its owner attaches its listeners
    // when the spawn's promise settles (microtasks), so the exit is told on a later turn, as
    // Node's own children tell theirs.
    setImmediate(() => {
      this.hasExited = true;
      this.emit('exit', code, signal);
      if (this.open === 0) this.onDone();
    });
  }

  private closed(): void {
    this.open -= 1;
    if (this.open === 0 && this.hasExited) this.onDone();
  }
}

function holdWhileBusy(target: Spawner): void {
  replies(target)?.ref();
}

// Nothing asked or running: the spawner does not keep this process alive.
function releaseIfIdle(target: Spawner): void {
  if (target.pending.size === 0 && target.children.size === 0) replies(target)?.unref();
}

// The spawner's stdout: a socket (Node makes a socket pair for a 'pipe').
function replies(target: Spawner): Socket | undefined {
  return (target.process.stdout as Socket | null) ?? undefined;
}

function write(target: Spawner, message: object): void {
  target.later.push(`${JSON.stringify(message)}\n`);
  flush(target);
}

// What need not reach the spawner at once (a release, a drop): sent with the next request, or
// within 50 ms, so a run's end costs no write of its own.
function later(target: Spawner, message: object): void {
  target.later.push(`${JSON.stringify(message)}\n`);
  if (target.later.length > 1) return;
  target.laterTimer = setTimeout(() => flush(target), 50);
  target.laterTimer.unref();
}

// Everything queued, in one write.
function flush(target: Spawner): void {
  clearTimeout(target.laterTimer);
  if (target.later.length === 0 || target.process.stdin?.writable !== true) return;
  target.process.stdin.write(target.later.join(''));
  target.later.length = 0;
}

// The spawner died (killed, out of memory, or before it was ready): what it had started is killed
// (their exit can no longer be read), and this process spawns with Node from now on. The spawns it
// had not answered go to Node when it died before it was ready (it read none of them), else fail.
function lost(target: Spawner): void {
  const gone = `the runner's posix spawner (pid ${target.process.pid}) ${target.why ?? 'died'}`;
  if (spawner === target) {
    spawner = undefined;
    unavailable = true;
  }
  for (const [pid, child] of target.children) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // gone already
    }
    child.lost = `${gone} during the run; what it had started was killed, and this process spawns without it from now on`;
    for (const stream of child.stdio) stream?.end();
    child.exited([null, 'SIGKILL']);
  }
  target.children.clear();
  for (const pending of target.pending.values()) {
    clearTimeout(pending.deadline);
    if (!target.ready) {
      spawnPendingWithNode(pending);
      continue;
    }
    // Whether it started them is not known: they fail, and nothing runs them again.
    pending.reject(
      new RunnerError({
        code: 'HELPER_FAILED',
        message: `could not start ${JSON.stringify(pending.request.file)}: ${gone} before it answered; whether it had started it is not known, so it is not run again`,
      }),
    );
  }
  target.pending.clear();
}

function stopSpawner(target: Spawner): void {
  lost(target);
  target.process.stdin?.end();
}

let exitHookInstalled = false;
function killAtExit(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // The spawner kills what it started when this process goes (its stdin closes); the runner's own
  // exit cleanup kills every group too.
  onProcessExit(() => {
    const pid = spawner?.process.pid;
    if (pid === undefined) return;
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone already
    }
  });
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function wellFormed(text: string): string {
  return text.replace(LONE_SURROGATE, '\uFFFD');
}

// A spawn the spawner gave back unstarted, or asked before it was ready: Node's (which may throw).
function spawnPendingWithNode(pending: Pending): void {
  try {
    pending.resolve(spawnWithNode(pending.request));
  } catch (error) {
    pending.reject(error);
  }
}

// The spawner is not to be trusted any more: killed (SIGKILL reaches a stopped process too); its
// close then ends what it had (see lost).
function giveUp(target: Spawner, why: string): void {
  target.why ??= why;
  target.process.kill('SIGKILL');
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
