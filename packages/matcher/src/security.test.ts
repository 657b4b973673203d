import fs from 'node:fs';
import path from 'node:path';
import { createTree, makeTempDir } from '@soong-agent/test-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileRules } from './index.js';
import { BUILT_IN_REGISTRY } from './test-helpers/registry.js';

// The attacker's side of path_prefix: a protected tree, and a project full of tricks (planted
// symlinks, dangling ones, loops, odd spellings) trying to reach it without matching the rule.

function setUp() {
  const root = makeTempDir();
  const projectDir = path.join(root, 'project');
  const homeDir = path.join(root, 'os-home');
  createTree(root, [
    'project/secrets/key.txt',
    'project/secrets/deep/er/file.txt',
    'project/secrets2/x.txt',
    'project/src/a.ts',
    'os-home/.ssh/id_ed25519',
    'elsewhere/',
  ]);
  const link = (target: string, at: string) => fs.symlinkSync(target, path.join(root, at));
  link(path.join(projectDir, 'secrets'), 'project/abs-link');
  link('secrets', 'project/rel-link');
  link('../secrets/deep', 'project/src/deep-link');
  link('src/deep-link', 'project/chain');
  link(root, 'project/up');
  link('secrets/new.txt', 'project/dangling-file');
  link('secrets/new-dir', 'project/dangling-dir');
  link('dangling-file', 'project/dangling-chain');
  link('../os-home/.ssh/authorized_keys', 'project/ssh-key');
  link('loop-b', 'project/loop-a');
  link('loop-a', 'project/loop-b');
  const index = compileRules(
    [
      { event: 'PreToolUse', matcher: { path_prefix: 'secrets' } },
      { event: 'PreToolUse', matcher: { path_prefix: '~/.ssh' } },
    ],
    { registry: BUILT_IN_REGISTRY, projectDir, homeDir },
  );
  const matchedRules = (written: string): number[] =>
    index.match({ event: 'PreToolUse', tool: 'write_file', paths: [written] });
  return { root, projectDir, homeDir, matchedRules };
}

/** Where the OS lands (symlinks followed, `..` after them) through the longest existing ancestor. */
function osWalk(raw: string): string {
  const rest: string[] = [];
  for (let current = raw; ; current = path.dirname(current)) {
    try {
      return path.join(fs.realpathSync.native(current), ...rest.reverse());
    } catch {
      if (path.dirname(current) === current) return path.resolve(raw);
      rest.push(path.basename(current));
    }
  }
}

describe('compileRules path_prefix', () => {
  it.each([
    'secrets/key.txt',
    'src/../secrets/key.txt',
    'secrets//key.txt',
    './secrets/./key.txt',
    'secrets/.',
    'secrets/',
    'secrets',
    'abs-link/key.txt',
    'rel-link/deep/er/file.txt',
    'src/deep-link/er/file.txt',
    'chain/er/file.txt',
    'up/project/secrets/key.txt',
    'rel-link/not/yet/there.txt',
    'dangling-file',
    'dangling-dir/new.txt',
    'dangling-chain',
  ])('matches the secrets rule when the path is written %j', (written) => {
    const { matchedRules } = setUp();
    expect(matchedRules(written)).toEqual([0]);
  });

  it('matches the ~/.ssh rule when a dangling symlink in the project leads to a file not yet there', () => {
    const { matchedRules, homeDir } = setUp();
    expect(matchedRules('ssh-key')).toEqual([1]);
    expect(matchedRules(path.join(homeDir, '.ssh', 'authorized_keys'))).toEqual([1]);
  });

  it.each([
    'secrets2/x.txt',
    'src/a.ts',
    'secrets/../src/a.ts',
    'Secrets/key.txt',
    'SECRETS',
    '../elsewhere/secrets/key.txt',
  ])('does not match when the path %j lies outside the protected trees', (written) => {
    const { matchedRules } = setUp();
    // Case-sensitive by design: `Secrets` is another folder on Linux (a case-insensitive file
    // system such as macOS's default would alias it; README limit).
    expect(matchedRules(written)).toEqual([]);
  });

  it('returns without throwing when a path goes through a symlink loop, holds NUL or is very long', () => {
    const { matchedRules } = setUp();
    expect(matchedRules('loop-a/x')).toEqual([]);
    expect(matchedRules('loop-a')).toEqual([]);
    expect(matchedRules('secrets/a\u0000b')).toEqual([0]);
    expect(matchedRules(`secrets/${'x/'.repeat(40_000)}y`)).toEqual([0]);
    expect(matchedRules(`${'a'.repeat(300)}/secrets`)).toEqual([]);
  });

  it('matches exactly the paths whose lexical or real location is under the prefix, for any mix of segments', () => {
    const { projectDir, matchedRules } = setUp();
    const protectedReal = path.join(projectDir, 'secrets');
    const under = (candidate: string) =>
      candidate === protectedReal || candidate.startsWith(`${protectedReal}${path.sep}`);
    const segment = fc.constantFrom(
      '..',
      '.',
      '',
      'secrets',
      'secrets2',
      'src',
      'deep',
      'key.txt',
      'abs-link',
      'rel-link',
      'chain',
      'missing',
    );
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 5 }), (segments) => {
        const written = segments.join('/');
        const lexical = path.resolve(projectDir, written);
        const raw = path.isAbsolute(written) ? written : `${projectDir}/${written}`;
        const real = osWalk(raw);
        const realLexical = osWalk(lexical);
        const expected = under(lexical) || under(real) || under(realLexical);
        expect(matchedRules(written).includes(0), written).toBe(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('sees a dangling symlink planted after compiling when the subject is fresh', () => {
    const { projectDir, matchedRules } = setUp();
    expect(matchedRules('later.txt')).toEqual([]);
    fs.symlinkSync('secrets/later.txt', path.join(projectDir, 'later.txt'));
    expect(matchedRules('later.txt')).toEqual([0]);
  });
});
