// Writes the package's JSON Schema files from the built zod schemas.
// Run through `pnpm --filter @soong-agent/protocol generate:schemas` (builds first).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateJsonSchemas } from '../dist/generate-json-schemas.js';

const schemasDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'schemas');
mkdirSync(schemasDir, { recursive: true });
for (const [file, schema] of Object.entries(generateJsonSchemas())) {
  writeFileSync(join(schemasDir, file), `${JSON.stringify(schema, null, 2)}\n`);
  console.log(`wrote schemas/${file}`);
}
