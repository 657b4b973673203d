/**
 * The model behind the agent loop. The loop talks to a model only through this interface, so real
 * providers (OpenAI, Anthropic) slot in without touching the loop.
 */

/** One message of the conversation, in the order it was sent. */
export type ChatMessage =
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls?: readonly ModelToolCall[] }
  | { role: 'tool'; callId: string; name: string; content: string; isError: boolean };

/** A tool call the model asked for. */
export interface ModelToolCall {
  /** The call id; the loop assigns `call_<n>` when the provider gives none. */
  id?: string;
  /** The canonical tool name. */
  name: string;
  /** The tool input, a JSON object. */
  input: unknown;
}

/** A tool as offered to the model: name, description and a JSON Schema of its input. */
export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema (draft 2020-12) of the input object. */
  inputSchema: Record<string, unknown>;
}

/** What one model call gets. */
export interface ModelRequest {
  /** The system message: where the agent works and with which tools. @default undefined */
  system?: string;
  messages: readonly ChatMessage[];
  tools: readonly ToolSpec[];
  signal?: AbortSignal;
  /** Streaming providers call this with each piece of text as it arrives. @default undefined */
  onText?: (text: string) => void;
}

/** What one model call returns: text and zero or more tool calls. No tool calls means the model stops. */
export interface ModelResponse {
  text: string;
  toolCalls: ModelToolCall[];
}

/** A model provider: `scripted`, `openai` or `anthropic`. */
export interface ModelProvider {
  /** e.g. `scripted:/abs/session.json` or `openai:gpt-4.1`, shown in the timeline; never holds a key. */
  readonly id: string;
  /** One model turn. Rejects with a `CliError` when the provider cannot go on (e.g. an unmet `expect`). */
  complete(request: ModelRequest): Promise<ModelResponse>;
}
