/**
 * Our built-in tool names and the Claude Code tool names a `"protocol": "claude-code"` hook sees
 * instead (SPEC §7); any other tool keeps its own name. Frozen. The only copy of this table.
 */
export const CLAUDE_CODE_TOOL_NAMES: Readonly<Record<string, string>> = Object.freeze({
  bash: 'Bash',
  read_file: 'Read',
  write_file: 'Write',
  edit_file: 'Edit',
  grep: 'Grep',
  list_dir: 'LS',
});

/** Claude Code tool names → ours: the inverse of {@link CLAUDE_CODE_TOOL_NAMES}, plus `MultiEdit`. */
export const CLAUDE_CODE_OUR_TOOL_NAMES: Readonly<Record<string, string>> = Object.freeze({
  Bash: 'bash',
  Read: 'read_file',
  Write: 'write_file',
  Edit: 'edit_file',
  MultiEdit: 'edit_file',
  Grep: 'grep',
  LS: 'list_dir',
});
