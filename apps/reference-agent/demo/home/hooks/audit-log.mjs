// PostToolUse: append one line per tool call to <agent home>/audit.log. Large results arrive as an
// artifact ref (summary + path) instead of inline content.
import { appendFileSync } from 'node:fs';
import path from 'node:path';

let raw = '';
for await (const chunk of process.stdin) raw += chunk;
const input = JSON.parse(raw);
const { tool, result } = input;
const ref = result.artifact_ref;
const line = `${input.timestamp} ${tool.name} ${tool.call_id} ${result.is_error ? 'error' : 'ok'} ${result.bytes}B${ref ? ` artifact=${ref.path}` : ''}\n`;
appendFileSync(path.join(input.agent_home, 'audit.log'), line);
const logs = ref
  ? [`${result.bytes}-byte result passed as artifact ${ref.id.slice(0, 12)}… (${ref.path})`]
  : [];
process.stdout.write(JSON.stringify({ decision: 'allow', logs }));
