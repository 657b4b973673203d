import fs from 'node:fs';
import path from 'node:path';
import { claudeCodeView, toClaudeCodeToolInput } from '@soong-agent/dialects/internal';
import { jsonValueDepth, MAX_JSON_DEPTH } from '@soong-agent/protocol';
import { summarizeStrings } from './bound-tool-io.js';
import { LoopAdapterError } from './loop-adapter-error.js';
import { summarizeText } from './summarize-text.js';
import type { ToolCall, ToolDialectView, ToolResult } from './tool-call.js';

/**
 * A session transcript in Claude Code's JSON-lines format (spec §7), the file `transcript_path`
 * names for `"protocol": "claude-code"` hooks. Each method appends whole lines at once, so the file
 * is current whenever a hook runs.
 */
export interface ClaudeCodeTranscript {
  /** The file, absolute. */
  readonly file: string;
  /** A user line with string content: the prompt, or a hook-context message sent as a user turn. */
  user(text: string): void;
  /** An assistant line: a `text` block (when non-empty) and one `tool_use` block per call. */
  assistant(text: string, calls?: readonly ToolCall[]): void;
  /**
   * An assistant line with the `tool_use` block of one call, unless `assistant` (or an earlier
   * `toolUse`) already wrote that call: the tool gate calls it, so the transcript names every call a
   * hook is asked about, whatever the host. `dialect` is how Claude Code sees a host-named tool;
   * `inputJson`, the JSON of `call.input` when the caller made it (it is not made again).
   */
  toolUse(call: ToolCall, dialect?: ToolDialectView, inputJson?: string): void;
  /** A user line of `tool_result` blocks, contents bounded (head and tail). */
  toolResults(results: readonly ToolResult[]): void;
  /** Closes the file. Idempotent; later appends throw `SINK_CLOSED`. */
  close(): void;
}

/** Options of {@link createClaudeCodeTranscript}. */
export interface ClaudeCodeTranscriptOptions {
  /** The project dir: tool paths in `tool_use` inputs are made absolute against it. */
  projectDir: string;
  /** Bytes of a tool result kept at its head and at its tail. @default 4096 each */
  resultHeadBytes?: number;
  /**
   * Whether a hook of the session can read the file (a hook whose protocol is not `"soong"`):
   * then tool inputs are written whole, as Claude Code writes them. When none can, each string of
   * a tool input is kept at its head and tail (`resultHeadBytes`), as tool results are, and the
   * input is not copied whole. @default true
   */
  readers?: boolean;
}

/**
 * Opens (creates with mode 0600, folder 0700; never following a symlink) the transcript of a session
 * and appends to it. Lines: `{"type":"user"|"assistant","message":{"role","content"}}`; assistant
 * content as `text` and `tool_use` blocks with Claude Code tool names and inputs, tool results as
 * `tool_result` blocks in user lines.
 */
export function createClaudeCodeTranscript(
  file: string,
  options: ClaudeCodeTranscriptOptions,
): ClaudeCodeTranscript {
  const absolute = path.resolve(file);
  fs.mkdirSync(path.dirname(absolute), { recursive: true, mode: 0o700 });
  const { O_WRONLY, O_APPEND, O_CREAT, O_NOFOLLOW } = fs.constants;
  let fd: number | undefined;
  try {
    fd = fs.openSync(absolute, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW, 0o600);
  } catch (error) {
    throw new LoopAdapterError({
      code: 'INVALID_OPTIONS',
      message: `cannot open transcript ${absolute}: ${(error as Error).message}${(error as NodeJS.ErrnoException).code === 'ELOOP' ? ' (it is a symbolic link; remove the link)' : ''}`,
      cause: error,
    });
  }
  const half = options.resultHeadBytes ?? 4096;
  const readers = options.readers ?? true;
  // Calls whose tool_use block is written (ids are unique in a session).
  const written = new Set<string>();
  const toolUseBlock = (call: ToolCall, dialect?: ToolDialectView, inputJson?: string) => {
    written.add(call.id);
    const declared = dialect?.names?.['claude-code'];
    const given = inputOf(call.input, readers, inputJson);
    const named = declared === undefined ? {} : { name: declared };
    if ('note' in given) {
      const { name } = claudeCodeView(call.name, {}, named);
      return { type: 'tool_use', id: call.id, name, input: { unserializable_input: given.note } };
    }
    const seen = claudeCodeView(call.name, given.input, {
      ...named,
      ...(dialect?.input === undefined ? {} : { input: dialect.input }),
    });
    const converted = toClaudeCodeToolInput(seen.canonical, seen.input, options.projectDir);
    return {
      type: 'tool_use',
      id: call.id,
      name: seen.name,
      input: readers
        ? converted
        : summarizeStrings(converted, { headBytes: half, tailBytes: half }),
    };
  };
  const append = (line: Record<string, unknown>) => {
    if (fd === undefined) {
      throw new LoopAdapterError({
        code: 'SINK_CLOSED',
        message: `transcript ${absolute} is closed`,
      });
    }
    fs.writeSync(fd, `${lineJson(line)}\n`);
  };
  return {
    file: absolute,
    user(text) {
      append({ type: 'user', message: { role: 'user', content: text } });
    },
    assistant(text, calls = []) {
      const content: Record<string, unknown>[] = [];
      if (text !== '') content.push({ type: 'text', text });
      for (const call of calls) content.push(toolUseBlock(call));
      append({ type: 'assistant', message: { role: 'assistant', content } });
    },
    toolUse(call, dialect, inputJson) {
      if (written.has(call.id)) return;
      append({
        type: 'assistant',
        message: { role: 'assistant', content: [toolUseBlock(call, dialect, inputJson)] },
      });
    },
    toolResults(results) {
      if (results.length === 0) return;
      append({
        type: 'user',
        message: {
          role: 'user',
          content: results.map((result) => ({
            type: 'tool_result',
            tool_use_id: result.callId,
            content: summarizeText(result.content, { headBytes: half, tailBytes: half }),
            is_error: result.isError,
          })),
        },
      });
    },
    close() {
      if (fd === undefined) return;
      const closing = fd;
      fd = undefined;
      fs.closeSync(closing);
    },
  };
}

// A model can send an input JSON.stringify cannot write (nested too deep for the stack): the line
// is still written, with a note in place of that input. The depth is
// checked first (a walk without recursion), so the note never depends on where the stack happens
// to overflow. Without readers the input is a plain copy made from its JSON (no toJSON runs twice).
function inputOf(
  input: unknown,
  readers: boolean,
  inputJson: string | undefined,
): { input: unknown } | { note: string } {
  if (jsonValueDepth(input) > MAX_JSON_DEPTH) {
    return { note: `nested more than ${MAX_JSON_DEPTH} levels deep; not written` };
  }
  if (readers) return { input };
  try {
    return { input: JSON.parse(inputJson ?? JSON.stringify(input) ?? 'null') };
  } catch (error) {
    return { note: (error as Error).message };
  }
}

// The line as JSON; an input JSON.stringify refuses (a BigInt, a cycle) is replaced by a note.
function lineJson(line: Record<string, unknown>): string {
  try {
    return JSON.stringify(line);
  } catch (error) {
    return JSON.stringify(withNotes(line, (error as Error).message));
  }
}

function withNotes(line: Record<string, unknown>, note: string): Record<string, unknown> {
  const message = line.message as { role: string; content: unknown };
  if (!Array.isArray(message.content)) return line;
  const content = message.content.map((block: Record<string, unknown>) => {
    if (block.type !== 'tool_use') return block;
    try {
      JSON.stringify(block.input);
      return block;
    } catch {
      return { ...block, input: { unserializable_input: note } };
    }
  });
  return { ...line, message: { ...message, content } };
}
