// Keeps the TypeScript in the READMEs true: each ```ts block is either a copy of a region of a
// type-checked file, or says why it is not checked.
//
//   ```ts source="src/session-loop.examples.ts#openHookSession_loop"
//   …the lines between `//#region openHookSession_loop` and `//#endregion openHookSession_loop`
//   of that file (relative to the README), dedented…
//   ```
//   ```ts unchecked="a type sketch of the provider interface, not importable code"
//
// The `*.examples.ts` files live in each package's `src/`, so the package's `typecheck` covers them
// (its tsconfig maps the package's own name to `src/index.ts`, as a user's import would resolve it);
// the build leaves them out.
//   node scripts/check-readme-examples.mjs          fails (exit 1) on a block that differs from its
//                                                    region, names a missing file or region, or
//                                                    has neither attribute
//   node scripts/check-readme-examples.mjs --write  copies each region into its block instead
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = new URL('..', import.meta.url).pathname;

/** The opening line of a TypeScript block: its language and attributes. */
const TS_FENCE = /^```(?:ts|typescript|tsx)\b(.*)$/;

/**
 * The READMEs whose TypeScript blocks are checked: each package's, the app's and the root one
 * (docs/contracts.md holds signatures, not usage).
 * @returns {string[]}
 */
function checkedMarkdown() {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return listed
    .split('\n')
    .filter((file) => file === 'README.md' || /^(?:packages|apps)\/[^/]+\/README\.md$/.test(file))
    .sort();
}

/**
 * The lines of a region of an examples file, dedented, or an error message.
 * @param {string} file absolute
 * @param {string} region
 * @returns {{ code: string } | { error: string }}
 */
export function regionOf(file, region) {
  if (!existsSync(file)) return { error: `${file} does not exist` };
  const lines = readFileSync(file, 'utf8').split('\n');
  const start = lines.findIndex((line) => line.trim() === `//#region ${region}`);
  const end = lines.findIndex((line) => line.trim() === `//#endregion ${region}`);
  if (start === -1 || end <= start) {
    return { error: `no //#region ${region} … //#endregion ${region} in ${file}` };
  }
  const body = lines.slice(start + 1, end);
  const indent = Math.min(
    ...body.filter((line) => line.trim() !== '').map((line) => /^ */.exec(line)[0].length),
  );
  return { code: body.map((line) => line.slice(indent)).join('\n') };
}

/**
 * Checks (or with `write` fixes) one markdown file's TypeScript blocks.
 * @param {string} file relative to the root
 * @param {boolean} write
 * @param {string} [root] the repository root
 * @returns {{ findings: string[], next: string }}
 */
export function checkFile(file, write, root = ROOT) {
  const lines = readFileSync(join(root, file), 'utf8').split('\n');
  const findings = [];
  const out = [];
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index];
    out.push(line);
    if (/^\s+```(?:ts|typescript|tsx)\b/.test(line)) {
      findings.push(`${file}:${index + 1}: an indented TypeScript block; start it at column 0`);
    }
    const fence = TS_FENCE.exec(line);
    if (fence === null) {
      if (/^```/.test(line)) {
        // Another language's block: copy it through to its closing fence.
        for (index += 1; index < lines.length && !/^```\s*$/.test(lines[index]); index += 1) {
          out.push(lines[index]);
        }
        if (index < lines.length) out.push(lines[index]);
      }
      continue;
    }
    let close = index + 1;
    while (close < lines.length && !/^```\s*$/.test(lines[close])) close += 1;
    const body = lines.slice(index + 1, close);
    const where = `${file}:${index + 1}`;
    const source = /\bsource="([^"#]+)#([^"]+)"/.exec(fence[1]);
    const unchecked = /\bunchecked="([^"]+)"/.exec(fence[1]);
    if (source !== null) {
      const region = regionOf(join(root, dirname(file), source[1]), source[2]);
      if ('error' in region) findings.push(`${where}: ${region.error}`);
      else if (region.code !== body.join('\n')) {
        if (write) {
          out.push(...region.code.split('\n'));
          out.push(lines[close] ?? '```');
          index = close;
          continue;
        }
        findings.push(
          `${where}: differs from ${source[1]}#${source[2]} (node scripts/check-readme-examples.mjs --write copies it)`,
        );
      }
    } else if (unchecked === null) {
      findings.push(
        `${where}: a TypeScript block needs source="FILE#REGION" (a region of a type-checked *.examples.ts) or unchecked="why"`,
      );
    }
    out.push(...body);
    if (close < lines.length) out.push(lines[close]);
    index = close;
  }
  return { findings, next: out.join('\n') };
}

function main() {
  const write = process.argv.includes('--write');
  const findings = [];
  for (const file of checkedMarkdown()) {
    const result = checkFile(file, write);
    findings.push(...result.findings);
    if (write && result.next !== readFileSync(join(ROOT, file), 'utf8')) {
      writeFileSync(join(ROOT, file), result.next);
      console.log(`updated ${file}`);
    }
  }
  for (const finding of findings) console.error(finding);
  if (findings.length > 0) {
    console.error(`${findings.length} README example problem(s)`);
    process.exitCode = 1;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main();
