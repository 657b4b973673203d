import path from 'node:path';
import type { ToolDescription } from '@soong-agent/loop-adapter';

/**
 * pi's built-in tools and the tools they are in soong-agent hooks (spec §1.2, §11): the canonical
 * name hooks.json matchers and the event log use, the risk class, the paths a call touches and,
 * through the canonical name (or a declared one), how other agents' hooks see the call: a Claude
 * Code hook sees pi's `bash` as `Bash` with `tool_input.command`, `read` as `Read` with an absolute
 * `file_path`, and so on. Any other tool (an extension's, an MCP bridge's) keeps its pi name and is
 * `dangerous`.
 */
export const PI_TOOL_NAMES: Readonly<Record<string, string>> = Object.freeze({
  bash: 'bash',
  read: 'read_file',
  write: 'write_file',
  edit: 'edit_file',
  grep: 'grep',
  find: 'find',
  ls: 'list_dir',
});

/** The tool description of pi's tool `name` for a project, as the tool gate needs it. */
export function piToolDescription(name: string, projectDir: string): ToolDescription {
  const inProject = (value: unknown, fallback?: string): string[] => {
    const given = typeof value === 'string' && value !== '' ? value : fallback;
    return given === undefined ? [] : [path.resolve(projectDir, given)];
  };
  switch (name) {
    case 'bash':
      return { name: 'bash', risk: 'dangerous' };
    case 'read':
      return {
        name: 'read_file',
        risk: 'readonly',
        paths: (input) => inProject(field(input, 'path')),
      };
    case 'write':
      return {
        name: 'write_file',
        risk: 'write',
        paths: (input) => inProject(field(input, 'path')),
      };
    case 'edit':
      return {
        name: 'edit_file',
        risk: 'write',
        paths: (input) => inProject(field(input, 'path')),
        dialectInput: editAsCanonical,
      };
    case 'grep':
      return {
        name: 'grep',
        risk: 'readonly',
        paths: (input) => inProject(field(input, 'path'), '.'),
        dialectInput: (input) => withPath(input, '.'),
      };
    case 'find':
      return {
        name: 'find',
        risk: 'readonly',
        paths: (input) => inProject(field(input, 'path'), '.'),
        // No canonical tool finds files by glob; every agent's own glob tool is the nearest.
        dialectName: {
          'claude-code': 'Glob',
          codex: 'Glob',
          gemini: 'glob',
          copilot: 'glob',
          cursor: 'Glob',
        },
        dialectInput: (input) => {
          const given = field(input, 'path');
          return {
            ...(isRecord(input) ? input : {}),
            path: path.resolve(projectDir, typeof given === 'string' ? given : '.'),
          };
        },
      };
    case 'ls':
      return {
        name: 'list_dir',
        risk: 'readonly',
        paths: (input) => inProject(field(input, 'path'), '.'),
        dialectInput: (input) => withPath(input, '.'),
      };
    default:
      return { name, risk: 'dangerous' };
  }
}

// pi's edit takes `edits: [{ oldText, newText }]`; our `edit_file` one `old_string`/`new_string`.
// Other agents' hooks see the first replacement there and all of them in `edits`.
function editAsCanonical(input: unknown): unknown {
  if (!isRecord(input)) return input;
  const { edits, oldText, newText, ...rest } = input;
  const list = Array.isArray(edits)
    ? edits.filter(isRecord).map((edit) => ({ old_string: edit.oldText, new_string: edit.newText }))
    : [];
  // pi still accepts the older top-level `oldText`/`newText` form.
  if (list.length === 0 && typeof oldText === 'string') {
    list.push({ old_string: oldText, new_string: newText });
  }
  const first = list[0];
  return {
    ...rest,
    ...(first === undefined ? {} : first),
    ...(list.length > 1 ? { edits: list } : {}),
  };
}

function withPath(input: unknown, fallback: string): unknown {
  if (!isRecord(input)) return input;
  const given = input.path;
  return { ...input, path: typeof given === 'string' && given !== '' ? given : fallback };
}

function field(input: unknown, key: string): unknown {
  return isRecord(input) ? input[key] : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
