import fs from 'node:fs';
import { type EventuallyOptions, eventually } from './eventually.js';

/** State letter and process group of `pid` from /proc, or undefined when it is gone. */
function procStat(pid: number): { state: string; pgid: number } | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name is in parentheses and may hold spaces: the fields follow the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0] ?? '', pgid: Number(fields[2]) };
  } catch {
    return undefined;
  }
}

/** True while `pid` is a live process (a zombie waiting to be reaped counts as gone). */
export function isAlive(pid: number): boolean {
  const stat = procStat(pid);
  return stat !== undefined && stat.state !== 'Z' && stat.state !== 'X';
}

/** The process group of `pid` (0 when it is gone). */
export function processGroupOf(pid: number): number {
  return procStat(pid)?.pgid ?? 0;
}

/** Pids of the live (not zombie) members of process group `pgid`. */
export function liveGroupMembers(pgid: number): number[] {
  const members: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = procStat(Number(entry));
    if (stat !== undefined && stat.pgid === pgid && stat.state !== 'Z' && stat.state !== 'X') {
      members.push(Number(entry));
    }
  }
  return members;
}

/** Resolves `true` once no live process is left in group `pgid`; throws at the deadline. */
export function groupGone(pgid: number, options: EventuallyOptions = {}): Promise<true> {
  return eventually(() => liveGroupMembers(pgid).length === 0, {
    message: () => `process group ${pgid} to be gone (live: ${liveGroupMembers(pgid).join(', ')})`,
    ...options,
  });
}

/** Resolves `true` once every pid in `pids` is gone; throws at the deadline naming the live ones. */
export function allGone(pids: readonly number[], options: EventuallyOptions = {}): Promise<true> {
  return eventually(() => pids.every((pid) => !isAlive(pid)), {
    message: () =>
      `processes ${pids.join(', ')} to be gone (live: ${pids.filter(isAlive).join(', ')})`,
    ...options,
  });
}
