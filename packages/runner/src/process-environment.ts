import fs from 'node:fs';

/** What {@link hideProcessEnvironment} did. */
export interface HideProcessEnvironmentResult {
  /** `true` when the block the kernel shows as `/proc/<pid>/environ` now holds only NUL bytes. */
  hidden: boolean;
  /** Bytes overwritten (the size of the original environment block). */
  bytes: number;
  /** Why nothing was hidden, when `hidden` is `false`. */
  reason?: string;
}

// /proc/<pid>/stat fields, 1-based as in proc(5): env_start is 50, env_end 51 (Linux ≥ 3.5).
const ENV_START_FIELD = 50;
const ENV_END_FIELD = 51;

/**
 * Hides this process's environment from other processes of the same user (Linux).
 *
 * The kernel shows `/proc/<pid>/environ` straight from the block the environment was passed in at
 * exec time; deleting a variable from `process.env` does not change that block, so any child could
 * read the agent's secrets at `/proc/$PPID/environ`. This first re-sets every variable (libc copies
 * each `NAME=value` to the heap and points `environ` there), so `process.env` keeps working
 * unchanged, then overwrites the original block with NUL bytes through `/proc/self/mem`.
 *
 * Call it once, early, in the process that spawns hooks and tools (the reference agent does, before
 * it parses its arguments). It never throws: on other systems, or where `/proc/self/mem` cannot be
 * written, it reports why in `reason`.
 *
 * It does not hide the process's memory from a same-user process that may ptrace it
 * (`/proc/sys/kernel/yama/ptrace_scope` 0), nor the environment of the process that started this one.
 */
export function hideProcessEnvironment(): HideProcessEnvironmentResult {
  if (process.platform !== 'linux') {
    return { hidden: false, bytes: 0, reason: `not supported on ${process.platform}` };
  }
  let start: number;
  let end: number;
  try {
    const stat = fs.readFileSync('/proc/self/stat', 'utf8');
    // Field 2 (the command name) is in parentheses and may hold spaces; count from after it.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    start = Number(fields[ENV_START_FIELD - 3]);
    end = Number(fields[ENV_END_FIELD - 3]);
  } catch (error) {
    return { hidden: false, bytes: 0, reason: `cannot read /proc/self/stat: ${describe(error)}` };
  }
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || end <= start) {
    return { hidden: false, bytes: 0, reason: 'no environment block in /proc/self/stat' };
  }

  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined) process.env[name] = value;
  }

  const bytes = end - start;
  let fd: number | undefined;
  try {
    fd = fs.openSync('/proc/self/mem', 'r+');
    fs.writeSync(fd, Buffer.alloc(bytes), 0, bytes, start);
  } catch (error) {
    return { hidden: false, bytes: 0, reason: `cannot write /proc/self/mem: ${describe(error)}` };
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
  const hidden = fs.readFileSync('/proc/self/environ').every((byte) => byte === 0);
  return hidden
    ? { hidden, bytes }
    : { hidden, bytes, reason: '/proc/self/environ still shows text' };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
