import fs from 'node:fs';
import { PYTHONS } from '../posix-spawner.js';

/** The parent pid of `pid`, from /proc (Linux). */
export function parentOf(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

/**
 * Whether a child whose parent is `parent` was spawned by `owner`: from `owner` itself, or from
 * the posix spawner it started (a python3 whose parent is `owner`).
 */
export function spawnedBy(parent: number, owner: number): boolean {
  if (parent === owner) return true;
  const name = fs.readFileSync(`/proc/${parent}/comm`, 'utf8').trim();
  return name.startsWith('python3') && parentOf(parent) === owner;
}

/**
 * A shell command printing the pid of the process that spawned it: its parent, or, when that is
 * the posix spawner (a python3), the spawner's parent (the helper or the host that started it).
 */
export const SPAWNING_PID_COMMAND =
  'p=$PPID; case $(cat /proc/$p/comm) in python3*) p=$(cut -d" " -f4 /proc/$p/stat);; esac; echo $p';

/** Whether this machine has a python3 where the posix spawner looks for one (Linux only). */
export const POSIX_SPAWNER_CAN_RUN =
  process.platform === 'linux' && PYTHONS.some((file) => fs.existsSync(file));
