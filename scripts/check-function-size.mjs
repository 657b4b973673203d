// Fails when a function in a workspace's src/ (tests, test helpers and fixtures aside) is longer than
// MAX_LINES, so a reader can hold each one. A factory's closure counts whole: the returned object's
// methods are inside it. Files and functions named in scripts/function-size-allow.json are reported
// but do not fail (today's offenders in other branches; the list is meant to be empty).
//   node scripts/check-function-size.mjs [--max N] [FILE...]   (no FILE: every workspace's src/)
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import ts from 'typescript-api';
import { isTestFile, ROOT, repoPath, typeScriptFiles, workspaces } from './source-files.mjs';

const MAX_LINES = 150;
const ALLOW_FILE = resolve(ROOT, 'scripts/function-size-allow.json');

/** The name a reader would search for: the declaration's own, else the variable or property it is assigned to. */
function functionName(node) {
  if (node.name !== undefined) return node.name.getText();
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if (
    (ts.isVariableDeclaration(parent) ||
      ts.isPropertyAssignment(parent) ||
      ts.isPropertyDeclaration(parent)) &&
    parent.name !== undefined
  )
    return parent.name.getText();
  return '<anonymous>';
}

function isFunctionLike(node) {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isFunctionExpression(node) ||
    ts.isArrowFunction(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node)
  );
}

/** Every function in `file` longer than `maxLines`: `{ file, line, name, lines }`. */
function longFunctions(file, maxLines = MAX_LINES) {
  const source = ts.createSourceFile(
    file,
    readFileSync(file, 'utf8'),
    ts.ScriptTarget.Latest,
    true,
  );
  const found = [];
  const visit = (node) => {
    // Only bodies count: an overload signature or an abstract method has none.
    if (isFunctionLike(node) && node.body !== undefined) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.end).line;
      const lines = last - first + 1;
      if (lines > maxLines)
        found.push({ file: repoPath(file), line: first + 1, name: functionName(node), lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function readAllowList() {
  const allow = JSON.parse(readFileSync(ALLOW_FILE, 'utf8'));
  const names = new Set();
  for (const [file, functions] of Object.entries(allow)) {
    if (file.startsWith('$')) continue; // "$comment"
    for (const name of functions) names.add(`${file}#${name}`);
  }
  return names;
}

function parseArguments(argv) {
  let maxLines = MAX_LINES;
  const files = [];
  for (let index = 0; index < argv.length; index++) {
    if (argv[index] === '--max') {
      maxLines = Number(argv[++index]);
      if (!Number.isInteger(maxLines) || maxLines < 1) {
        console.error(`--max: expected a positive integer, got ${argv[index]}`);
        process.exit(2);
      }
    } else files.push(resolve(argv[index]));
  }
  return { maxLines, files };
}

function main() {
  const { maxLines, files: named } = parseArguments(process.argv.slice(2));
  const files =
    named.length > 0
      ? named
      : workspaces().flatMap((workspace) =>
          typeScriptFiles(workspace.src).filter((file) => !isTestFile(file)),
        );
  const allowed = readAllowList();
  const seen = new Set();
  let failures = 0;
  for (const found of files.flatMap((file) => longFunctions(file, maxLines))) {
    const key = `${found.file}#${found.name}`;
    seen.add(key);
    const where = `${found.file}:${found.line} ${found.name}: ${found.lines} lines (max ${maxLines})`;
    if (allowed.has(key)) console.log(`allowed  ${where}`);
    else {
      failures++;
      console.error(`too long ${where}: split it into named functions`);
    }
  }
  for (const key of allowed) {
    if (!seen.has(key) && named.length === 0)
      console.log(
        `note: ${key.replace('#', ' ')} is in ${repoPath(ALLOW_FILE)} but no longer too long: remove it`,
      );
  }
  if (failures > 0) {
    console.error(`${failures} function(s) over ${maxLines} lines`);
    process.exit(1);
  }
  console.log(
    `function sizes: ${files.length} files, none over ${maxLines} lines outside the allow-list`,
  );
}

main();
