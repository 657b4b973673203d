// Cursor stop: a followup_message keeps the agent going until the tests have passed.
import fs from 'node:fs';
import path from 'node:path';

const input = JSON.parse(fs.readFileSync(0, 'utf8'));
const root = input.workspace_roots[0];
process.stdout.write(
  JSON.stringify(
    fs.existsSync(path.join(root, 'TESTS_PASS')) ? {} : { followup_message: 'run the tests first' },
  ),
);
