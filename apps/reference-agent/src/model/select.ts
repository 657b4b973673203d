import path from 'node:path';
import { CliError } from '../errors.js';
import { createAnthropicProvider } from './anthropic.js';
import { DEFAULT_MODEL_CALL_LIMITS } from './http.js';
import { createOpenAIProvider } from './openai.js';
import type { ModelProvider } from './provider.js';
import { createScriptedProvider, loadModelScript } from './scripted.js';

/** Providers known by name. */
export const KNOWN_PROVIDERS: readonly string[] = ['scripted', 'openai', 'anthropic'];

/** The env variable the vendor's SDK reads its base URL from when its code gives none. */
export const BASE_URL_ENV: Readonly<Record<string, string>> = {
  openai: 'OPENAI_BASE_URL',
  anthropic: 'ANTHROPIC_BASE_URL',
};

/** The env variable holding the key of each real provider unless `api_key_env` names another. */
export const DEFAULT_API_KEY_ENV: Readonly<Record<string, string>> = {
  openai: 'OPENAI_API_KEY',
  anthropic: 'ANTHROPIC_API_KEY',
};

const HOW_TO_CHOOSE =
  'pass --model openai:MODEL, --model anthropic:MODEL or --model scripted:FILE (relative to the current dir), or set [model] in config.toml:\n' +
  '  [model]\n  provider = "openai"   # or "anthropic", or "scripted" with script = "session.json"\n  model = "gpt-4.1"';

/** `[model]` of config.toml, as the loader returns it. */
export interface ModelSettings {
  provider?: string | undefined;
  script?: string | undefined;
  model?: string | undefined;
  base_url?: string | undefined;
  api_key_env?: string | undefined;
  max_tokens?: number | undefined;
  stream_idle_timeout?: number | undefined;
  request_timeout?: number | undefined;
  max_response_bytes?: number | undefined;
}

/**
 * The API key of a real provider from `env`, removed from `env` once read (children never see it,
 * and a later reader of the environment does not either). Missing or empty: `CliError` `RUNTIME`
 * (exit 1) naming the variable.
 */
export function takeApiKey(env: NodeJS.ProcessEnv, name: string, provider: string): string {
  const key = env[name];
  delete env[name];
  if (key === undefined || key.trim() === '') {
    throw new CliError({
      code: 'RUNTIME',
      message: `no API key for the ${provider} provider: set ${name} (or name another variable with api_key_env in [model] of config.toml)`,
    });
  }
  return key.trim();
}

/** `text` as an http(s) URL, or a `CliError` `USAGE` (exit 2) naming where it came from. */
function httpUrl(text: string, source: string): string {
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new CliError({
      code: 'USAGE',
      message: `${source} ${JSON.stringify(text)} is not an http(s) URL (e.g. http://127.0.0.1:8080/v1)`,
    });
  }
  return text;
}

/**
 * The API's address: `--base-url`, else `base_url` of `[model]`, else `OPENAI_BASE_URL` /
 * `ANTHROPIC_BASE_URL` (as the vendors' SDKs read them: only when the code gives none; blank is
 * unset), else the vendor's (undefined).
 */
function chooseBaseUrl(
  provider: string,
  flag: string | undefined,
  configured: string | undefined,
  env: NodeJS.ProcessEnv,
): string | undefined {
  if (flag !== undefined) return httpUrl(flag, '--base-url');
  if (configured !== undefined) return configured;
  const name = BASE_URL_ENV[provider] as string;
  const fromEnv = env[name]?.trim();
  return fromEnv === undefined || fromEnv === '' ? undefined : httpUrl(fromEnv, name);
}

/**
 * Picks the model: `--model` (`scripted:FILE`, FILE relative to `cwd`; `openai:MODEL`;
 * `anthropic:MODEL`) wins over `[model]` of config.toml (`script` relative to the agent home).
 * `base_url` and `api_key_env` of `[model]` apply when it names the same provider; the API's
 * address is `--base-url`, else that `base_url`, else `OPENAI_BASE_URL` / `ANTHROPIC_BASE_URL`; `max_tokens`
 * and the call bounds (`stream_idle_timeout`, `request_timeout`, `max_response_bytes`) always. The key is read from the env and removed from it ({@link takeApiKey}). No model, an
 * unknown provider or a bad scripted file is a `CliError` (exit 2) that says how to choose one; a
 * missing key is exit 1.
 */
export function selectModelProvider(options: {
  /** The `--model` flag. */
  flag?: string;
  /** `[model]` of config.toml. */
  settings: ModelSettings;
  home: string;
  cwd: string;
  /** `--base-url`: the API's address, over `base_url` of `[model]` and the env. @default undefined */
  baseUrlFlag?: string;
  /** Where the API key (and `OPENAI_BASE_URL` / `ANTHROPIC_BASE_URL`) are read from; the key is removed. @default process.env */
  env?: NodeJS.ProcessEnv;
}): ModelProvider {
  const env = options.env ?? process.env;
  let provider: string;
  let file: string | undefined;
  let model: string | undefined;
  if (options.flag !== undefined) {
    const colon = options.flag.indexOf(':');
    provider = colon === -1 ? options.flag : options.flag.slice(0, colon);
    const rest = colon === -1 ? '' : options.flag.slice(colon + 1);
    if (provider === 'scripted') {
      if (rest === '') {
        throw new CliError({
          code: 'USAGE',
          message: `--model scripted needs a file: --model scripted:FILE`,
        });
      }
      file = path.resolve(options.cwd, rest);
    } else if (provider === 'openai' || provider === 'anthropic') {
      if (rest.trim() === '') {
        throw new CliError({
          code: 'USAGE',
          message: `--model ${provider} needs a model name: --model ${provider}:MODEL`,
        });
      }
      model = rest;
    }
  } else if (options.settings.provider !== undefined) {
    provider = options.settings.provider;
    if (provider === 'scripted') {
      if (options.settings.script === undefined) {
        throw new CliError({
          code: 'NO_MODEL',
          message: `[model] provider = "scripted" needs script = "FILE" (relative to ${options.home}); or ${HOW_TO_CHOOSE}`,
        });
      }
      file = path.resolve(options.home, options.settings.script);
    } else if (provider === 'openai' || provider === 'anthropic') {
      model = options.settings.model;
      if (model === undefined) {
        throw new CliError({
          code: 'NO_MODEL',
          message: `[model] provider = "${provider}" needs model = "NAME" in config.toml, or pass --model ${provider}:MODEL`,
        });
      }
    }
  } else {
    throw new CliError({ code: 'NO_MODEL', message: `no model chosen: ${HOW_TO_CHOOSE}` });
  }
  if (provider === 'scripted' && file !== undefined) {
    if (options.baseUrlFlag !== undefined) {
      throw new CliError({
        code: 'USAGE',
        message:
          '--base-url is for the openai and anthropic providers; the scripted model has no API',
      });
    }
    return createScriptedProvider(loadModelScript(file));
  }
  if ((provider === 'openai' || provider === 'anthropic') && model !== undefined) {
    // base_url and api_key_env belong to the provider [model] names; max_tokens applies to any.
    const own = options.settings.provider === provider;
    const keyEnv =
      (own ? options.settings.api_key_env : undefined) ?? (DEFAULT_API_KEY_ENV[provider] as string);
    const baseUrl = chooseBaseUrl(
      provider,
      options.baseUrlFlag,
      own ? options.settings.base_url : undefined,
      env,
    );
    const common = {
      model,
      apiKey: takeApiKey(env, keyEnv, provider),
      keyEnv,
      maxTokens: options.settings.max_tokens ?? 4096,
      limits: {
        streamIdleTimeout:
          options.settings.stream_idle_timeout ?? DEFAULT_MODEL_CALL_LIMITS.streamIdleTimeout,
        requestTimeout:
          options.settings.request_timeout ?? DEFAULT_MODEL_CALL_LIMITS.requestTimeout,
        maxResponseBytes:
          options.settings.max_response_bytes ?? DEFAULT_MODEL_CALL_LIMITS.maxResponseBytes,
      },
      ...(baseUrl === undefined ? {} : { baseUrl }),
    };
    return provider === 'openai' ? createOpenAIProvider(common) : createAnthropicProvider(common);
  }
  throw new CliError({
    code: 'MODEL_UNAVAILABLE',
    message: `unknown model provider "${provider}" (known: ${KNOWN_PROVIDERS.join(', ')}); ${HOW_TO_CHOOSE}`,
  });
}
