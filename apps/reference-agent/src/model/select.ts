import path from 'node:path';
import { CliError } from '../errors.js';
import type { ModelProvider } from './provider.js';
import { createScriptedProvider, loadModelScript } from './scripted.js';

/** Providers known by name; only `scripted` is available in this version. */
export const KNOWN_PROVIDERS: readonly string[] = ['scripted', 'openai', 'anthropic'];

const HOW_TO_CHOOSE =
  'pass --model scripted:FILE (a scripted-model file, relative to the current dir), or set [model] in config.toml:\n' +
  '  [model]\n  provider = "scripted"\n  script = "session.json"   # relative to the agent home';

/**
 * Picks the model: `--model` (`scripted:FILE`, FILE relative to `cwd`) wins over `[model]` of
 * config.toml (`script` relative to the agent home). No model, an unknown or not yet available
 * provider, or a bad scripted file is a `CliError` (exit 2) that says how to choose one.
 */
export function selectModelProvider(options: {
  /** The `--model` flag. */
  flag?: string;
  /** `[model]` of config.toml. */
  settings: { provider?: string | undefined; script?: string | undefined };
  home: string;
  cwd: string;
}): ModelProvider {
  let provider: string;
  let file: string | undefined;
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
    }
  } else {
    throw new CliError({ code: 'NO_MODEL', message: `no model chosen: ${HOW_TO_CHOOSE}` });
  }
  if (provider === 'scripted' && file !== undefined)
    return createScriptedProvider(loadModelScript(file));
  if (KNOWN_PROVIDERS.includes(provider)) {
    throw new CliError({
      code: 'MODEL_UNAVAILABLE',
      message: `model provider "${provider}" is not available yet; ${HOW_TO_CHOOSE}`,
    });
  }
  throw new CliError({
    code: 'MODEL_UNAVAILABLE',
    message: `unknown model provider "${provider}" (known: ${KNOWN_PROVIDERS.join(', ')}); ${HOW_TO_CHOOSE}`,
  });
}
