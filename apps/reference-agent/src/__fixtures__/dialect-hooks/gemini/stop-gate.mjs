// Gemini CLI AfterAgent: deny (retry with the reason) until the tests have passed.
import fs from 'node:fs';
import path from 'node:path';

const input = JSON.parse(fs.readFileSync(0, 'utf8'));
if (!fs.existsSync(path.join(process.env.GEMINI_PROJECT_DIR ?? input.cwd, 'TESTS_PASS'))) {
  process.stdout.write(JSON.stringify({ decision: 'deny', reason: 'run the tests first' }));
}
