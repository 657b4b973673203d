import { z } from 'zod';

/** Tool names and tags are plain names: letters, digits and `_ . : -` (spec §1.2). */
export const PLAIN_NAME_PATTERN = /^[A-Za-z0-9_.:-]+$/;

const PATTERN_CHARACTERS = /[|*?[(^$\\]/;

/** A matcher value: one string, or a non-empty array of strings (any-of). */
export type NameList = string | string[];

/** Options of {@link nameListSchema}. */
export interface NameListSchemaOptions {
  /** The matcher key, used in the fix ("remove the `tool` key"). */
  key: string;
  /** What one value is, for messages: `tool name`, `tag`. */
  noun: string;
  /** The exact names a regex-looking value means, e.g. {@link suggestExactTools}. */
  suggest(value: string): string[];
}

/**
 * Schema of a list of plain names (`tool`, `tag`): a string or a non-empty array of strings, each a
 * plain name. A value that looks like a regex or glob fails with a custom issue whose message shows
 * the exact-match way to write it and whose `params.suggestion` holds the names.
 */
export function nameListSchema(options: NameListSchemaOptions): z.ZodType<NameList> {
  const { key, noun } = options;
  const everything = `or remove the "${key}" key to match every ${noun}`;
  const item = z
    .string({ error: `expected a ${noun} (a string); write the exact ${noun}` })
    .min(1, { error: `expected a non-empty ${noun}; write the exact ${noun}, ${everything}` });
  return z
    .union(
      [
        item,
        z.array(item).min(1, {
          error: `expected at least one ${noun}; list the exact ${noun}s, ${everything}`,
        }),
      ],
      {
        error: `expected a ${noun} or a non-empty array of ${noun}s; write "name" or ["name", …]`,
      },
    )
    .superRefine((value, context) => {
      const inArray = Array.isArray(value);
      for (const [index, name] of (inArray ? value : [value]).entries()) {
        const path = inArray ? [index] : [];
        if (PATTERN_CHARACTERS.test(name)) {
          const suggestion = options.suggest(name);
          const fix =
            suggestion.length === 0
              ? `list the exact ${noun}s, or remove the "${key}" key to match every ${noun}`
              : `write ${formatNames(suggestion, inArray)}`;
          context.addIssue({
            code: 'custom',
            path,
            input: name,
            message: `${JSON.stringify(name)} looks like a regex or glob; matchers are exact — ${fix}`,
            params: { suggestion },
          });
        } else if (!PLAIN_NAME_PATTERN.test(name)) {
          context.addIssue({
            code: 'custom',
            path,
            input: name,
            message: `${JSON.stringify(name)} is not a plain ${noun}; use only letters, digits and _ . : -`,
          });
        }
      }
    });
}

function formatNames(names: string[], inArray: boolean): string {
  const quoted = names.map((name) => JSON.stringify(name));
  if (inArray) return `${quoted.join(', ')} in its place`;
  return names.length === 1 ? (quoted[0] as string) : `[${quoted.join(', ')}]`;
}

/** The names of a validated {@link NameList}, as an array. */
export function toNameArray(value: NameList): readonly string[] {
  return typeof value === 'string' ? [value] : value;
}
