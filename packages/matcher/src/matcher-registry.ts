import type { AnyMatcherDefinition } from './define-matcher.js';
import { MatcherError } from './matcher-error.js';

/** An immutable set of matcher types, keyed by their hooks.json key. */
export interface MatcherRegistry {
  /** Registered types, in the order given. */
  readonly types: readonly string[];
  /** The definition of a type, or `undefined`. */
  get(type: string): AnyMatcherDefinition | undefined;
  /** True when the type is registered. */
  has(type: string): boolean;
}

/**
 * Builds a registry from a list of definitions — `createMatcherRegistry([...builtInMatchers, mine])`.
 * There is no global mutable registry. Throws `MatcherError` `INVALID_MATCHER` for a malformed
 * definition or a type registered twice.
 */
export function createMatcherRegistry(
  definitions: readonly AnyMatcherDefinition[],
): MatcherRegistry {
  const byType = new Map<string, AnyMatcherDefinition>();
  for (const [index, definition] of definitions.entries()) {
    const type: unknown = definition?.type;
    if (
      typeof type !== 'string' ||
      type === '' ||
      typeof definition.create !== 'function' ||
      typeof definition.optionsSchema?.safeParse !== 'function'
    ) {
      throw new MatcherError({
        code: 'INVALID_MATCHER',
        message: `matcher definition ${index} is malformed; build it with defineMatcher({ type, optionsSchema, create })`,
        value: definition,
      });
    }
    if (byType.has(type)) {
      throw new MatcherError({
        code: 'INVALID_MATCHER',
        message: `${JSON.stringify(type)} is registered twice; each matcher type must have a unique key`,
        value: type,
      });
    }
    byType.set(type, definition);
  }
  const types = Object.freeze([...byType.keys()]);
  return Object.freeze({
    types,
    get: (type: string) => byType.get(type),
    has: (type: string) => byType.has(type),
  });
}
