/**
 * Our built-in tool names and the Claude Code tool names a `"protocol": "claude-code"` hook sees
 * instead (spec §7); any other tool keeps its own name. Frozen. The only copy of this table.
 */
export const CLAUDE_CODE_TOOL_NAMES: Readonly<Record<string, string>> = Object.freeze({
  bash: 'Bash',
  read_file: 'Read',
  write_file: 'Write',
  edit_file: 'Edit',
  grep: 'Grep',
  list_dir: 'LS',
});

/**
 * Claude Code tool names → ours: the inverse of {@link CLAUDE_CODE_TOOL_NAMES}, plus `MultiEdit`
 * (Claude Code's other tool that edits a file), right after `Edit`.
 */
export const CLAUDE_CODE_OUR_TOOL_NAMES: Readonly<Record<string, string>> = Object.freeze(
  Object.fromEntries(
    Object.entries(CLAUDE_CODE_TOOL_NAMES).flatMap(([ours, theirs]) =>
      theirs === 'Edit'
        ? [
            [theirs, ours],
            ['MultiEdit', ours],
          ]
        : [[theirs, ours]],
    ),
  ),
);
