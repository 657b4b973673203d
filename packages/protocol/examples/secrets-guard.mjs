#!/usr/bin/env node
// secrets-guard: deny write_file / edit_file calls whose path is under a secrets/ directory,
// allow everything else. No dependencies. Logs one line to stderr (event log only).
let raw = '';
for await (const chunk of process.stdin) raw += chunk;
const input = JSON.parse(raw);
const tool = input.tool ?? {};
console.error(`secrets-guard: ${input.event} ${tool.name ?? ''}`);

let output = { decision: 'allow' };
if (input.event === 'PreToolUse' && ['write_file', 'edit_file'].includes(tool.name)) {
  const hit = [...tool.paths, tool.input.path].find(
    (path) => typeof path === 'string' && `/${path}`.includes('/secrets/'),
  );
  if (hit !== undefined) {
    output = {
      decision: 'deny',
      reason: `${hit} is under a secrets/ directory; do not write there`,
      metadata: { rule: 'secrets' },
    };
  }
}
console.log(JSON.stringify(output));
