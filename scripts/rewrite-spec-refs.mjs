// Points every citation of the behaviour contract at the repository's own docs/spec.md:
// `SPEC §7.3` becomes `spec §7.3` in source, tests and fixtures, and in markdown a link
// `[spec §7.3](../../docs/spec.md#73-…)` relative to the file (plain `spec §7.3` inside code, inside
// an existing link's text, and in changesets, whose text ends up in published changelogs).
// Nothing else changes; a second run changes nothing.
//   node scripts/rewrite-spec-refs.mjs            rewrites and lists the files it changed
//   node scripts/rewrite-spec-refs.mjs --dry-run  only lists them
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import {
  citingFiles,
  nearestSection,
  OLD_REFERENCE,
  ROOT,
  SCRIPT_FILES,
  SPEC_FILE,
  specSections,
} from './spec-sections.mjs';

/**
 * The offsets of code in a markdown text (fenced blocks and inline code spans): `[start, end)` pairs.
 * @param {string} text
 * @returns {Array<[number, number]>}
 */
function codeRanges(text) {
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
function rewriteMarkdown(text, file, sections) {
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
function rewritePlain(text) {
  return text.replace(OLD_REFERENCE, (_match, between) => `spec${between}`);
}

function main() {
  const dryRun = process.argv.includes('--dry-run');
  const sections = specSections();
  const changed = [];
  for (const file of citingFiles()) {
    if (SCRIPT_FILES.includes(file)) continue;
    const path = join(ROOT, file);
    const text = readFileSync(path, 'utf8');
    const next = file.endsWith('.md')
      ? rewritePlain(rewriteMarkdown(text, file, sections))
      : rewritePlain(text);
    if (next === text) continue;
    changed.push(file);
    if (!dryRun) writeFileSync(path, next);
  }
  for (const file of changed) console.log(file);
  console.log(`${changed.length} file(s) ${dryRun ? 'would change' : 'changed'}`);
}

main();
