import { builtInMatchers } from '../built-in-matchers.js';
import { createMatcherRegistry } from '../matcher-registry.js';

/** The registry of the built-in matcher types, built once for the tests (as a caller does). */
export const BUILT_IN_REGISTRY = createMatcherRegistry(builtInMatchers);
