// Tests of the citation rewrite and the README example check (node --test, run by `pnpm lint`).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { checkFile, regionOf } from './check-readme-examples.mjs';
import {
  codeRanges,
  headingAnchor,
  nearestSection,
  rewriteMarkdown,
  rewritePlain,
  specSections,
} from './spec-sections.mjs';

// The old form is spelled in two pieces so that check-spec-refs does not flag this file's text.
const OLD = 'SPEC';
const sections = new Map([
  ['4', '4-the-loop-deny-semantics'],
  ['4.2', '42-pretooluse-hooks'],
  ['13.1', '131-context-from-hooks'],
]);

describe('headingAnchor', () => {
  it("turns a heading into GitHub's anchor when it has dots, colons and code", () => {
    assert.equal(headingAnchor('4. The loop: deny semantics'), '4-the-loop-deny-semantics');
    assert.equal(headingAnchor('1.1 hooks.json'), '11-hooksjson');
    assert.equal(headingAnchor('`soong-agent chat`'), 'soong-agent-chat');
  });
});

describe('specSections', () => {
  it('finds every section number the contract is cited by, from 0 to 14', () => {
    const found = specSections();
    for (const number of ['0', '1.1', '1.2', '1.3', '2.1', '2.2', '2.3', '4.6', '13.3', '14']) {
      assert.ok(found.has(number), number);
    }
  });
});

describe('nearestSection', () => {
  it('falls back to the chapter when a subsection does not exist', () => {
    assert.equal(nearestSection(sections, '4.2'), '42-pretooluse-hooks');
    assert.equal(nearestSection(sections, '4.9'), '4-the-loop-deny-semantics');
    assert.equal(nearestSection(sections, '99'), undefined);
  });
});

describe('rewritePlain', () => {
  it('lower-cases the word before a section sign, also wrapped or escaped, and nothing else', () => {
    const text = [
      `// (${OLD} §4) and ${OLD} §13.1`,
      ` * in order (${OLD}`,
      ' * §13.1; only with …)',
      `"description": "${OLD} \\u00a74.2: a readonly call"`,
      `${OLD}.md stays, ${OLD} alone stays`,
    ].join('\n');
    const expected = [
      '// (spec §4) and spec §13.1',
      ' * in order (spec',
      ' * §13.1; only with …)',
      '"description": "spec \\u00a74.2: a readonly call"',
      `${OLD}.md stays, ${OLD} alone stays`,
    ].join('\n');
    assert.equal(rewritePlain(text), expected);
    assert.equal(rewritePlain(expected), expected);
  });
});

describe('rewriteMarkdown', () => {
  it('links a citation in prose with the path relative to the file and the anchor', () => {
    const out = rewriteMarkdown(
      `the step halts as ${OLD} §4.2 says`,
      'packages/x/README.md',
      sections,
    );
    assert.equal(out, 'the step halts as [spec §4.2](../../docs/spec.md#42-pretooluse-hooks) says');
    assert.equal(rewriteMarkdown(out, 'packages/x/README.md', sections), out);
  });

  it('writes plain text inside code, inside a link text and in a changeset', () => {
    const text = [
      `\`gate\` (${OLD} §4) \`x ${OLD} §4\``,
      '```ts',
      `const gate = session.toolGate(); // ${OLD} §4`,
      '```',
      `[${OLD} §13.1](elsewhere.md)`,
    ].join('\n');
    const out = rewriteMarkdown(text, 'docs/a.md', sections);
    assert.equal(
      out,
      [
        '`gate` ([spec §4](spec.md#4-the-loop-deny-semantics)) `x spec §4`',
        '```ts',
        'const gate = session.toolGate(); // spec §4',
        '```',
        '[spec §13.1](elsewhere.md)',
      ].join('\n'),
    );
    assert.equal(rewriteMarkdown(`${OLD} §4`, '.changeset/a.md', sections), 'spec §4');
  });

  it('finds the code of an unclosed fence up to the end', () => {
    assert.deepEqual(codeRanges('a\n```\nb'), [[2, 7]]);
  });
});

describe('check-readme-examples', () => {
  const root = mkdtempSync(join(tmpdir(), 'readme-examples-'));
  after(() => rmSync(root, { recursive: true, force: true }));
  mkdirSync(join(root, 'pkg', 'src'), { recursive: true });
  writeFileSync(
    join(root, 'pkg', 'src', 'a.examples.ts'),
    'declare const x: number;\nexport function f() {\n  //#region r\n  const y = x + 1;\n\n  return y;\n  //#endregion r\n}\n',
  );
  const readme = (body) => {
    writeFileSync(join(root, 'pkg', 'README.md'), body);
    return 'pkg/README.md';
  };

  it('reads a region dedented, and names what is missing', () => {
    assert.deepEqual(regionOf(join(root, 'pkg', 'src', 'a.examples.ts'), 'r'), {
      code: 'const y = x + 1;\n\nreturn y;',
    });
    assert.match(
      regionOf(join(root, 'pkg', 'src', 'a.examples.ts'), 'q').error,
      /no \/\/#region q/,
    );
    assert.match(regionOf(join(root, 'pkg', 'src', 'none.ts'), 'r').error, /does not exist/);
  });

  it('passes a block equal to its region and one that says why it is unchecked', () => {
    const file = readme(
      '```ts source="src/a.examples.ts#r"\nconst y = x + 1;\n\nreturn y;\n```\n\n```ts unchecked="a sketch"\nanything\n```\n',
    );
    assert.deepEqual(checkFile(file, false, root).findings, []);
  });

  it('fails a block that differs, and --write copies the region into it', () => {
    const file = readme('text\n```ts source="src/a.examples.ts#r"\nconst y = x;\n```\nend\n');
    const checked = checkFile(file, false, root);
    assert.equal(checked.findings.length, 1);
    assert.match(checked.findings[0], /^pkg\/README\.md:2: differs/);
    const written = checkFile(file, true, root);
    assert.equal(
      written.next,
      'text\n```ts source="src/a.examples.ts#r"\nconst y = x + 1;\n\nreturn y;\n```\nend\n',
    );
  });

  it('fails a TypeScript block with neither attribute, and leaves other languages alone', () => {
    const file = readme('```sh\nnpm test\n```\n\n```typescript\nlet a = 1;\n```\n');
    const { findings } = checkFile(file, false, root);
    assert.equal(findings.length, 1);
    assert.match(findings[0], /^pkg\/README\.md:5: a TypeScript block needs/);
  });
});
