import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expandHome, resolveUserPath } from './expand-home.js';

describe('expandHome', () => {
  it('expands ~ and ~/ when they lead the path', () => {
    expect(expandHome('~', '/h')).toBe('/h');
    expect(expandHome('~/', '/h')).toBe('/h/');
    expect(expandHome('~/x/y', '/h')).toBe('/h/x/y');
    expect(expandHome('~/x', '/')).toBe('/x');
  });

  it('keeps .. as written when it follows ~/', () => {
    expect(expandHome('~/../etc', '/h/u')).toBe('/h/u/../etc');
    expect(expandHome('~/link/..', '/h/')).toBe('/h/link/..');
  });

  it('leaves the path unchanged when ~ names another user or is not leading', () => {
    expect(expandHome('~root/.ssh', '/h')).toBe('~root/.ssh');
    expect(expandHome('a/~/b', '/h')).toBe('a/~/b');
    expect(expandHome('/abs/~', '/h')).toBe('/abs/~');
    expect(expandHome('~~', '/h')).toBe('~~');
  });

  it('never changes a path that does not start with ~', () => {
    fc.assert(
      fc.property(
        fc.string().filter((value) => !value.startsWith('~')),
        (value) => {
          expect(expandHome(value, '/h')).toBe(value);
        },
      ),
    );
  });
});

describe('resolveUserPath', () => {
  it('resolves against the base when the path is relative and against the home after ~', () => {
    expect(resolveUserPath('src/../lib/', '/p', '/h')).toBe('/p/lib');
    expect(resolveUserPath('~/x', '/p', '/h')).toBe('/h/x');
    expect(resolveUserPath('~', '/p', '/h/')).toBe('/h');
    expect(resolveUserPath('/a//b/', '/p', '/h')).toBe('/a/b');
    expect(resolveUserPath('~user/x', '/p', '/h')).toBe('/p/~user/x');
  });

  it('returns a normalised absolute path that resolving again leaves unchanged', () => {
    const segment = fc.constantFrom('a', '.', '..', '', '~', 'b.c');
    const written = fc
      .tuple(fc.constantFrom('', '~/', '/', '~'), fc.array(segment, { maxLength: 5 }))
      .map(([head, parts]) => head + parts.join('/'));
    fc.assert(
      fc.property(written, (value) => {
        const once = resolveUserPath(value, '/p/q', '/h/u');
        expect(once.startsWith('/')).toBe(true);
        expect(resolveUserPath(once, '/elsewhere', '/other')).toBe(once);
      }),
    );
  });
});
