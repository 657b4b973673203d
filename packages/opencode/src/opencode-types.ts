// The part of OpenCode's plugin API (`@opencode-ai/plugin` 1.18.33, `@opencode-ai/sdk` client) this
// package uses, written out structurally so that installing it does not pull OpenCode's own
// dependencies; OpenCode hands a plugin more than this, and the plugin uses nothing else.

/** A part of a message as OpenCode stores it (only what the plugin reads). */
export interface OpencodePart {
  type: string;
  text?: string;
  synthetic?: boolean;
  ignored?: boolean;
  callID?: string;
  tool?: string;
  sessionID?: string;
  messageID?: string;
  state?: { status: string; error?: string; output?: string };
  [key: string]: unknown;
}

/** A message with its parts, as `experimental.chat.messages.transform` and `session.messages` give it. */
export interface OpencodeMessage {
  info: { id: string; role: string; sessionID: string; [key: string]: unknown };
  parts: OpencodePart[];
}

/** An SDK call's result (`{ data }` or `{ error }`; the SDK does not throw by default). */
interface SdkResult<T> {
  data?: T;
  error?: unknown;
}

/** The SDK client a plugin gets (`createOpencodeClient`), as far as this plugin calls it. */
export interface OpencodeClient {
  app: {
    log(options: {
      body: {
        service: string;
        level: 'debug' | 'info' | 'error' | 'warn';
        message: string;
        extra?: Record<string, unknown>;
      };
    }): Promise<SdkResult<unknown>>;
  };
  session: {
    messages(options: { path: { id: string } }): Promise<SdkResult<OpencodeMessage[]>>;
    promptAsync(options: {
      path: { id: string };
      body: { parts: { type: 'text'; text: string; synthetic?: boolean }[] };
    }): Promise<SdkResult<unknown>>;
  };
  config: {
    get(): Promise<SdkResult<{ mcp?: Record<string, unknown> }>>;
  };
}

/** What OpenCode passes a plugin's factory. */
export interface OpencodePluginInput {
  client: OpencodeClient;
  /** The directory OpenCode runs in (the project). */
  directory: string;
  worktree: string;
  [key: string]: unknown;
}

/** An event on OpenCode's bus. */
export interface OpencodeEvent {
  type: string;
  properties: Record<string, unknown>;
}

/** The hooks this plugin implements (names and signatures as in `@opencode-ai/plugin`'s `Hooks`). */
export interface OpencodeHooks {
  event?: (input: { event: OpencodeEvent }) => Promise<void>;
  'chat.message'?: (
    input: { sessionID: string; agent?: string; messageID?: string },
    output: { message: { id: string; sessionID: string }; parts: OpencodePart[] },
  ) => Promise<void>;
  'chat.params'?: (input: { sessionID: string }, output: Record<string, unknown>) => Promise<void>;
  'tool.execute.before'?: (
    input: { tool: string; sessionID: string; callID: string },
    output: { args: unknown },
  ) => Promise<void>;
  'tool.execute.after'?: (
    input: { tool: string; sessionID: string; callID: string; args: unknown },
    output: { title: string; output: string; metadata: unknown },
  ) => Promise<void>;
  'experimental.chat.messages.transform'?: (
    input: Record<string, never>,
    output: { messages: OpencodeMessage[] },
  ) => Promise<void>;
  dispose?: () => Promise<void>;
}

/** An OpenCode plugin: `(input, options) => Promise<Hooks>` (`Plugin` in `@opencode-ai/plugin`). */
export type OpencodePlugin = (
  input: OpencodePluginInput,
  options?: Record<string, unknown>,
) => Promise<OpencodeHooks>;
