import fs from 'node:fs';
import path from 'node:path';
import { isPathInside } from '@soong-agent/paths';
import { pathForms } from '@soong-agent/paths/internal';
import { createTree, makeTempDir } from '@soong-agent/test-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileRules, type RuleSpec } from './compile-rules.js';
import { BUILT_IN_REGISTRY } from './test-helpers/registry.js';

// spec §1.2's path forms of each path on its own, with nothing cached or shared:
// `@soong-agent/paths` checks pathForms against a plain realpath walk; here the compiled index, its
// caches and the shared compile memo must agree with it.
function plainForms(written: string, projectDir: string): string[] {
  return pathForms(written, { projectDir, homeDir: projectDir });
}

function plainMatch(
  rules: readonly { tool?: string; prefixes: string[] }[],
  subject: { tool: string; paths: string[] },
  projectDir: string,
): number[] {
  const subjectForms = subject.paths.flatMap((written) => plainForms(written, projectDir));
  const matched: number[] = [];
  for (const [ruleIndex, rule] of rules.entries()) {
    if (rule.tool !== undefined && rule.tool !== subject.tool) continue;
    const prefixForms = rule.prefixes.flatMap((prefix) => plainForms(prefix, projectDir));
    if (subjectForms.some((form) => prefixForms.some((prefix) => isPathInside(form, prefix)))) {
      matched.push(ruleIndex);
    }
  }
  return matched;
}

// Folders, files and symlinks (to folders, to a file, chained, pointing up), so that generated
// paths often cross a link, climb with `..` after one, or end below a missing folder.
const TREE = ['a/b/file', 'a/other/', 'c/d/', 'e.txt'];
const LINKS: [link: string, target: string][] = [
  ['l1', 'a'],
  ['c/l2', '../a/b'],
  ['l3', 'c'],
  ['a/up', '..'],
  ['f', 'e.txt'],
];
const segment = fc.oneof(
  fc.constantFrom('a', 'b', 'c', 'd', 'l1', 'l2', 'l3', 'up', 'f', 'file', 'x', '..'),
  // Links whose target's parent is not the link's parent, then `..`: only the OS walk gets it right.
  fc.constantFrom('c/l2/..', 'l3/l2/..', 'a/up/..'),
);
const relative = fc.array(segment, { minLength: 1, maxLength: 4 }).map((parts) => parts.join('/'));
const TOOLS = ['write_file', 'edit_file'] as const;
const ruleArbitrary = fc.record(
  {
    tool: fc.constantFrom(...TOOLS),
    prefixes: fc.array(relative, { minLength: 1, maxLength: 2 }),
  },
  { requiredKeys: ['prefixes'] },
);

describe('compileRules path forms (properties)', () => {
  it('agrees with one plain realpath walk per path when rules and paths cross symlinks', () => {
    const project = makeTempDir();
    createTree(project, TREE);
    for (const [link, target] of LINKS) fs.symlinkSync(target, path.join(project, link));
    fc.assert(
      fc.property(
        fc.array(ruleArbitrary, { minLength: 1, maxLength: 6 }),
        fc.constantFrom(...TOOLS),
        fc.array(relative, { minLength: 1, maxLength: 3 }),
        (rules, tool, paths) => {
          const specs: RuleSpec[] = rules.map((rule) => ({
            event: 'PreToolUse',
            matcher: {
              ...(rule.tool === undefined ? {} : { tool: rule.tool }),
              path_prefix: rule.prefixes,
            },
          }));
          const index = compileRules(specs, {
            registry: BUILT_IN_REGISTRY,
            projectDir: project,
            homeDir: project,
          });
          expect(index.match({ event: 'PreToolUse', tool, paths })).toEqual(
            plainMatch(rules, { tool, paths }, project),
          );
        },
      ),
      { numRuns: 400 },
    );
  });
});
