import fs from 'node:fs';
import path from 'node:path';
import { claudeCodeView, toClaudeCodeToolInput } from '@soong-agent/dialects/internal';
import { jsonValueDepth, MAX_JSON_DEPTH } from '@soong-agent/protocol';
import type { ToolDialectView } from './hook-engine.js';
import { LoopAdapterError } from './loop-adapter-error.js';
import { summarizeText } from './summarize-text.js';
import type { ToolCall, ToolResult } from './tool-batch.js';

/**
 * A session transcript in Claude Code's JSON-lines format (SPEC §7), the file `transcript_path`
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
   * hook is asked about, whatever the host. `dialect` is how Claude Code sees a host-named tool.
   */
  toolUse(call: ToolCall, dialect?: ToolDialectView): void;
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
  // Calls whose tool_use block is written (ids are unique in a session).
  const written = new Set<string>();
  const toolUseBlock = (call: ToolCall, dialect?: ToolDialectView) => {
    written.add(call.id);
    const declared = dialect?.names?.['claude-code'];
    const seen = claudeCodeView(call.name, call.input, {
      ...(declared === undefined ? {} : { name: declared }),
      ...(dialect?.input === undefined ? {} : { input: dialect.input }),
    });
    return {
      type: 'tool_use',
      id: call.id,
      name: seen.name,
      input: serializable(toClaudeCodeToolInput(seen.canonical, seen.input, options.projectDir)),
    };
  };
  const append = (line: Record<string, unknown>) => {
    if (fd === undefined) {
      throw new LoopAdapterError({
        code: 'SINK_CLOSED',
        message: `transcript ${absolute} is closed`,
      });
    }
    fs.writeSync(fd, `${JSON.stringify(line)}\n`);
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
    toolUse(call, dialect) {
      if (written.has(call.id)) return;
      append({
        type: 'assistant',
        message: { role: 'assistant', content: [toolUseBlock(call, dialect)] },
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
// is still written, with a note in place of that input. The depth is checked first (a walk without
// recursion), so the note never depends on where the stack happens to overflow.
function serializable(input: unknown): unknown {
  if (jsonValueDepth(input) > MAX_JSON_DEPTH)
    return { unserializable_input: `nested more than ${MAX_JSON_DEPTH} levels deep; not written` };
  try {
    JSON.stringify(input);
    return input;
  } catch (error) {
    return { unserializable_input: (error as Error).message };
  }
}
