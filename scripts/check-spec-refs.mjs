// Fails (exit 1, one line per finding: file:line and what is wrong) when a file of the repository
//   - cites a `§` section docs/spec.md has no heading for (`§4.9`, `\u00a74.9` in JSON),
//   - links to docs/spec.md with an anchor none of its headings has,
//   - still cites the contract the old way (the word in capitals before a `§`, or the path of the
//     specification that lived outside the repository).
// Run by `pnpm lint`. `node scripts/rewrite-spec-refs.mjs` fixes the old form.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  citingFiles,
  headingAnchor,
  OLD_REFERENCE,
  OLD_SPEC_PATH,
  ROOT,
  SCRIPT_FILES,
  SECTION_REFERENCE,
  SPEC_FILE,
  specSections,
} from './spec-sections.mjs';

/** A link into docs/spec.md with an anchor. Group 1 is the anchor. */
const SPEC_LINK = /\]\((?:[^)\s]*\/)?spec\.md#([^)\s]+)\)/g;

/**
 * The 1-based line of an offset.
 * @param {string} text
 * @param {number} at
 */
function lineOf(text, at) {
  return text.slice(0, at).split('\n').length;
}

/**
 * What is wrong with one file's citations.
 * @param {string} file relative to the root
 * @param {string} text
 * @param {Map<string, string>} sections
 * @param {Set<string>} anchors every heading anchor of docs/spec.md
 * @returns {string[]}
 */
function findingsOf(file, text, sections, anchors) {
  const findings = [];
  for (const match of text.matchAll(SECTION_REFERENCE)) {
    if (!sections.has(match[1])) {
      findings.push(
        `${file}:${lineOf(text, match.index)}: §${match[1]} is not a section of ${SPEC_FILE}`,
      );
    }
  }
  for (const match of text.matchAll(OLD_REFERENCE)) {
    findings.push(
      `${file}:${lineOf(text, match.index)}: old citation form; write "spec §N" (run node scripts/rewrite-spec-refs.mjs)`,
    );
  }
  for (const match of text.matchAll(OLD_SPEC_PATH)) {
    findings.push(
      `${file}:${lineOf(text, match.index)}: ${match[0]} is outside the repository; cite ${SPEC_FILE}`,
    );
  }
  if (file.endsWith('.md')) {
    for (const match of text.matchAll(SPEC_LINK)) {
      if (!anchors.has(match[1])) {
        findings.push(
          `${file}:${lineOf(text, match.index)}: #${match[1]} is no heading of ${SPEC_FILE}`,
        );
      }
    }
  }
  return findings;
}

function main() {
  const sections = specSections();
  const spec = readFileSync(join(ROOT, SPEC_FILE), 'utf8');
  const anchors = new Set(
    [...spec.matchAll(/^#{1,6}\s+(.*)$/gm)].map((heading) => headingAnchor(heading[1])),
  );
  const findings = citingFiles()
    .filter((file) => !SCRIPT_FILES.includes(file))
    .flatMap((file) => findingsOf(file, readFileSync(join(ROOT, file), 'utf8'), sections, anchors));
  for (const finding of findings) console.error(finding);
  if (findings.length > 0) {
    console.error(`${findings.length} spec reference problem(s)`);
    process.exitCode = 1;
  }
}

main();
