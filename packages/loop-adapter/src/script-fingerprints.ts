import { createHash } from 'node:crypto';
import {
  commandFiles,
  expandClaudeProjectDir,
  type HookCommandConfig,
  readRegularFileSync,
} from '@soong-agent/config';

/** Bytes of a hook's file hashed for its fingerprint; a larger file is fingerprinted by its first bytes and size. */
const SCRIPT_FINGERPRINT_MAX_BYTES = 16 * 1024 * 1024;

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

/** What {@link createScriptFingerprints} returns. */
export interface ScriptFingerprints {
  /** The first of the hook's files whose content changed since the fingerprints were taken. */
  changedFile(hook: HookCommandConfig): string | undefined;
}

/**
 * Fingerprints (sha256) the files every hook's command names (`commandFiles`: `./guard.sh`,
 * `python3 hooks/guard.py`…), once, when the session starts. hooks.json is a snapshot; the files it
 * names are not, and one inside the project could be rewritten by the agent mid-session.
 */
export function createScriptFingerprints(
  hooks: readonly HookCommandConfig[],
  cwdOf: (hook: HookCommandConfig) => string,
  homeDir: string,
  projectDir: string,
): ScriptFingerprints {
  const byHook = new Map<string, [file: string, print: string][]>();
  for (const hook of hooks) {
    // A Claude Code hook's `$CLAUDE_PROJECT_DIR/.claude/hooks/…` script is a file it runs too.
    const command =
      hook.protocol === 'claude-code'
        ? expandClaudeProjectDir(hook.command, projectDir)
        : hook.command;
    const files = commandFiles(command, { cwd: cwdOf(hook), homeDir });
    byHook.set(
      hook.id,
      files.map((file) => [file, fingerprint(file)]),
    );
  }
  return {
    changedFile(hook) {
      for (const [file, print] of byHook.get(hook.id) ?? []) {
        if (fingerprint(file) !== print) return file;
      }
      return undefined;
    },
  };
}
