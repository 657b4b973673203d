// Fails when the modules of one workspace (packages/*, apps/*) import each other in a cycle. Every
// relative import counts: `import type`, `export … from`, and `import()` alike, because a type-only
// cycle still ties two files together. Tests and test helpers are part of the graph (a cycle through
// them is just as real), though source files never import them.
// Cycles named in scripts/import-cycle-allow.json (other branches' work in progress) are reported but
// do not fail; the list is meant to be empty.
//   node scripts/check-cycles.mjs
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import ts from 'typescript-api';
import { ROOT, repoPath, typeScriptFiles, workspaces } from './source-files.mjs';

const ALLOW_FILE = resolve(ROOT, 'scripts/import-cycle-allow.json');

/** The file a relative specifier names, the way TypeScript's NodeNext resolution finds it. */
function resolveImport(from, specifier) {
  const target = resolve(dirname(from), specifier);
  const candidates = [
    target,
    target.replace(/\.js$/, '.ts'),
    target.replace(/\.js$/, '.tsx'),
    target.replace(/\.mjs$/, '.mts'),
    `${target}.ts`,
    `${target}.tsx`,
    resolve(target, 'index.ts'),
  ];
  return candidates.find((path) => existsSync(path) && statSync(path).isFile());
}

/** `file` → the files of the same workspace it imports. */
function importGraph(files) {
  const inWorkspace = new Set(files);
  const graph = new Map();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = new Set();
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = resolveImport(file, fileName);
      if (target !== undefined && inWorkspace.has(target)) targets.add(target);
    }
    graph.set(file, [...targets].sort());
  }
  return graph;
}

/** Tarjan's strongly connected components with more than one file, or one file importing itself. */
function cycles(graph) {
  let counter = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  const connect = (file) => {
    index.set(file, counter);
    low.set(file, counter);
    counter++;
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file)) {
      if (!index.has(target)) {
        connect(target);
        low.set(file, Math.min(low.get(file), low.get(target)));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file), index.get(target)));
    }
    if (low.get(file) !== index.get(file)) return;
    const component = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || graph.get(file).includes(file)) found.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) connect(file);
  return found;
}

/** One concrete loop through `component`, for the message: a → b → a. */
function loopThrough(graph, component) {
  const members = new Set(component);
  const start = component[0];
  const previous = new Map([[start, undefined]]);
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift();
    for (const target of graph.get(file)) {
      if (!members.has(target)) continue;
      if (target === start) {
        const path = [start];
        for (let at = file; at !== start; at = previous.get(at)) path.splice(1, 0, at);
        return [...path, start];
      }
      if (!previous.has(target)) {
        previous.set(target, file);
        queue.push(target);
      }
    }
  }
  return component;
}

function readAllowList() {
  const allow = JSON.parse(readFileSync(ALLOW_FILE, 'utf8'));
  return new Set((allow.cycles ?? []).map((files) => [...files].sort().join(' ')));
}

function main() {
  const allowed = readAllowList();
  let failures = 0;
  let checked = 0;
  for (const workspace of workspaces()) {
    const graph = importGraph(typeScriptFiles(workspace.src));
    checked += graph.size;
    for (const component of cycles(graph)) {
      const names = component.map(repoPath);
      const loop = loopThrough(graph, component).map(repoPath).join(' → ');
      if (allowed.has(names.join(' '))) console.log(`allowed  ${loop}`);
      else {
        failures++;
        console.error(`import cycle in ${workspace.name}: ${loop}`);
        if (component.length > 2) console.error(`  (all of: ${names.join(', ')})`);
      }
    }
  }
  if (failures > 0) {
    console.error(
      `${failures} import cycle(s): move what both sides need into a module of its own (types included)`,
    );
    process.exit(1);
  }
  console.log(`import cycles: ${checked} files, none outside the allow-list`);
}

main();
