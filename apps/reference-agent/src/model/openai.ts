import {
  type ApiConnection,
  completeStreaming,
  MalformedStreamError,
  parseEventJson,
  parseToolArguments,
  schemaForApi,
  stringOf,
  toolInputForApi,
} from './http.js';
import type {
  ChatMessage,
  ModelProvider,
  ModelRequest,
  ModelResponse,
  ModelToolCall,
  ToolSpec,
} from './provider.js';

/** The vendor's API; `base_url` replaces it for compatible servers (it ends before `/chat/completions`). */
export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

/** What the `openai` provider needs. */
export interface OpenAIProviderOptions extends ApiConnection {
  model: string;
  /** @default OPENAI_DEFAULT_BASE_URL */
  baseUrl?: string;
  /** `max_tokens` of config.toml. */
  maxTokens: number;
}

/** A chat-completions message as sent. */
type OpenAIMessage =
  | { role: 'user'; content: string }
  | {
      role: 'assistant';
      content: string | null;
      tool_calls?: {
        id: string;
        type: 'function';
        function: { name: string; arguments: string };
      }[];
    }
  | { role: 'tool'; tool_call_id: string; content: string };

/** Text the model reads for an `is_error` result (chat completions has no error flag). */
export const OPENAI_ERROR_PREFIX = 'Error: ';

/**
 * Our conversation in chat-completions form: user and Stop-continuation messages as `user`,
 * assistant text with its `tool_calls` (input as JSON text), each tool result as a `tool` message
 * with its `tool_call_id`; an `is_error` result's content starts with {@link OPENAI_ERROR_PREFIX}.
 */
export function toOpenAIMessages(messages: readonly ChatMessage[]): OpenAIMessage[] {
  return messages.map((message): OpenAIMessage => {
    if (message.role === 'user') return { role: 'user', content: message.content };
    if (message.role === 'tool') {
      return {
        role: 'tool',
        tool_call_id: message.callId,
        content: message.isError ? `${OPENAI_ERROR_PREFIX}${message.content}` : message.content,
      };
    }
    const calls = message.toolCalls ?? [];
    if (calls.length === 0) return { role: 'assistant', content: message.content };
    return {
      role: 'assistant',
      content: message.content === '' ? null : message.content,
      tool_calls: calls.map((call) => ({
        id: call.id ?? '',
        type: 'function',
        function: {
          name: call.name,
          arguments:
            typeof call.input === 'string'
              ? call.input
              : JSON.stringify(toolInputForApi(call.input ?? {})),
        },
      })),
    };
  });
}

/** Our tools as chat-completions `function` tools. */
export function toOpenAITools(tools: readonly ToolSpec[]): unknown[] {
  return tools.map((tool) => ({
    type: 'function',
    function: {
      name: tool.name,
      description: tool.description,
      parameters: schemaForApi(tool.inputSchema),
    },
  }));
}

/** Joins the streamed deltas of one answer. */
function createAnswer(onText: ((text: string) => void) | undefined) {
  let text = '';
  let finished = false;
  let done = false;
  const calls: { id?: string; name: string; arguments: string }[] = [];
  return {
    onEvent(data: string) {
      if (done) return;
      if (data.trim() === '[DONE]') {
        done = true;
        return;
      }
      const chunk = parseEventJson(data);
      if (chunk.error !== undefined) {
        const error = chunk.error as { message?: unknown } | string;
        const message = typeof error === 'string' ? error : stringOf(error?.message);
        throw new MalformedStreamError(
          `the API sent an error mid-answer: ${message ?? 'no message'}`,
        );
      }
      const choices = chunk.choices;
      if (!Array.isArray(choices)) throw new MalformedStreamError('a chunk has no "choices" array');
      for (const choice of choices as Record<string, unknown>[]) {
        if (typeof choice !== 'object' || choice === null) continue;
        if ((choice.index ?? 0) !== 0) continue;
        const delta = (choice.delta ?? {}) as Record<string, unknown>;
        const content = stringOf(delta.content);
        if (content !== undefined && content !== '') {
          text += content;
          onText?.(content);
        }
        if (Array.isArray(delta.tool_calls)) {
          for (const part of delta.tool_calls as Record<string, unknown>[]) {
            const index = typeof part.index === 'number' ? part.index : calls.length;
            if (!Number.isInteger(index) || index < 0 || index > calls.length)
              throw new MalformedStreamError(`a tool call delta has index ${String(part.index)}`);
            const fn = (part.function ?? {}) as Record<string, unknown>;
            let call = calls[index];
            if (call === undefined) {
              call = { name: '', arguments: '' };
              calls[index] = call;
            }
            const id = stringOf(part.id);
            if (id !== undefined && id !== '') call.id = id;
            call.name += stringOf(fn.name) ?? '';
            call.arguments += stringOf(fn.arguments) ?? '';
          }
        }
        if (typeof choice.finish_reason === 'string') finished = true;
      }
    },
    result(): ModelResponse {
      if (!done && !finished)
        throw new MalformedStreamError('the stream ended before the answer was complete');
      const toolCalls = calls.map((call): ModelToolCall => {
        if (call.name === '') throw new MalformedStreamError('a tool call came without a name');
        return {
          ...(call.id === undefined ? {} : { id: call.id }),
          name: call.name,
          input: parseToolArguments(call.arguments),
        };
      });
      return { text, toolCalls };
    },
  };
}

/**
 * The `openai` provider: one streamed chat-completions call per model turn (`POST
 * {base_url}/chat/completions`, bearer key), so any server that speaks that API works. Text goes
 * to `onText` as it arrives; the tool calls come back with their ids. `max_completion_tokens` is
 * sent to the vendor's API, `max_tokens` to other servers (most local servers know only that).
 */
export function createOpenAIProvider(options: OpenAIProviderOptions): ModelProvider {
  const base = (options.baseUrl ?? OPENAI_DEFAULT_BASE_URL).replace(/\/+$/, '');
  const url = `${base}/chat/completions`;
  const vendorApi = options.baseUrl === undefined || new URL(base).host === 'api.openai.com';
  return {
    id: `openai:${options.model}`,
    async complete(request: ModelRequest): Promise<ModelResponse> {
      return completeStreaming(
        {
          vendor: 'openai',
          url,
          headers: { authorization: `Bearer ${options.apiKey}` },
          body: {
            model: options.model,
            messages: [
              ...(request.system === undefined
                ? []
                : [{ role: 'system' as const, content: request.system }]),
              ...toOpenAIMessages(request.messages),
            ],
            ...(request.tools.length === 0 ? {} : { tools: toOpenAITools(request.tools) }),
            [vendorApi ? 'max_completion_tokens' : 'max_tokens']: options.maxTokens,
            stream: true,
          },
        },
        options,
        request,
        createAnswer,
      );
    },
  };
}
