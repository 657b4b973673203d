import { PLAIN_NAME_PATTERN } from '@soong-agent/matcher/internal';
import { parseMcpToolName } from '@soong-agent/protocol';
import { RiskClassSchema } from '@soong-agent/protocol/internal';
import { RUN_LIMITS } from '@soong-agent/runner/defaults';
import { z } from 'zod';
import {
  MAX_HOOK_TIMEOUT_SECONDS,
  MIN_TIMEOUT_SECONDS,
  NO_NUL,
  timeoutSecondsSchema,
} from './hooks-file-schema.js';

/** The most seconds a declarative tool may run (spec §3). */
export const MAX_TOOL_TIMEOUT_SECONDS = 3600;

/** The seconds a declarative tool (and the reference agent's `bash`) may run by default (spec §3). */
export const DEFAULT_TOOL_TIMEOUT_SECONDS = 120;

/** Seconds a model call may go without a stream event before it fails (spec §9). */
export const DEFAULT_MODEL_STREAM_IDLE_TIMEOUT_SECONDS = 300;
/** Seconds one model call may take in all, retries included (spec §9; the vendors' SDKs' 10 minutes). */
export const DEFAULT_MODEL_REQUEST_TIMEOUT_SECONDS = 600;
/** Bytes one model answer may stream (spec §9). */
export const DEFAULT_MODEL_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;
/** The longest `stream_idle_timeout` / `request_timeout` accepted: a day. */
const MAX_MODEL_TIMEOUT_SECONDS = 86_400;
/** The largest `max_response_bytes` accepted: 1 GiB. */
const MAX_MODEL_RESPONSE_BYTES = 1024 * 1024 * 1024;

const EnvNameSchema = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/)
  .describe('an environment variable name');

const PermissionSchema = z.enum(['allow', 'ask', 'deny']);

const ParameterSchema = z.strictObject({
  type: z.enum(['string', 'number', 'boolean']).describe('"string", "number" or "boolean"'),
  description: z.string().optional().describe('a description of the parameter, for the model'),
  required: z.boolean().default(false).describe('true or false: whether the model must pass it'),
});

const ToolSchema = z.strictObject({
  name: z
    .string()
    .regex(/^[a-z][a-z0-9_]*$/)
    .describe('a tool name: a lowercase letter, then lowercase letters, digits or _'),
  description: z.string().regex(/\S/).describe('a description of the tool, for the model'),
  command: z
    .union([z.string().regex(/\S/).regex(NO_NUL), z.array(z.string().min(1).regex(NO_NUL)).min(1)])
    .describe(
      'a shell string (/bin/sh -c) or a non-empty argv array (no shell), without NUL bytes',
    ),
  risk: RiskClassSchema.describe('"readonly", "write" or "dangerous"'),
  tags: z
    .array(z.string().regex(PLAIN_NAME_PATTERN))
    .default([])
    .describe('tags for hook matchers (the risk class is always one)'),
  timeout: timeoutSecondsSchema(MAX_TOOL_TIMEOUT_SECONDS).default(DEFAULT_TOOL_TIMEOUT_SECONDS),
  parameters: z
    .record(
      z
        .string()
        .regex(/^[A-Za-z0-9_.-]{1,64}$/)
        .describe('a parameter name: letters, digits, _ . - (at most 64)'),
      ParameterSchema,
    )
    .default({})
    .describe('a table of parameters, by name'),
});

const McpServerSchema = z.strictObject({
  risk: RiskClassSchema.optional().describe(
    '"readonly", "write" or "dangerous": the risk class of the server\'s tools (default "dangerous")',
  ),
  tools: z
    .record(
      z.string().min(1).describe('a tool name of the server'),
      z.strictObject({
        risk: RiskClassSchema.describe('"readonly", "write" or "dangerous"'),
      }),
    )
    .default({})
    .describe('[mcp.<NAME>.tools.<tool>] tables: the risk class of one tool'),
});

/**
 * `[tools]` as a table: `known` lists the tool names a host declares (an AI SDK app's tools), so
 * `hooks validate | list | explain | test` accept them (spec §11). Parsed to an empty list of
 * declarative tools carrying `known`: read it with `knownToolNames`.
 */
const KnownToolsSchema = z
  .strictObject({
    known: z
      .array(z.string().regex(PLAIN_NAME_PATTERN).describe('a tool name'))
      .default([])
      .describe('tool names a host declares (letters, digits, _ . : -)'),
  })
  .transform(({ known }) => Object.assign([] as DeclarativeToolConfig[], { known }));

/** config.toml; every key optional, every default filled in. The source of `schemas/config.schema.json`. */
export const ConfigFileSchema = z
  .strictObject({
    hooks: z
      .strictObject({
        enabled: z
          .boolean()
          .default(true)
          .describe('true or false (false switches all user hooks off)'),
        default_timeout: timeoutSecondsSchema(MAX_HOOK_TIMEOUT_SECONDS).default(30),
        on_failure: z
          .enum(['ignore', 'deny'])
          .default('ignore')
          .describe('"ignore" or "deny": default policy when a hook fails'),
        stop_loop_limit: z
          .int()
          .min(0)
          .default(5)
          .describe('an integer ≥ 0, the Stop denials honoured per loop (0: no limit)'),
        inline_result_bytes: z
          .int()
          .positive()
          .default(16384)
          .describe(
            'an integer > 0 (bytes; larger tool results and inputs reach hooks as artifact refs)',
          ),
        deliver_context: z
          .boolean()
          .default(false)
          .describe(
            'true or false (true: context a hook adds reaches the model with its next request, spec §13.1)',
          ),
      })
      .prefault({}),
    runner: z
      .strictObject({
        env_allowlist: z
          .array(EnvNameSchema)
          .default([])
          .describe('environment variable names added to the pinned default allowlist'),
        env_exclude: z
          .array(EnvNameSchema)
          .default([])
          .describe('environment variable names removed from the allowlist'),
        max_output_bytes: z
          .int()
          .positive()
          .max(RUN_LIMITS.maxOutputBytes.max)
          .default(1048576)
          .describe(
            `an integer from 1 to ${RUN_LIMITS.maxOutputBytes.max} (bytes kept in memory per stream)`,
          ),
        kill_grace_ms: z
          .int()
          .min(RUN_LIMITS.killGraceMs.min)
          .max(RUN_LIMITS.killGraceMs.max)
          .default(1000)
          .describe(
            `an integer from ${RUN_LIMITS.killGraceMs.min} to ${RUN_LIMITS.killGraceMs.max} (milliseconds between SIGTERM and SIGKILL)`,
          ),
      })
      .prefault({}),
    permissions: z
      .strictObject({
        readonly: PermissionSchema.default('allow').describe('"allow", "ask" or "deny"'),
        write: PermissionSchema.default('ask').describe('"allow", "ask" or "deny"'),
        dangerous: PermissionSchema.default('ask').describe('"allow", "ask" or "deny"'),
      })
      .prefault({}),
    model: z
      .strictObject({
        provider: z
          .string()
          .regex(/\S/)
          .optional()
          .describe('a model provider name: "scripted", "openai" or "anthropic"'),
        script: z
          .string()
          .regex(/\S/)
          .optional()
          .describe('a script file for the scripted provider, relative to the agent home'),
        model: z
          .string()
          .regex(/\S/)
          .optional()
          .describe('a model name of the provider, e.g. "gpt-4.1" (openai, anthropic)'),
        base_url: z
          .url({ protocol: /^https?$/ })
          .optional()
          .describe("an http(s) URL of the provider's API (default: the vendor's)"),
        api_key_env: EnvNameSchema.optional().describe(
          'the environment variable holding the API key (default OPENAI_API_KEY / ANTHROPIC_API_KEY)',
        ),
        max_tokens: z
          .int()
          .min(1)
          .default(4096)
          .describe('an integer ≥ 1 (most tokens of one model answer)'),
        stream_idle_timeout: timeoutSecondsSchema(MAX_MODEL_TIMEOUT_SECONDS)
          .default(DEFAULT_MODEL_STREAM_IDLE_TIMEOUT_SECONDS)
          .describe(
            `a number of seconds from ${MIN_TIMEOUT_SECONDS} to ${MAX_MODEL_TIMEOUT_SECONDS}: how long a model call may wait for the next stream event (keep-alives do not count) before it fails`,
          ),
        request_timeout: timeoutSecondsSchema(MAX_MODEL_TIMEOUT_SECONDS)
          .default(DEFAULT_MODEL_REQUEST_TIMEOUT_SECONDS)
          .describe(
            `a number of seconds from ${MIN_TIMEOUT_SECONDS} to ${MAX_MODEL_TIMEOUT_SECONDS}: how long one model call may take in all, retries included`,
          ),
        max_response_bytes: z
          .int()
          .min(1024)
          .max(MAX_MODEL_RESPONSE_BYTES)
          .default(DEFAULT_MODEL_MAX_RESPONSE_BYTES)
          .describe(
            `an integer from 1024 to ${MAX_MODEL_RESPONSE_BYTES} (bytes one model answer may stream before the call fails)`,
          ),
      })
      .prefault({}),
    tools: z
      .union([z.array(ToolSchema), KnownToolsSchema])
      .default([])
      .describe(
        '[[tools]] entries: declarative tools; or a [tools] table whose `known` lists the tool names a host declares',
      ),
    mcp: z
      .record(
        z
          .string()
          .regex(PLAIN_NAME_PATTERN)
          .describe('an MCP server name (as in mcp__<NAME>__<tool>)'),
        McpServerSchema,
      )
      .default({})
      .describe('[mcp.<NAME>] tables: risk classes of the tools of an MCP server behind mcp-proxy'),
  })
  .describe('soong-agent config.toml, read once when a session starts');

/** config.toml with every default filled in; snake_case keys as in the file. */
export type Settings = z.output<typeof ConfigFileSchema>;

/** One `[[tools]]` entry with defaults filled in. */
export type DeclarativeToolConfig = z.output<typeof ToolSchema>;

/**
 * The tool names a host declares for the checks (spec §11): `[tools] known = [...]`. MCP tools
 * (`mcp__<server>__<tool>`) of a server listed under `[mcp.<NAME>]` are accepted by name too (see
 * `isDeclaredMcpTool`).
 */
export function knownToolNames(settings: Settings): readonly string[] {
  const tools = settings.tools as DeclarativeToolConfig[] & { known?: readonly string[] };
  return tools.known ?? [];
}

/** True when `tool` is `mcp__<server>__<tool>` of a server listed under `[mcp.<NAME>]`. */
export function isDeclaredMcpTool(settings: Settings, tool: string): boolean {
  const server = parseMcpToolName(tool)?.server;
  return server !== undefined && Object.hasOwn(settings.mcp, server);
}
