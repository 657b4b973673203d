import fs from 'node:fs';
import path from 'node:path';
import { createTree, makeTempDir } from '@soong-agent/test-utils';
import { describe, expect, it, vi } from 'vitest';
import { compileRules } from './compile-rules.js';
import { normalizePathPrefix } from './path-forms.js';
import { pathPrefixMatcher, suggestPathPrefix } from './path-prefix-matcher.js';
import { BUILT_IN_REGISTRY } from './test-helpers/registry.js';

function prefixIndex(prefix: unknown, projectDir: string, homeDir = '/nonexistent-home') {
  const index = compileRules([{ event: 'PreToolUse', matcher: { path_prefix: prefix } }], {
    registry: BUILT_IN_REGISTRY,
    projectDir,
    homeDir,
  });
  return (...paths: string[]) =>
    index.match({ event: 'PreToolUse', tool: 'write_file', paths }).length === 1;
}

describe('pathPrefixMatcher', () => {
  it('matches the prefix itself and paths under it but never a sibling sharing its name start', () => {
    const project = makeTempDir();
    const matches = prefixIndex('src', project);
    expect(matches('src')).toBe(true);
    expect(matches('src/a.ts')).toBe(true);
    expect(matches(path.join(project, 'src/deep/b.ts'))).toBe(true);
    expect(matches('src2/a.ts')).toBe(false);
    expect(matches('sr')).toBe(false);
    expect(matches('lib/src/a.ts')).toBe(false);
  });

  it('normalises .., . and trailing separators on both sides before comparing', () => {
    const project = makeTempDir();
    const matches = prefixIndex('./src/../src/', project);
    expect(matches('src/./a.ts')).toBe(true);
    expect(matches('lib/../src/a.ts')).toBe(true);
    expect(matches('src/../secrets/key')).toBe(false);
    expect(matches('src/../../outside')).toBe(false);
  });

  it('compares case-sensitively when only the case differs', () => {
    const project = makeTempDir();
    expect(prefixIndex('src', project)('SRC/a.ts')).toBe(false);
  });

  it('matches when any one of several paths lies under any one of several prefixes', () => {
    const project = makeTempDir();
    const matches = prefixIndex(['docs', 'src'], project);
    expect(matches('README.md', 'lib/x', 'src/a.ts')).toBe(true);
    expect(matches('README.md', 'lib/x')).toBe(false);
    expect(matches()).toBe(false);
  });

  it('resolves an absolute prefix as given and ~/ against the OS home', () => {
    const project = makeTempDir();
    const home = makeTempDir();
    expect(prefixIndex('/etc', project)('/etc/passwd')).toBe(true);
    expect(prefixIndex('/', project)('/anything/at/all')).toBe(true);
    const inHome = prefixIndex('~/.ssh', project, home);
    expect(inHome(path.join(home, '.ssh/id_ed25519'))).toBe(true);
    expect(inHome('~/.ssh/config')).toBe(true);
    expect(inHome('.ssh/id_ed25519')).toBe(false);
    expect(prefixIndex('~', project, home)(path.join(home, 'x'))).toBe(true);
  });

  it('allows [ and { in prefixes as real folder names', () => {
    const project = makeTempDir();
    createTree(project, ['app/[id]/page.tsx', 'app/{group}/x.ts']);
    expect(prefixIndex('app/[id]', project)('app/[id]/page.tsx')).toBe(true);
    expect(prefixIndex('app/[id]', project)('app/i/page.tsx')).toBe(false);
    expect(prefixIndex('app/{group}', project)('app/{group}/x.ts')).toBe(true);
  });

  it('matches a path that reaches the protected tree through a symlink', () => {
    const project = makeTempDir();
    createTree(project, ['secrets/key', 'src/']);
    fs.symlinkSync(path.join(project, 'secrets'), path.join(project, 'src/innocent'));
    const matches = prefixIndex('secrets', project);
    expect(matches('src/innocent/key')).toBe(true);
    expect(matches('src/innocent/not-yet-created/file')).toBe(true);
    expect(matches('src/other')).toBe(false);
  });

  it('matches through a symlink when its create is called with a hand-made context', () => {
    const project = makeTempDir();
    createTree(project, ['secrets/key', 'src/']);
    fs.symlinkSync(path.join(project, 'secrets'), path.join(project, 'src/innocent'));
    const predicate = pathPrefixMatcher.create('secrets', {
      projectDir: project,
      homeDir: project,
    });
    expect(predicate({ event: 'PreToolUse', paths: ['src/innocent/key'] })).toBe(true);
    expect(predicate({ event: 'PreToolUse', paths: ['src/other'] })).toBe(false);
  });

  it('resolves a prefix afresh in each compilation when its symlink changes between them', () => {
    const project = makeTempDir();
    createTree(project, ['a/', 'b/']);
    fs.symlinkSync(path.join(project, 'a'), path.join(project, 'guarded'));
    const before = prefixIndex('guarded', project);
    fs.rmSync(path.join(project, 'guarded'));
    fs.symlinkSync(path.join(project, 'b'), path.join(project, 'guarded'));
    const after = prefixIndex('guarded', project);
    expect([before('a/x'), before('b/x')]).toEqual([true, false]);
    expect([after('a/x'), after('b/x')]).toEqual([false, true]);
  });

  it('matches through a symlink when the rule also has tool and tag keys, in configuration order', () => {
    const project = makeTempDir();
    createTree(project, ['secrets/key', 'src/']);
    fs.symlinkSync(path.join(project, 'secrets'), path.join(project, 'src/innocent'));
    const index = compileRules(
      [
        { event: 'PreToolUse', matcher: { tag: 'write', path_prefix: 'secrets' } },
        {
          event: 'PreToolUse',
          matcher: { tool: ['write_file', 'edit_file'], path_prefix: ['docs', 'secrets'] },
        },
        { event: 'PreToolUse', matcher: { path_prefix: 'secrets' } },
        { event: 'PreToolUse', matcher: { tool: 'bash', path_prefix: 'secrets' } },
      ],
      { registry: BUILT_IN_REGISTRY, projectDir: project, homeDir: project },
    );
    const subject = {
      event: 'PreToolUse',
      tool: 'write_file',
      tags: ['write'],
      paths: ['src/innocent/key'],
    };
    expect(index.match(subject)).toEqual([0, 1, 2]);
    expect(index.explain(subject).map((explanation) => explanation.matched)).toEqual([
      true,
      true,
      true,
      false,
    ]);
    expect(index.match({ ...subject, paths: ['src/a.ts'] })).toEqual([]);
  });

  it('matches a path through a symlinked file into the protected tree', () => {
    const project = makeTempDir();
    createTree(project, ['secrets/key']);
    fs.symlinkSync(path.join(project, 'secrets/key'), path.join(project, 'key-link'));
    expect(prefixIndex('secrets', project)('key-link')).toBe(true);
  });

  it('matches the real path when the prefix is given through a symlinked folder', () => {
    const project = makeTempDir();
    const outside = makeTempDir();
    createTree(outside, ['real/config/']);
    fs.symlinkSync(path.join(outside, 'real'), path.join(project, 'linked'));
    const matches = prefixIndex('linked/config', project);
    expect(matches(path.join(outside, 'real/config/settings.json'))).toBe(true);
    expect(matches('linked/config/settings.json')).toBe(true);
    expect(matches(path.join(outside, 'real/other'))).toBe(false);
  });

  it('matches when the project dir itself is reached through a symlink', () => {
    const real = makeTempDir();
    const links = makeTempDir();
    createTree(real, ['src/']);
    const linkedProject = path.join(links, 'project');
    fs.symlinkSync(real, linkedProject);
    const matches = prefixIndex('src', linkedProject);
    expect(matches(path.join(real, 'src/a.ts'))).toBe(true);
    expect(matches(path.join(linkedProject, 'src/a.ts'))).toBe(true);
  });

  it('follows .. the way the OS does when it comes after a symlink', () => {
    const project = makeTempDir();
    createTree(project, ['protected/inner/', 'public/']);
    fs.symlinkSync(path.join(project, 'protected/inner'), path.join(project, 'public/jump'));
    // The OS walks public/jump → protected/inner, then .. → protected.
    expect(prefixIndex('protected', project)('public/jump/../file')).toBe(true);
  });

  it('recomputes path forms when the same subject object gets new paths', () => {
    const project = makeTempDir();
    const index = compileRules([{ event: 'PreToolUse', matcher: { path_prefix: 'src' } }], {
      registry: BUILT_IN_REGISTRY,
      projectDir: project,
      homeDir: project,
    });
    const paths = ['src/a.ts'];
    const subject = { event: 'PreToolUse', paths };
    expect(index.match(subject)).toEqual([0]);
    paths[0] = 'lib/a.ts';
    expect(index.match(subject)).toEqual([]);
    subject.paths = ['src/b.ts'];
    expect(index.match(subject)).toEqual([0]);
  });

  it('treats "." and the project dir as the whole project when the prefix names it', () => {
    const project = makeTempDir();
    for (const prefix of ['.', './', project, `${project}/`]) {
      const matches = prefixIndex(prefix, project);
      expect(matches('.')).toBe(true);
      expect(matches(project)).toBe(true);
      expect(matches('src/a.ts')).toBe(true);
      expect(matches('../elsewhere/a.ts')).toBe(false);
      expect(matches(`${project}-sibling/a.ts`)).toBe(false);
    }
  });

  it('matches a path equal to the project dir only for prefixes at or above it', () => {
    const project = makeTempDir();
    expect(prefixIndex('src', project)(project)).toBe(false);
    expect(prefixIndex('src', project)('.')).toBe(false);
    expect(prefixIndex('..', project)(project)).toBe(true);
    expect(prefixIndex('/', project)('.')).toBe(true);
  });

  it('never matches when a relative path climbs out of the project with ..', () => {
    const project = makeTempDir();
    createTree(project, ['src/']);
    const matches = prefixIndex('src', project);
    expect(matches('../src/a.ts')).toBe(false);
    expect(matches('src/../../src/a.ts')).toBe(false);
    expect(matches(`../${path.basename(project)}/src/a.ts`)).toBe(true);
    expect(prefixIndex('..', project)('../../x')).toBe(false);
  });

  it('compares Unicode names byte for byte when the forms are the same or differ', () => {
    const project = makeTempDir();
    createTree(project, ['données/é/']);
    const matches = prefixIndex('données', project);
    expect(matches('données/é/文件.ts')).toBe(true);
    expect(matches('données-2/x')).toBe(false);
    // NFD "e" + combining accent is another name on Linux; no normalisation is applied.
    expect(prefixIndex('café', project)('cafe\u0301/x')).toBe(false);
  });

  it('matches /tmp and /private/tmp forms of one tree when the temp root is a symlink (macOS)', () => {
    const root = makeTempDir();
    createTree(root, ['private/tmp/project/src/']);
    fs.symlinkSync(path.join(root, 'private/tmp'), path.join(root, 'tmp'));
    const linkedProject = path.join(root, 'tmp/project');
    const realProject = path.join(root, 'private/tmp/project');
    const relative = prefixIndex('src', linkedProject);
    expect(relative(path.join(realProject, 'src/new/deep.ts'))).toBe(true);
    expect(relative(path.join(linkedProject, 'src/a.ts'))).toBe(true);
    expect(relative(path.join(realProject, 'srcx/a.ts'))).toBe(false);
    const written = prefixIndex(path.join(realProject, 'src'), linkedProject);
    expect(written('src/not-yet/created.ts')).toBe(true);
    const viaLink = prefixIndex(path.join(linkedProject, 'src'), realProject);
    expect(viaLink(path.join(realProject, 'src/x'))).toBe(true);
    expect(viaLink('lib/x')).toBe(false);
  });

  it('sees a symlink created after compiling, and between two matches, when subjects are fresh', () => {
    const project = makeTempDir();
    createTree(project, ['secrets/key', 'src/']);
    const index = compileRules(
      [
        { event: 'PreToolUse', matcher: { path_prefix: 'secrets' } },
        { event: 'PreToolUse', matcher: { tool: 'write_file', path_prefix: 'secrets' } },
      ],
      { registry: BUILT_IN_REGISTRY, projectDir: project, homeDir: project },
    );
    const subject = () => ({ event: 'PreToolUse', tool: 'write_file', paths: ['src/jump/key'] });
    expect(index.match(subject())).toEqual([]);
    fs.symlinkSync(path.join(project, 'secrets'), path.join(project, 'src/jump'));
    expect(index.match(subject())).toEqual([0, 1]);
    fs.unlinkSync(path.join(project, 'src/jump'));
    expect(index.match(subject())).toEqual([]);
  });

  it('resolves many prefixes under one missing folder and a symlinked one alike when compiled together', () => {
    const project = makeTempDir();
    createTree(project, ['real/']);
    fs.symlinkSync(path.join(project, 'real'), path.join(project, 'link'));
    const prefixes = ['gone/a', 'gone/b', 'gone/a/deeper', 'link/x', 'link/x/y'];
    const index = compileRules(
      prefixes.map((prefix) => ({ event: 'PreToolUse', matcher: { path_prefix: prefix } })),
      { registry: BUILT_IN_REGISTRY, projectDir: project, homeDir: project },
    );
    const match = (written: string) => index.match({ event: 'PreToolUse', paths: [written] });
    expect(match('gone/a/file')).toEqual([0]);
    expect(match('gone/b/file')).toEqual([1]);
    expect(match('gone/a/deeper/file')).toEqual([0, 2]);
    expect(match('real/x/y/z')).toEqual([3, 4]);
    expect(match('gone/c')).toEqual([]);
  });

  it('resolves each folder once per compile and never through a failing realpath when prefixes share a missing folder', () => {
    const project = makeTempDir();
    createTree(project, ['pkg/']);
    const native = vi.spyOn(fs.realpathSync, 'native');
    try {
      const index = compileRules(
        Array.from({ length: 200 }, (_, rule) => ({
          event: 'PreToolUse',
          matcher: { tool: 'write_file', path_prefix: `pkg/missing/area${rule}` },
        })),
        { registry: BUILT_IN_REGISTRY, projectDir: project, homeDir: project },
      );
      expect(native.mock.calls.length).toBeLessThanOrEqual(2);
      expect(native.mock.results.filter((result) => result.type === 'throw')).toEqual([]);
      native.mockClear();
      const subject = {
        event: 'PreToolUse',
        tool: 'write_file',
        paths: ['pkg/missing/area7/new.ts', 'pkg/missing/area8/x/y.ts', 'pkg/other.ts'],
      };
      expect(index.match(subject)).toEqual([7, 8]);
      expect(native.mock.calls.length).toBe(1);
      expect(native.mock.results.filter((result) => result.type === 'throw')).toEqual([]);
    } finally {
      native.mockRestore();
    }
  });

  it('explains a miss with the normalised prefix and the paths as given', () => {
    const index = compileRules(
      [{ event: 'PostToolUse', matcher: { path_prefix: ['src', '/etc'] } }],
      {
        registry: BUILT_IN_REGISTRY,
        projectDir: '/nonexistent/project',
        homeDir: '/nonexistent/home',
      },
    );
    expect(index.explain({ event: 'PostToolUse', paths: ['lib/a.ts', 'b'] })).toEqual([
      {
        ruleIndex: 0,
        matched: false,
        criterion: 'path_prefix',
        expected: '/nonexistent/project/src | /etc',
        actual: 'lib/a.ts, b',
      },
    ]);
    expect(index.explain({ event: 'PostToolUse' })[0]).toMatchObject({ actual: '(no paths)' });
  });
});

describe('suggestPathPrefix', () => {
  it.each([
    ['src/**', 'src'],
    ['src/*.ts', 'src'],
    ['src/lib/**/*.ts', 'src/lib'],
    ['/abs/dir/*', '/abs/dir'],
    ['/*', '/'],
    ['~/notes/*.md', '~/notes'],
    ['**/*.ts', undefined],
    ['?', undefined],
  ])('suggests %j → %j when given a glob', (value, expected) => {
    expect(suggestPathPrefix(value)).toBe(expected);
  });
});

describe('normalizePathPrefix', () => {
  it('resolves relative, ~ and absolute prefixes to normalised absolute paths', () => {
    const context = { projectDir: '/p', homeDir: '/h' };
    expect(normalizePathPrefix('src/../lib/', context)).toBe('/p/lib');
    expect(normalizePathPrefix('~/x', context)).toBe('/h/x');
    expect(normalizePathPrefix('~', context)).toBe('/h');
    expect(normalizePathPrefix('/a//b/', context)).toBe('/a/b');
  });
});
