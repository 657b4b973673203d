import fs from 'node:fs';

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
  return fs
    .readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => processGroupOf(pid) === pgid && isAlive(pid));
}

/**
 * Polls `predicate` until it holds or `boundMs` passed (a generous bound for something that must
 * happen, not a speed assertion). Returns whether it held.
 */
export async function eventually(predicate: () => boolean, boundMs = 20_000): Promise<boolean> {
  const deadline = Date.now() + boundMs;
  while (Date.now() < deadline && !predicate()) {
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return predicate();
}
