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

/** The vendor's API; `base_url` replaces it (it ends before `/v1/messages`). */
export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com';
/** The `anthropic-version` header sent. */
export const ANTHROPIC_API_VERSION = '2023-06-01';

/** What the `anthropic` provider needs. */
export interface AnthropicProviderOptions extends ApiConnection {
  model: string;
  /** @default ANTHROPIC_DEFAULT_BASE_URL */
  baseUrl?: string;
  /** `max_tokens` of config.toml. */
  maxTokens: number;
}

type ContentBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown }
  | { type: 'tool_result'; tool_use_id: string; content: string; is_error?: true };

interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: ContentBlock[];
}

/** Characters of arguments that were not a JSON object kept in the note sent in their place. */
const NOT_AN_OBJECT_HEAD_CHARS = 1024;

/**
 * A `tool_use` block's input: the call's input ({@link toolInputForApi}), or — the messages API
 * takes only a JSON object there and refuses the whole request otherwise — a note with the head of
 * arguments that were not one (text that did not parse, an array, a number).
 */
function anthropicInput(input: unknown): unknown {
  const value = toolInputForApi(input ?? {});
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return {
    not_sent: 'the arguments were not a JSON object',
    arguments_head: text.slice(0, NOT_AN_OBJECT_HEAD_CHARS),
  };
}

/**
 * Our conversation in messages-API form: user and Stop-continuation messages as `user` text
 * blocks; assistant text and `tool_use` blocks; the tool results of a batch as `tool_result`
 * blocks (`is_error: true` for errors, denials and skipped calls) in the user message that follows.
 * Consecutive blocks of one role share a message (the API wants the roles to alternate) and an
 * empty assistant text without tool calls is left out (the API refuses empty text).
 */
export function toAnthropicMessages(messages: readonly ChatMessage[]): AnthropicMessage[] {
  const result: AnthropicMessage[] = [];
  const add = (role: 'user' | 'assistant', blocks: ContentBlock[]) => {
    if (blocks.length === 0) return;
    const last = result[result.length - 1];
    if (last?.role === role) last.content.push(...blocks);
    else result.push({ role, content: blocks });
  };
  for (const message of messages) {
    if (message.role === 'user') {
      add('user', [{ type: 'text', text: message.content }]);
    } else if (message.role === 'tool') {
      add('user', [
        {
          type: 'tool_result',
          tool_use_id: message.callId,
          content: message.content,
          ...(message.isError ? { is_error: true as const } : {}),
        },
      ]);
    } else {
      const blocks: ContentBlock[] = [];
      if (message.content !== '') blocks.push({ type: 'text', text: message.content });
      for (const call of message.toolCalls ?? []) {
        blocks.push({
          type: 'tool_use',
          id: call.id ?? '',
          name: call.name,
          input: anthropicInput(call.input),
        });
      }
      add('assistant', blocks);
    }
  }
  return result;
}

/** Our tools as messages-API tools. */
export function toAnthropicTools(tools: readonly ToolSpec[]): unknown[] {
  return tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    input_schema: schemaForApi(tool.inputSchema),
  }));
}

/** Joins the streamed content blocks of one answer. */
function createAnswer(onText: ((text: string) => void) | undefined) {
  let text = '';
  let stopped = false;
  const blocks = new Map<number, { id?: string; name: string; json: string }>();
  const order: number[] = [];
  return {
    onEvent(data: string) {
      if (stopped) return;
      const event = parseEventJson(data);
      switch (event.type) {
        case 'content_block_start': {
          const block = (event.content_block ?? {}) as Record<string, unknown>;
          const index = event.index;
          if (typeof index !== 'number')
            throw new MalformedStreamError('content_block_start without an index');
          if (block.type === 'tool_use') {
            const name = stringOf(block.name);
            if (name === undefined || name === '')
              throw new MalformedStreamError('a tool_use block came without a name');
            const id = stringOf(block.id);
            blocks.set(index, { ...(id === undefined || id === '' ? {} : { id }), name, json: '' });
            order.push(index);
          } else if (block.type === 'text') {
            const initial = stringOf(block.text) ?? '';
            if (initial !== '') {
              text += initial;
              onText?.(initial);
            }
          }
          return;
        }
        case 'content_block_delta': {
          const delta = (event.delta ?? {}) as Record<string, unknown>;
          if (delta.type === 'text_delta') {
            const piece = stringOf(delta.text) ?? '';
            text += piece;
            if (piece !== '') onText?.(piece);
          } else if (delta.type === 'input_json_delta') {
            const block = typeof event.index === 'number' ? blocks.get(event.index) : undefined;
            if (block === undefined)
              throw new MalformedStreamError('input_json_delta for a block that is not a tool_use');
            block.json += stringOf(delta.partial_json) ?? '';
          }
          return;
        }
        case 'message_stop':
          stopped = true;
          return;
        case 'error': {
          const error = (event.error ?? {}) as Record<string, unknown>;
          throw new MalformedStreamError(
            `the API sent an error mid-answer: ${stringOf(error.type) ?? 'error'}: ${stringOf(error.message) ?? 'no message'}`,
          );
        }
        default:
          // message_start, content_block_stop, message_delta, ping, and types added later.
          return;
      }
    },
    result(): ModelResponse {
      if (!stopped) throw new MalformedStreamError('the stream ended before message_stop');
      const toolCalls = order.map((index): ModelToolCall => {
        const block = blocks.get(index) as { id?: string; name: string; json: string };
        return {
          ...(block.id === undefined ? {} : { id: block.id }),
          name: block.name,
          input: parseToolArguments(block.json),
        };
      });
      return { text, toolCalls };
    },
  };
}

/**
 * The `anthropic` provider: one streamed messages-API call per model turn (`POST
 * {base_url}/v1/messages`, `x-api-key`, `anthropic-version: 2023-06-01`). Text goes to `onText` as
 * it arrives; `tool_use` blocks come back as tool calls with their ids.
 */
export function createAnthropicProvider(options: AnthropicProviderOptions): ModelProvider {
  const base = (options.baseUrl ?? ANTHROPIC_DEFAULT_BASE_URL).replace(/\/+$/, '');
  const url = `${base}/v1/messages`;
  return {
    id: `anthropic:${options.model}`,
    async complete(request: ModelRequest): Promise<ModelResponse> {
      return completeStreaming(
        {
          vendor: 'anthropic',
          url,
          headers: { 'x-api-key': options.apiKey, 'anthropic-version': ANTHROPIC_API_VERSION },
          body: {
            model: options.model,
            max_tokens: options.maxTokens,
            ...(request.system === undefined ? {} : { system: request.system }),
            messages: toAnthropicMessages(request.messages),
            ...(request.tools.length === 0 ? {} : { tools: toAnthropicTools(request.tools) }),
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
