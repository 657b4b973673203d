// What scripts/rewrite-spec-refs.mjs and scripts/check-spec-refs.mjs share: the repository's files
// that may cite the behaviour contract, the sections docs/spec.md has, and GitHub's heading anchors.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/** The repository root (this file lives in `scripts/`). */
export const ROOT = new URL('..', import.meta.url).pathname;

/** The contract every `§` reference points at, relative to the root. */
export const SPEC_FILE = 'docs/spec.md';

/** These scripts: they describe the old citation form and are not scanned. */
export const SCRIPT_FILES = [
  'scripts/spec-sections.mjs',
  'scripts/rewrite-spec-refs.mjs',
  'scripts/check-spec-refs.mjs',
];

/** Extensions of the files that may cite the contract (source, tests, docs, fixtures). */
const CITING_EXTENSIONS = /\.(?:[cm]?[jt]sx?|md|json|py|sh|toml|ya?ml)$/;

/** Files never scanned: generated or third-party text. */
const SKIPPED = /(?:^|\/)(?:pnpm-lock\.yaml|CHANGELOG\.md)$/;

/**
 * The old way of citing the contract: `SPEC §7.3`, also wrapped onto the next comment line
 * (`SPEC\n * §7.3`) or with the `§` escaped in JSON (`SPEC \u00a77.3`). Group 1 is what lies between
 * the word and the sign, kept as it is.
 */
export const OLD_REFERENCE = /\bSPEC(\s+(?:(?:\*|\/\/|#)[ \t]*)?)(?=§|\\u00a7)/g;

/** A cited section, `§7.3` or (in JSON) `\u00a77.3`. Group 1 is the number. */
export const SECTION_REFERENCE = /(?:§|\\u00a7)(\d+(?:\.\d+)*)/g;

/** A path to the specification that lived outside the repository. */
export const OLD_SPEC_PATH = /(?:\.\.\/)?shared\/SPEC\.md/g;

/**
 * Every tracked or new (not ignored) file that may cite the contract, relative to the root, the
 * contract itself included.
 * @returns {string[]}
 */
export function citingFiles() {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return [...new Set(listed.split('\n'))]
    .filter((file) => file !== '' && CITING_EXTENSIONS.test(file) && !SKIPPED.test(file))
    .sort();
}

/**
 * GitHub's anchor for a heading: lower case, every character that is not a letter, a digit, a
 * space, `-` or `_` dropped, spaces turned into `-`.
 * @param {string} heading the heading's text, without the leading `#`s
 */
export function headingAnchor(heading) {
  return heading
    .replace(/`/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/**
 * The numbered sections of docs/spec.md: `'7'` or `'13.1'` → the anchor of its heading
 * (`## 7. Claude Code compatibility`, `### 13.1 Context from hooks`).
 * @returns {Map<string, string>}
 */
export function specSections() {
  const sections = new Map();
  const text = readFileSync(join(ROOT, SPEC_FILE), 'utf8');
  for (const line of text.split('\n')) {
    const heading = /^#{2,4}\s+(.*)$/.exec(line);
    if (heading === null) continue;
    const number = /^(\d+(?:\.\d+)*)\.?\s/.exec(heading[1]);
    if (number !== null) sections.set(number[1], headingAnchor(heading[1]));
  }
  return sections;
}

/**
 * The nearest section docs/spec.md has for a cited number: `4.6` itself, or `4` for a `4.9` it lacks
 * (so a link still lands on the right chapter). `undefined` when not even the chapter exists.
 * @param {Map<string, string>} sections
 * @param {string} number
 */
export function nearestSection(sections, number) {
  for (let parts = number.split('.'); parts.length > 0; parts = parts.slice(0, -1)) {
    const anchor = sections.get(parts.join('.'));
    if (anchor !== undefined) return anchor;
  }
  return undefined;
}

/**
 * The offsets of code in a markdown text (fenced blocks and inline code spans): `[start, end)` pairs.
 * @param {string} text
 * @returns {Array<[number, number]>}
 */
export function codeRanges(text) {
  const ranges = [];
  let offset = 0;
  let fence;
  let fenceStart = 0;
  for (const line of text.split('\n')) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line);
    if (fence !== undefined) {
      if (marker !== null && marker[1][0] === fence[0] && marker[1].length >= fence.length) {
        ranges.push([fenceStart, offset + line.length]);
        fence = undefined;
      }
    } else if (marker !== null) {
      fence = marker[1];
      fenceStart = offset;
    } else {
      for (const span of line.matchAll(/(`+)[^`]*?\1/g)) {
        ranges.push([offset + span.index, offset + span.index + span[0].length]);
      }
    }
    offset += line.length + 1;
  }
  if (fence !== undefined) ranges.push([fenceStart, text.length]);
  return ranges;
}

/**
 * A markdown file's text with each old citation outside code made a link to docs/spec.md.
 * @param {string} text
 * @param {string} file relative to the root
 * @param {Map<string, string>} sections
 */
export function rewriteMarkdown(text, file, sections) {
  const code = codeRanges(text);
  const inCode = (at) => code.some(([start, end]) => at >= start && at < end);
  const target = relative(dirname(file), SPEC_FILE);
  const linkable = !file.startsWith('.changeset/');
  return text.replace(/\bSPEC(\s+)§(\d+(?:\.\d+)*)/g, (_match, space, number, at) => {
    const plain = `spec${space}§${number}`;
    if (!linkable || inCode(at) || text[at - 1] === '[') return plain;
    const anchor = nearestSection(sections, number);
    return anchor === undefined ? plain : `[${plain}](${target}#${anchor})`;
  });
}

/**
 * Any other file's text with each old citation lower-cased, whatever lies between the word and the
 * sign (a wrapped comment line, an escaped `§` in JSON).
 * @param {string} text
 */
export function rewritePlain(text) {
  return text.replace(OLD_REFERENCE, (_match, between) => `spec${between}`);
}
