// Writes schemas/*.schema.json from the built zod schemas (run `pnpm build` first), formatted the way
// Biome (the repo's formatter) keeps them, so regenerating never leaves a lint diff.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { generateConfigJsonSchemas } from '../dist/json-schemas.js';

const outDir = new URL('../schemas/', import.meta.url);
const written = [];
for (const { name, schema } of generateConfigJsonSchemas()) {
  const file = fileURLToPath(new URL(name, outDir));
  writeFileSync(file, `${JSON.stringify(schema, null, 2)}\n`);
  written.push(file);
}
let biome;
try {
  biome = createRequire(import.meta.url).resolve('@biomejs/biome/bin/biome');
} catch {
  console.warn('biome not found: schemas written unformatted');
}
if (biome !== undefined) {
  const result = spawnSync(process.execPath, [biome, 'format', '--write', ...written], {
    stdio: 'inherit',
  });
  if (result.status !== 0) process.exitCode = 1;
}
for (const file of written) console.log(`wrote ${file}`);
