// Every name a benchmark script imports from a workspace build exists there. The benches run only
// under `pnpm bench`, not in the tests, so a name cut from a package's entry would otherwise break
// `pnpm bench` unseen. Run after a build (it imports each `dist`).
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = new URL('..', import.meta.url).pathname;
const benchDirs = [
  ...['packages', 'apps'].flatMap((group) =>
    readdirSync(join(root, group)).map((name) => join(root, group, name, 'bench')),
  ),
  join(root, 'conformance', 'bench'),
];
const IMPORT = /import\s*\{([^}]*)\}\s*from\s*['"]([^'"]+)['"]/g;
const problems = [];
let checked = 0;
for (const dir of benchDirs) {
  let files;
  try {
    files = readdirSync(dir).filter((name) => name.endsWith('.mjs'));
  } catch {
    continue;
  }
  for (const name of files) {
    const file = join(dir, name);
    const text = readFileSync(file, 'utf8');
    for (const [, list, specifier] of text.matchAll(IMPORT)) {
      const workspace = specifier.startsWith('@soong-agent/');
      if (!workspace && !/^\.\.?\/.*dist\//.test(specifier)) continue;
      const url = workspace
        ? pathToFileURL(createRequire(file).resolve(specifier)).href
        : pathToFileURL(resolve(dirname(file), specifier)).href;
      let module;
      try {
        module = await import(url);
      } catch (error) {
        problems.push(`${file}: cannot load ${specifier}: ${error.message}`);
        continue;
      }
      for (const item of list.split(',')) {
        const imported = item
          .trim()
          .replace(/^type\s+/, '')
          .split(/\s+as\s+/)[0]
          .trim();
        if (imported === '' || item.trim().startsWith('type ')) continue;
        checked += 1;
        if (!(imported in module)) problems.push(`${file}: ${specifier} has no export ${imported}`);
      }
    }
  }
}
if (problems.length > 0) {
  console.error(problems.join('\n'));
  process.exit(1);
}
console.log(`bench imports: ${checked} names, all exported by the builds they come from`);
