// Stop: refuse to finish until run_tests has passed in this session (read from the session's event log).
import { readFileSync } from 'node:fs';
import path from 'node:path';

let raw = '';
for await (const chunk of process.stdin) raw += chunk;
const input = JSON.parse(raw);
const log = path.join(input.agent_home, 'sessions', input.session_id, 'events.jsonl');
const passed = readFileSync(log, 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => {
    try {
      return JSON.parse(line);
    } catch {
      return {};
    }
  })
  .some(
    (record) =>
      record.type === 'tool_finished' && record.tool === 'run_tests' && record.is_error === false,
  );
if (!passed) {
  process.stdout.write(
    JSON.stringify({
      decision: 'deny',
      reason: 'tests were not run: call run_tests and make them pass before finishing',
    }),
  );
}
