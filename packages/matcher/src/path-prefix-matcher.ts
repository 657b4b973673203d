import { isNormalizedPathInside } from '@soong-agent/paths/internal';
import { z } from 'zod';
import { defineMatcher, type MatchPredicate } from './define-matcher.js';
import { pathFormsOf } from './path-forms.js';
import { TOOL_CALL_EVENTS } from './tool-call-events.js';

const GLOB_CHARACTERS = /[*?]/;

/**
 * The folder a glob-looking prefix starts with: `src/**` → `src`, `src/*.ts` → `src`; `undefined`
 * when the glob starts at the first segment (`**​/x`).
 */
export function suggestPathPrefix(value: string): string | undefined {
  const segments = value.split('/');
  const firstGlob = segments.findIndex((segment) => GLOB_CHARACTERS.test(segment));
  const kept = segments.slice(0, firstGlob === -1 ? segments.length : firstGlob).join('/');
  return kept === '' ? (value.startsWith('/') ? '/' : undefined) : kept;
}

// A glob that picks paths by name (".env" anywhere, "*.pem", "src/*.key") rather than everything
// under a folder ("src/**", "src/*"): after its first glob segment, anything but * or **.
function namesFiles(value: string): boolean {
  const segments = value.replace(/\/+$/, '').split('/');
  const firstGlob = segments.findIndex((segment) => GLOB_CHARACTERS.test(segment));
  return firstGlob !== -1 && segments.slice(firstGlob).some((segment) => !/^\*\*?$/.test(segment));
}

const EVERY_PATH = 'or remove the "path_prefix" key to match every path';
const prefixSchema = z
  .string({ error: 'expected a path prefix (a string); write a folder such as "src"' })
  .min(1, {
    error: `expected a non-empty path prefix; write a folder such as "src" ("." is the project dir), ${EVERY_PATH}`,
  })
  .superRefine((value, context) => {
    if (GLOB_CHARACTERS.test(value)) {
      const suggestion = suggestPathPrefix(value);
      if (namesFiles(value)) {
        const within =
          suggestion === undefined
            ? ''
            : ` (with "path_prefix": ${JSON.stringify(suggestion)} if only that folder matters)`;
        context.addIssue({
          code: 'custom',
          input: value,
          message: `${JSON.stringify(value)} picks files by name, which a path prefix cannot express (it matches a folder and everything under it) — match the tools instead, e.g. { "tool": ["read_file", "write_file", "edit_file"] }${within}, and check the file name in the hook (its paths are in tool.paths on stdin)`,
          ...(suggestion === undefined ? {} : { params: { suggestion } }),
        });
        return;
      }
      const fix =
        suggestion === undefined
          ? 'write the folder it starts with, or remove the "path_prefix" key to match every path'
          : `write ${JSON.stringify(suggestion)}`;
      context.addIssue({
        code: 'custom',
        input: value,
        message: `${JSON.stringify(value)} looks like a glob; path prefixes match a folder and everything under it — ${fix}`,
        ...(suggestion === undefined ? {} : { params: { suggestion } }),
      });
    } else if (value.trim() !== value) {
      const trimmed = value.trim();
      context.addIssue({
        code: 'custom',
        input: value,
        message:
          trimmed === ''
            ? `${JSON.stringify(value)} is only white space; write a folder such as "src" ("." is the project dir), ${EVERY_PATH}`
            : `${JSON.stringify(value)} starts or ends with white space, so it would name another folder; write ${JSON.stringify(trimmed)}`,
        ...(trimmed === '' ? {} : { params: { suggestion: trimmed } }),
      });
    } else if (/^~[^/]/.test(value)) {
      context.addIssue({
        code: 'custom',
        input: value,
        message: `${JSON.stringify(value)} uses ~user, which is not expanded; write the absolute path (only "~" and "~/…" mean your home)`,
      });
    } else if (value.includes('\0')) {
      context.addIssue({
        code: 'custom',
        input: value,
        message: `${JSON.stringify(value)} contains a NUL character, which no path can hold`,
      });
    }
  });

/**
 * `path_prefix`: one of the tool call's paths lies at or under one of the prefixes — absolute,
 * `~`/`~/…` (the OS home) or relative to the project dir — compared by whole segments after
 * normalisation, with every symlink-resolved form of both sides considered (spec §1.2).
 */
export const pathPrefixMatcher = defineMatcher({
  type: 'path_prefix',
  events: TOOL_CALL_EVENTS,
  optionsSchema: z.union(
    [
      prefixSchema,
      z
        .array(prefixSchema)
        .min(1, { error: `expected at least one path prefix; list the folders, ${EVERY_PATH}` }),
    ],
    {
      error:
        'expected a path prefix or a non-empty array of path prefixes; write "src" or ["src", "docs"]',
    },
  ),
  create(options, context) {
    const memo = pathFormsOf(context);
    const formsByPrefix = (typeof options === 'string' ? [options] : options).map((prefix) =>
      memo.prefix(prefix),
    );
    const prefixes = [...new Set(formsByPrefix.flat())];
    const expected = [...new Set(formsByPrefix.map((forms) => forms[0]))].join(' | ');
    const predicate: MatchPredicate = (subject) => {
      const forms = memo.subject(subject);
      for (let form = 0; form < forms.length; form++) {
        for (let prefix = 0; prefix < prefixes.length; prefix++) {
          // Forms come from pathForms: normalised by construction, so the unchecked comparison.
          if (isNormalizedPathInside(forms[form] as string, prefixes[prefix] as string))
            return true;
        }
      }
      return false;
    };
    predicate.describeMiss = ({ paths }) => ({
      expected,
      actual: paths === undefined || paths.length === 0 ? '(no paths)' : paths.join(', '),
    });
    return predicate;
  },
});
