import fs from 'node:fs';

/** State letter of a process from /proc, or undefined when it is gone. */
function processState(pid: number): string | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name is in parentheses and may contain spaces: the state follows the last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
  } catch {
    return undefined;
  }
}

/** True while `pid` is a running (not zombie) process. */
export function isAlive(pid: number): boolean {
  const state = processState(pid);
  return state !== undefined && state !== 'Z' && state !== 'X';
}

/** Pids of the live (not zombie) members of process group `pgid`. */
export function groupMembers(pgid: number): number[] {
  const members: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields: state, ppid, pgrp, ...
    if (Number(fields[2]) === pgid && fields[0] !== 'Z' && fields[0] !== 'X')
      members.push(Number(entry));
  }
  return members;
}

/**
 * Poll `predicate` until it holds or `boundMs` passed (a generous bound for something that must
 * happen, not a speed assertion). Returns whether it held.
 */
export async function eventually(predicate: () => boolean, boundMs = 10_000): Promise<boolean> {
  const deadline = Date.now() + boundMs;
  while (Date.now() < deadline) {
    if (predicate()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return predicate();
}

/** Resolves once no live process is left in group `pgid` (false if the bound passed first). */
export function groupGone(pgid: number, boundMs?: number): Promise<boolean> {
  return eventually(() => groupMembers(pgid).length === 0, boundMs);
}

/** Resolves once every pid in `pids` is gone (false if the bound passed first). */
export function allGone(pids: readonly number[], boundMs?: number): Promise<boolean> {
  return eventually(() => pids.every((pid) => !isAlive(pid)), boundMs);
}
