import {
  ABORTED_TOOL_TEXT,
  type HookSessionHandle,
  hookContextToMessage,
  openTelemetryToolCalls,
  summarizeText,
  type ToolCall,
  type ToolExecutionResult,
  type ToolResult,
} from '@soong-agent/loop-adapter';
import type { LoopEndReason } from '@soong-agent/protocol';
import { CliError } from '../errors.js';
import { createCallIdGenerator } from '../model/call-ids.js';
import type { ChatMessage, ModelProvider, ToolSpec } from '../model/provider.js';
import type { AgentTool } from '../tools/types.js';

/** Characters of a text kept in a record (`model_turn.text`, `request_tail.text`) before summarising. */
export const RECORD_TEXT_MAX_CHARS = 4096;
/** Default of `--max-turns`: model calls in one loop before it ends with `max_turns`. */
export const DEFAULT_MAX_TURNS = 20;

/** Everything one agent loop needs. */
export interface AgentLoopOptions {
  /** The model. */
  provider: ModelProvider;
  /** The session's tools by name (offered to the model in this order). */
  tools: ReadonlyMap<string, AgentTool>;
  /**
   * The hook session (openHookSession): its sink takes the records, its tool gate runs each turn's
   * calls (permission included), its Stop handling and transcript serve the loop.
   */
  session: HookSessionHandle;
  /** The conversation so far, ending with the user prompt; the loop appends to it. */
  messages: ChatMessage[];
  /** Model calls before the loop ends with `max_turns`. @default DEFAULT_MAX_TURNS */
  maxTurns?: number;
  /** Aborts the loop: in-flight hooks and tools are killed, the loop ends with `aborted`. @default undefined */
  signal?: AbortSignal;
  /** The model's text as it streams in (streaming providers only). @default undefined */
  onText?: (text: string) => void;
}

/** How a loop ended. `error` is set when the reason is `error`. */
export interface AgentLoopResult {
  reason: LoopEndReason;
  /** The last non-empty assistant text. */
  finalText: string;
  turns: number;
  error?: unknown;
}

/**
 * Closes tool calls an aborted loop left without results (the abort came between the model's
 * answer and the tool batch): each gets an `is_error` result `aborted`, so the conversation can go
 * on (APIs refuse a tool call without its result).
 */
export function closeOpenToolCalls(messages: ChatMessage[]): void {
  const last = messages.findLastIndex((message) => message.role === 'assistant');
  const assistant = messages[last];
  if (assistant?.role !== 'assistant') return;
  const answered = new Set(
    messages
      .slice(last + 1)
      .flatMap((message) => (message.role === 'tool' ? [message.callId] : [])),
  );
  for (const call of assistant.toolCalls ?? []) {
    if (call.id === undefined || answered.has(call.id)) continue;
    messages.push({
      role: 'tool',
      callId: call.id,
      name: call.name,
      content: ABORTED_TOOL_TEXT,
      isError: true,
    });
  }
}

/** Bounds a text for an event record: head and tail with counts when it is long. */
export function boundRecordText(text: string): string {
  return text.length <= RECORD_TEXT_MAX_CHARS
    ? text
    : summarizeText(text, { headBytes: 2048, tailBytes: 1024 });
}

function messageText(message: ChatMessage | undefined): {
  role: 'user' | 'assistant' | 'tool';
  text: string;
} {
  if (message === undefined) return { role: 'user', text: '' };
  return { role: message.role, text: boundRecordText(message.content) };
}

/**
 * The system message sent with every model call: short, and only what the model cannot know
 * otherwise — where it works and with which tools (hooks and permissions may refuse a call).
 */
export function systemMessage(projectDir: string, toolNames: readonly string[]): string {
  return [
    `You are soong-agent, a coding agent working in the project directory ${projectDir}; relative paths are resolved against it.`,
    `Tools: ${toolNames.join(', ')}.`,
    'Hooks and permissions may refuse a tool call; its result then says why.',
  ].join('\n');
}

/**
 * Appends the hook-context nodes the session's hooks added since the last call (spec §13.1,
 * `session.takeContext()`) to `messages`, each as a synthetic **user** message, in order.
 */
export function appendHookContext(session: HookSessionHandle, messages: ChatMessage[]): void {
  for (const node of session.takeContext()) messages.push(hookContextToMessage(node));
}

/**
 * One agent loop (the handling of one user prompt, spec §4): model call → `model_turn` → tool
 * batch on the session's tool gate (results back to the model as `tool` messages) or, without tool
 * calls, Stop handling (a prevention appends the hook-context node as a synthetic user message and
 * the model continues) → `loop_ended`. Never throws for what the model, a hook or a tool does: a
 * failing provider ends the loop with `error` and the error in the result.
 */
export async function runAgentLoop(options: AgentLoopOptions): Promise<AgentLoopResult> {
  const { provider, session, signal, messages } = options;
  const { sink, transcript } = session;
  const maxTurns = options.maxTurns ?? DEFAULT_MAX_TURNS;
  // Ids the provider leaves out become call_1, call_2, …; a provider-given id used twice is an error.
  const ids = createCallIdGenerator();
  const specs: ToolSpec[] = [...options.tools.values()].map((tool) => ({
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema,
  }));
  const system = systemMessage(
    session.engine.projectDir,
    specs.map((spec) => spec.name),
  );
  let finalText = '';
  let turn = 0;
  const aborted = () => signal?.aborted === true;
  const end = (reason: LoopEndReason, error?: unknown): AgentLoopResult => {
    sink.emit({ type: 'loop_ended', reason });
    return { reason, finalText, turns: turn, ...(error === undefined ? {} : { error }) };
  };

  try {
    for (;;) {
      if (aborted()) return end('aborted');
      if (turn >= maxTurns) return end('max_turns');
      // spec §13.1: context the hooks added since the last request (the prompt's, each tool
      // call's after its result), as user messages; none unless [hooks] deliver_context = true.
      appendHookContext(session, messages);
      const tail = messageText(messages[messages.length - 1]);
      const response = await provider.complete({
        system,
        messages,
        tools: specs,
        ...(signal === undefined ? {} : { signal }),
        ...(options.onText === undefined ? {} : { onText: options.onText }),
      });
      const calls: ToolCall[] = response.toolCalls.map((call) => {
        if (call.id !== undefined && ids.taken.has(call.id)) {
          throw new CliError({
            code: 'RUNTIME',
            message: `the model used call id "${call.id}" twice in this session; call ids must be unique`,
          });
        }
        const id = call.id ?? ids.next();
        ids.taken.add(id);
        return { id, name: call.name, input: call.input ?? {} };
      });
      sink.emit({
        type: 'model_turn',
        turn,
        request_tail: tail,
        text: boundRecordText(response.text),
        tool_calls: calls.length,
      });
      turn += 1;
      messages.push({
        role: 'assistant',
        content: response.text,
        ...(calls.length > 0 ? { toolCalls: calls } : {}),
      });
      // The transcript Claude Code hooks read (spec §7): the turn before its calls' hooks run.
      transcript.assistant(response.text, calls);
      if (response.text.trim() !== '') finalText = response.text;
      if (aborted()) return end('aborted');

      if (calls.length > 0) {
        // One gate per turn: spec §4's deny state, and each result in the transcript as it comes.
        const signalOption = signal === undefined ? {} : { signal };
        const gate = session.toolGate(signalOption);
        const runOptions = { ...signalOption, telemetry: openTelemetryToolCalls };
        const results: ToolResult[] = [];
        for (const call of calls) {
          results.push(
            await gate.run(
              call,
              (_input, context) => runTool(options.tools, call, context),
              runOptions,
            ),
          );
        }
        for (const result of results) {
          messages.push({
            role: 'tool',
            callId: result.callId,
            name: result.name,
            // Bounded by the gate (spec §11): what the model must see.
            content: result.content,
            isError: result.isError,
          });
        }
        continue;
      }

      // A prevented stop's hook-context message is in the transcript already (session.stop).
      const decision = await session.stop(response.text, signal === undefined ? {} : { signal });
      if (aborted()) return end('aborted');
      if (!decision.continue) return end('completed');
      messages.push(hookContextToMessage(decision.node));
    }
  } catch (error) {
    return end(aborted() ? 'aborted' : 'error', error);
  }
}

// A call the gate let run: the gate found it in the session's registry (it has a risk class).
async function runTool(
  tools: ReadonlyMap<string, AgentTool>,
  call: ToolCall,
  context: { signal?: AbortSignal; callId: string },
): Promise<ToolExecutionResult> {
  const tool = tools.get(call.name);
  if (tool === undefined) throw new Error(`no tool ${JSON.stringify(call.name)} in this session`);
  const { signal, callId } = context;
  return tool.execute(call.input, signal === undefined ? { callId } : { signal, callId });
}
