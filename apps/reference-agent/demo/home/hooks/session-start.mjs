// SessionStart: observe only. Logs where the session runs (logs go to the event log, never to the model).
let raw = '';
for await (const chunk of process.stdin) raw += chunk;
const input = JSON.parse(raw);
process.stdout.write(
  JSON.stringify({
    decision: 'allow',
    logs: [`session ${input.session_id} started in ${input.project_dir}`],
  }),
);
