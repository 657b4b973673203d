import fs from 'node:fs';
import path from 'node:path';
import { isPathInside } from '@soong-agent/paths';
import { createTree, makeTempDir } from '@soong-agent/test-utils';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { builtInMatchers } from './built-in-matchers.js';
import { compileRules, type RuleSpec } from './compile-rules.js';
import { defineMatcher } from './define-matcher.js';
import { createMatcherRegistry } from './matcher-registry.js';
import { BUILT_IN_REGISTRY } from './test-helpers/registry.js';

const READ = { tool: 'read_file', tags: ['readonly'] } as const;

function guardsOf(
  rules: RuleSpec[],
  call: Parameters<ReturnType<typeof compileRules>['guardedPrefixes']>[0],
  projectDir: string,
  homeDir = '/nonexistent-home',
) {
  return compileRules(rules, { registry: BUILT_IN_REGISTRY, projectDir, homeDir }).guardedPrefixes(
    call,
    [READ],
  );
}

describe('RuleIndex.guardedPrefixes', () => {
  it('returns the prefix of a path rule that a grep over the parent folder does not match', () => {
    const project = makeTempDir();
    const guards = guardsOf(
      [{ event: 'PreToolUse', matcher: { path_prefix: 'secrets' } }],
      { event: 'PreToolUse', tool: 'grep', tags: ['readonly'], paths: [project] },
      project,
    );
    expect(guards).toEqual([
      { ruleIndex: 0, prefix: 'secrets', forms: [path.join(project, 'secrets')] },
    ]);
  });

  it('leaves out a rule that matches the call itself when the walk root lies under its prefix', () => {
    const project = makeTempDir();
    const guards = guardsOf(
      [{ event: 'PreToolUse', matcher: { path_prefix: 'secrets' } }],
      { event: 'PreToolUse', tool: 'grep', tags: ['readonly'], paths: ['secrets/sub'] },
      project,
    );
    expect(guards).toEqual([]);
  });

  it('keeps a rule that the call matches only through a symlink, whose target may have changed since', () => {
    const project = makeTempDir();
    createTree(project, ['secrets/.env']);
    fs.symlinkSync(path.join(project, 'secrets'), path.join(project, 'link'));
    const rules: RuleSpec[] = [{ event: 'PreToolUse', matcher: { path_prefix: 'secrets' } }];
    const call = {
      event: 'PreToolUse',
      tool: 'read_file',
      tags: ['readonly'],
      paths: ['link/.env'],
    };
    const index = compileRules(rules, {
      registry: BUILT_IN_REGISTRY,
      projectDir: project,
      homeDir: '/nonexistent-home',
    });
    expect(index.match(call)).toEqual([0]);
    expect(index.guardedPrefixes(call, [READ]).map((guard) => guard.prefix)).toEqual(['secrets']);
    expect(index.guardedPrefixes({ ...call, paths: ['secrets/../secrets/.env'] }, [READ])).toEqual(
      [],
    );
  });

  it('keeps a read_file rule when a grep of the guarded folder itself is not matched by it', () => {
    const project = makeTempDir();
    const guards = guardsOf(
      [{ event: 'PreToolUse', matcher: { tool: 'read_file', path_prefix: 'secrets' } }],
      { event: 'PreToolUse', tool: 'grep', tags: ['readonly'], paths: ['secrets'] },
      project,
    );
    expect(guards.map((guard) => guard.prefix)).toEqual(['secrets']);
  });

  it('keeps a rule for the walking tool itself and one for its tags', () => {
    const project = makeTempDir();
    const guards = guardsOf(
      [
        { event: 'PreToolUse', matcher: { tool: 'grep', path_prefix: 'a' } },
        { event: 'PreToolUse', matcher: { tag: 'search', path_prefix: ['b', 'c'] } },
        { event: 'PreToolUse', matcher: { tag: 'readonly', path_prefix: 'd' } },
      ],
      { event: 'PreToolUse', tool: 'grep', tags: ['readonly', 'search'], paths: ['.'] },
      project,
    );
    expect(guards.map((guard) => [guard.ruleIndex, guard.prefix])).toEqual([
      [0, 'a'],
      [1, 'b'],
      [1, 'c'],
      [2, 'd'],
    ]);
  });

  it('leaves out rules whose tool or tag criteria match neither the call nor a direct read', () => {
    const project = makeTempDir();
    const guards = guardsOf(
      [
        { event: 'PreToolUse', matcher: { tool: ['write_file', 'edit_file'], path_prefix: 'src' } },
        { event: 'PreToolUse', matcher: { tag: 'write', path_prefix: 'src' } },
        { event: 'PostToolUse', matcher: { path_prefix: 'src' } },
        { event: 'PreToolUse', matcher: { tool: 'read_file' } },
      ],
      { event: 'PreToolUse', tool: 'grep', tags: ['readonly'], paths: ['.'] },
      project,
    );
    expect(guards).toEqual([]);
  });

  it('keeps a path rule with a criterion of another type, which might match some path (fail closed)', () => {
    const project = makeTempDir();
    const never = defineMatcher({
      type: 'never',
      optionsSchema: z.literal(true),
      create: () => () => false,
    });
    const index = compileRules(
      [{ event: 'PreToolUse', matcher: { never: true, path_prefix: 'secrets' } }],
      {
        projectDir: project,
        homeDir: '/nonexistent-home',
        registry: createMatcherRegistry([...builtInMatchers, never]),
      },
    );
    const guards = index.guardedPrefixes(
      { event: 'PreToolUse', tool: 'grep', tags: ['readonly'], paths: ['.'] },
      [READ],
    );
    expect(guards.map((guard) => guard.prefix)).toEqual(['secrets']);
  });

  it('gives every form of an absolute, ~/ and symlinked prefix', () => {
    const project = makeTempDir();
    const home = makeTempDir();
    createTree(project, ['real-secrets/.env']);
    fs.symlinkSync(path.join(project, 'real-secrets'), path.join(project, 'secrets'));
    createTree(home, ['.ssh/id']);
    const guards = guardsOf(
      [
        {
          event: 'PreToolUse',
          matcher: { path_prefix: ['secrets', '~/.ssh', path.join(project, 'x/../abs')] },
        },
      ],
      { event: 'PreToolUse', tool: 'grep', tags: ['readonly'], paths: ['/'] },
      project,
      home,
    );
    expect(guards.map((guard) => guard.forms)).toEqual([
      [path.join(project, 'secrets'), path.join(project, 'real-secrets')],
      [path.join(home, '.ssh')],
      [path.join(project, 'abs')],
    ]);
    const covered = (candidate: string) =>
      guards.some((guard) => guard.forms.some((form) => isPathInside(candidate, form)));
    expect(covered(path.join(project, 'real-secrets/.env'))).toBe(true);
    expect(covered(path.join(home, '.ssh/id'))).toBe(true);
    expect(covered(path.join(project, 'abs'))).toBe(true);
    expect(covered(path.join(project, 'absent'))).toBe(false);
  });

  it('returns nothing for an event without rules', () => {
    const project = makeTempDir();
    expect(
      guardsOf(
        [],
        { event: 'PreToolUse', tool: 'grep', tags: ['readonly'], paths: ['.'] },
        project,
      ),
    ).toEqual([]);
  });
});
