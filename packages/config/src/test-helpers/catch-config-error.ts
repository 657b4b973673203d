import { ConfigError } from '../config-error.js';

/** The `ConfigError` that `run` throws; any other outcome fails the test. */
export function catchConfigError(run: () => unknown): ConfigError {
  try {
    run();
  } catch (error) {
    if (ConfigError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}
