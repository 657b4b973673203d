// Points every citation of the behaviour contract at the repository's own docs/spec.md:
// `SPEC §7.3` becomes `spec §7.3` in source, tests and fixtures, and in markdown a link
// `[spec §7.3](../../docs/spec.md#73-…)` relative to the file (plain `spec §7.3` inside code, inside
// an existing link's text, and in changesets, whose text ends up in published changelogs).
// Nothing else changes; a second run changes nothing. Biome formats markdown: run
// `npx biome format --write` on the markdown it changed afterwards (a link widens a table cell).
//   node scripts/rewrite-spec-refs.mjs            rewrites and lists the files it changed
//   node scripts/rewrite-spec-refs.mjs --dry-run  only lists them
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  citingFiles,
  ROOT,
  rewriteMarkdown,
  rewritePlain,
  SCRIPT_FILES,
  specSections,
} from './spec-sections.mjs';

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
