import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { readRegularFileSync } from '@soong-agent/config';
import {
  analyzeCommand,
  findProgramInPath,
  type HookCommandConfig,
  hookCommandVariables,
} from '@soong-agent/config/internal';

/** Bytes of a hook's file hashed for its fingerprint; a larger file is fingerprinted by its first bytes and size. */
const SCRIPT_FINGERPRINT_MAX_BYTES = 16 * 1024 * 1024;

/**
 * The most files fingerprinted in one hook script's folder. A folder holding more fails the hook
 * closed: what it may import cannot all be watched.
 */
const SCRIPT_FOLDER_MAX_FILES = 2000;

// Folders an interpreter writes into by itself (byte-code caches): never part of a fingerprint.
const GENERATED_FOLDERS = new Set(['__pycache__']);

// The files a script of each kind can load from its own folder.
const MODULE_FAMILIES: Record<string, readonly string[]> = {
  python: ['.py', '.pth'],
  javascript: ['.js', '.mjs', '.cjs', '.ts', '.mts', '.cts', '.json', '.node'],
  shell: ['.sh', '.bash', '.zsh', '.ksh'],
  ruby: ['.rb'],
  perl: ['.pl', '.pm'],
  php: ['.php', '.inc'],
  lua: ['.lua'],
};
const FAMILY_OF_EXTENSION = new Map(
  Object.entries(MODULE_FAMILIES).flatMap(([family, extensions]) =>
    extensions.map((extension) => [extension, family] as const),
  ),
);
const FAMILY_OF_INTERPRETER: [RegExp, string][] = [
  [/^python/, 'python'],
  [/^(?:node|nodejs|bun|deno|tsx|ts-node)$/, 'javascript'],
  [/^(?:sh|bash|dash|zsh|ksh|mksh|ash)$/, 'shell'],
  [/^ruby$/, 'ruby'],
  [/^perl$/, 'perl'],
  [/^php$/, 'php'],
  [/^lua$/, 'lua'],
];

/** The module family of a script: by its extension, else by its `#!` line. */
function familyOf(file: string): string | undefined {
  const byExtension = FAMILY_OF_EXTENSION.get(path.extname(file));
  if (byExtension !== undefined) return byExtension;
  let head = '';
  try {
    const descriptor = fs.openSync(file, 'r');
    try {
      const buffer = Buffer.alloc(128);
      head = buffer.subarray(0, fs.readSync(descriptor, buffer, 0, 128, 0)).toString('latin1');
    } finally {
      fs.closeSync(descriptor);
    }
  } catch {
    return undefined;
  }
  const shebang = /^#!\s*(\S+)(?:\s+(?:-\S+\s+)*(\S+))?/.exec(head);
  if (shebang === null) return undefined;
  const program = path.basename(shebang[1] as string);
  const interpreter = program === 'env' ? path.basename(shebang[2] ?? '') : program;
  return FAMILY_OF_INTERPRETER.find(([pattern]) => pattern.test(interpreter))?.[1];
}

/** A file's sha256, or what stands in for it when it cannot be read. */
function fingerprint(file: string): string {
  try {
    const read = readRegularFileSync(file, { maxBytes: SCRIPT_FINGERPRINT_MAX_BYTES });
    if ('problem' in read) return `${read.problem} (${read.size} bytes)`;
    return createHash('sha256').update(read.bytes).digest('hex');
  } catch (error) {
    return `unreadable (${(error as NodeJS.ErrnoException).code ?? 'error'})`;
  }
}

// What changes whenever a file's content may have: a write always moves ctime, which no tool can
// set. The stat itself (device, inode, size, mtime and ctime in nanoseconds, compared by
// sameStat), or why there is none.
type StatKey = fs.BigIntStats | string;

function statKey(file: string): StatKey {
  try {
    return fs.statSync(file, { bigint: true, throwIfNoEntry: false }) ?? 'missing (ENOENT)';
  } catch (error) {
    return `missing (${(error as NodeJS.ErrnoException).code ?? 'error'})`;
  }
}

// Compared field by field: no key string is built on the hot path (it runs before every call).
function sameStat(now: StatKey, before: StatKey): boolean {
  if (typeof now === 'string' || typeof before === 'string') return now === before;
  return (
    now.ino === before.ino &&
    now.dev === before.dev &&
    now.size === before.size &&
    now.mtimeNs === before.mtimeNs &&
    now.ctimeNs === before.ctimeNs
  );
}

// True when no folder's stat moved (a plain loop: no entry arrays on the hot path).
function sameStats(dirs: Map<string, StatKey>): boolean {
  for (const dir of dirs.keys()) {
    if (!sameStat(statKey(dir), dirs.get(dir) as StatKey)) return false;
  }
  return true;
}

/** A folder whose file list is watched: new or removed files count as changes. */
interface FolderWatch {
  dir: string;
  recursive: boolean;
  /** Extensions of the files that count; `undefined`: every file. */
  extensions: readonly string[] | undefined;
  /** The files found at the start, sorted; `undefined` when there were too many. */
  files: string[] | undefined;
  /**
   * The stat key of every folder walked when the list was taken: adding, removing or renaming an
   * entry moves its folder's mtime and ctime, so while no key moved the list cannot have changed
   * and the walk is skipped (one stat per folder per run instead of a readdir).
   */
  dirs: Map<string, StatKey>;
}

function listFolder(
  watch: Omit<FolderWatch, 'files' | 'dirs'>,
  dirs?: Map<string, StatKey>,
): string[] | undefined {
  const found: string[] = [];
  const walk = (dir: string, depth: number): boolean => {
    // Taken before the listing: a change during the walk then shows on the next check.
    dirs?.set(dir, statKey(dir));
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return true;
    }
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!watch.recursive || GENERATED_FOLDERS.has(entry.name)) continue;
        if (!walk(full, depth + 1)) return false;
        continue;
      }
      if (watch.extensions !== undefined && !watch.extensions.includes(path.extname(entry.name)))
        continue;
      found.push(full);
      if (found.length > SCRIPT_FOLDER_MAX_FILES) return false;
    }
    return true;
  };
  return walk(watch.dir, 0) ? found.sort() : undefined;
}

/** What {@link createScriptFingerprints} returns. */
export interface ScriptFingerprints {
  /** The first of the hook's files whose content changed since the fingerprints were taken. */
  changedFile(hook: HookCommandConfig): string | undefined;
}

interface HookFiles {
  files: Map<string, { key: StatKey; print: string }>;
  folders: FolderWatch[];
}

/** True when `dir` is `root` or lies under it, by whole segments. */
function isUnder(dir: string, root: string): boolean {
  const relative = path.relative(root, dir);
  return relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative);
}

function realPathOr(file: string): string {
  try {
    return fs.realpathSync(file);
  } catch {
    return path.resolve(file);
  }
}

/**
 * Fingerprints (sha256) what every hook's command runs, once, when the session starts: the programs
 * and scripts `analyzeCommand` finds (the variables the hook gets expanded, `bash -c` bodies
 * followed; an interpreter outside the project and the agent home is a program of the system,
 * named by its path or found on PATH, and not watched), any other existing file its words name,
 * and the files each script can load from its folder: every file under it when the folder lies in
 * the project (a new file counts too), else
 * the files of the script's own kind beside it (`.py` next to a Python script). hooks.json is a
 * snapshot; the files it runs are not, and one inside the project could be rewritten by the agent
 * mid-session. Checked before each run; any change fails the hook closed.
 */
export function createScriptFingerprints(
  hooks: readonly HookCommandConfig[],
  cwdOf: (hook: HookCommandConfig) => string,
  homeDir: string,
  projectDir: string,
  agentHome?: string,
): ScriptFingerprints {
  const realProject = realPathOr(projectDir);
  const realHome = agentHome === undefined ? undefined : realPathOr(agentHome);
  // Where the file is named or where it really lies (a `.venv/bin/python` link to /usr/bin).
  const inProjectOrHome = (file: string): boolean =>
    [path.dirname(path.resolve(file)), path.dirname(realPathOr(file))].some(
      (dir) =>
        isUnder(dir, realProject) ||
        isUnder(dir, path.resolve(projectDir)) ||
        (realHome !== undefined &&
          (isUnder(dir, realHome) || isUnder(dir, path.resolve(agentHome as string)))),
    );
  const byHook = new Map<string, HookFiles>();
  for (const hook of hooks) {
    const variables = hookCommandVariables({
      home: agentHome ?? '',
      projectDir,
      protocol: hook.protocol,
    });
    if (agentHome === undefined) delete variables.SOONG_AGENT_HOME;
    const analysis = analyzeCommand(hook.command, { cwd: cwdOf(hook), homeDir, variables });
    const entry: HookFiles = { files: new Map(), folders: [] };
    const add = (file: string) => {
      if (!entry.files.has(file))
        entry.files.set(file, { key: statKey(file), print: fingerprint(file) });
    };
    const isFile = (file: string) => {
      try {
        return fs.statSync(file).isFile();
      } catch {
        return false;
      }
    };
    for (const target of analysis.targets) {
      let file = target.path;
      if (file === undefined) {
        // A name found on PATH inside the project (`.` or `node_modules/.bin` on PATH) is a
        // project file too; programs of the system are not watched.
        const found = findProgramInPath(target.text, {
          searchPath: process.env.PATH,
          cwd: cwdOf(hook),
        });
        if (found === undefined || !isUnder(path.dirname(realPathOr(found)), realProject)) continue;
        file = found;
      } else if (
        target.role === 'program' &&
        analysis.targets.some((other) => other.role === 'script' && other.runner === target.text) &&
        !inProjectOrHome(file)
      ) {
        // An interpreter named by its path (`/usr/bin/node guard.mjs`) is a program of the system
        // like `node` found on PATH: the script it runs is watched, not the interpreter, unless it
        // lies in the project or the agent home (a virtualenv's python there).
        continue;
      }
      // A file that does not exist yet is watched too: creating it is a change.
      if (!isFile(file)) {
        add(file);
        continue;
      }
      add(file);
      const realDir = path.dirname(realPathOr(file));
      // Under the project, not the project dir itself (that would be every file of the project).
      const inProject = realDir !== realProject && isUnder(realDir, realProject);
      const family = familyOf(file);
      if (!inProject && family === undefined) continue;
      const extensions = inProject ? undefined : MODULE_FAMILIES[family as string];
      if (entry.folders.some((folder) => folder.dir === realDir)) continue;
      const folder: FolderWatch = {
        dir: realDir,
        recursive: inProject,
        extensions,
        files: [],
        dirs: new Map(),
      };
      folder.files = listFolder(folder, folder.dirs);
      entry.folders.push(folder);
      for (const file of folder.files ?? []) add(file);
    }
    for (const operand of analysis.operands) if (isFile(operand)) add(operand);
    byHook.set(hook.id, entry);
  }
  return {
    changedFile(hook) {
      const entry = byHook.get(hook.id);
      if (entry === undefined) return undefined;
      for (const folder of entry.folders) {
        if (folder.files === undefined) {
          return `${folder.dir} (it holds more than ${SCRIPT_FOLDER_MAX_FILES} files: too many to fingerprint; keep hook scripts in a small folder)`;
        }
        if (sameStats(folder.dirs)) continue;
        const dirs = new Map<string, StatKey>();
        const now = listFolder(folder, dirs);
        if (now === undefined) return folder.dir;
        const before = new Set(folder.files);
        const added = now.find((file) => !before.has(file));
        if (added !== undefined) return added;
        if (now.length !== folder.files.length) {
          const after = new Set(now);
          return folder.files.find((file) => !after.has(file));
        }
        folder.dirs = dirs; // touched, same files
      }
      for (const [file, state] of entry.files) {
        const key = statKey(file);
        if (sameStat(key, state.key)) continue;
        if (fingerprint(file) !== state.print) return file;
        state.key = key; // touched, not changed
      }
      return undefined;
    },
  };
}
