import type { DeclarativeToolConfig } from './config-file-schema.js';

/**
 * The variable a declarative tool's argument reaches its command in (spec §6): `SOONG_ARG_<NAME>`,
 * the name upper-cased, every character other than a letter or digit as `_`.
 */
export function argumentEnvName(name: string): string {
  return `SOONG_ARG_${name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}

/** A parameter whose variable an earlier parameter of the same tool already takes. */
export interface ParameterCollision {
  /** The parameter written later. */
  name: string;
  /** The earlier parameter with the same variable. */
  earlier: string;
  variable: string;
}

/**
 * Parameters of one tool that would share a `SOONG_ARG_*` variable (`a-b` and `a_b`, `x` and `X`):
 * one argument would silently overwrite the other.
 */
export function parameterCollisions(tool: DeclarativeToolConfig): ParameterCollision[] {
  const owners = new Map<string, string>();
  const collisions: ParameterCollision[] = [];
  for (const name of Object.keys(tool.parameters)) {
    const variable = argumentEnvName(name);
    const earlier = owners.get(variable);
    if (earlier === undefined) owners.set(variable, name);
    else collisions.push({ name, earlier, variable });
  }
  return collisions;
}
