// Copilot CLI agentStop: decision block keeps the agent going until the tests have passed.
import fs from 'node:fs';
import path from 'node:path';

const input = JSON.parse(fs.readFileSync(0, 'utf8'));
if (!fs.existsSync(path.join(input.cwd, 'TESTS_PASS'))) {
  process.stdout.write(JSON.stringify({ decision: 'block', reason: 'run the tests first' }));
}
