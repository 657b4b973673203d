import { describe, expect, it } from 'vitest';
import { compileRegex, finiteStrings, parseRegex, RegexAnalysisError } from './regex-analysis.js';

const test = (pattern: string, text: string) => compileRegex(parseRegex(pattern)).test(text);

describe('regex analysis', () => {
  it('agrees with RegExp.prototype.test on the patterns hook matchers use', () => {
    const patterns = [
      'Edit|Write',
      '(Edit|Write)',
      '^Bash$',
      'Edit.*',
      '.*',
      'mcp__memory__.*',
      '^mcp__.*__write.*',
      'Write|Edit|MultiEdit',
      '[A-Z][a-z]+',
      'read_.*',
      '(?:functions\\.)?apply_patch',
      'a{2,3}b',
      '\\w+_file$',
      'Bash(git commit:*)',
      '^(Read|Grep)?$',
      'x?y+z*',
      '[^_]+',
      '\\.',
      'run_shell_command|replace',
    ];
    const names = [
      'Edit',
      'Write',
      'NotebookEdit',
      'MultiEdit',
      'Bash',
      'BashOutput',
      'mcp__memory__create',
      'mcp__fs__write_file',
      'read_file',
      'functions.apply_patch',
      'apply_patch',
      'aab',
      'aaaab',
      'write_file',
      '',
      'Bashgit commit',
      'yz',
      'a.b',
      'replace',
      'run_shell_command',
    ];
    for (const pattern of patterns) {
      const regex = new RegExp(pattern);
      for (const name of names)
        expect(test(pattern, name), `${pattern} on ${name}`).toBe(regex.test(name));
    }
  });

  it('answers a ReDoS pattern on long input in linear time (a backtracking engine would hang)', () => {
    const started = performance.now();
    expect(test('^(.*.*.*.*.*.*.*.*.*.*)*!$', 'a'.repeat(5000))).toBe(false);
    expect(test('^(a+)+$', `${'a'.repeat(5000)}b`)).toBe(false);
    // generous bound: the point is that it ends (a backtracking engine takes longer than the universe)
    expect(performance.now() - started).toBeLessThan(30_000);
  });

  it('spells out finite alternatives and says when a language is infinite', () => {
    expect(finiteStrings(parseRegex('(Edit|Write)'))?.sort()).toEqual(['Edit', 'Write']);
    expect(finiteStrings(parseRegex('mcp__s__(a|b|c)'))).toEqual([
      'mcp__s__a',
      'mcp__s__b',
      'mcp__s__c',
    ]);
    expect(finiteStrings(parseRegex('^Bash$'))).toEqual(['Bash']);
    expect(finiteStrings(parseRegex('Edit.*'))).toBeUndefined();
  });

  it('refuses syntax it cannot analyse instead of guessing', () => {
    for (const pattern of ['(?=Edit)', '(a)\\1', '\\bBash', '(?i)bash', 'a{1000}']) {
      expect(() => parseRegex(pattern), pattern).toThrow(RegexAnalysisError);
    }
  });
});
