#!/usr/bin/env node
// A Claude Code Stop hook in Node: reads the transcript (JSON lines) for the last assistant text and
// blocks the stop with {"decision":"block","reason":...} until Claude says the tests pass.
// Written from the public hooks reference.
import { readFileSync } from 'node:fs';

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const input = JSON.parse(Buffer.concat(chunks).toString('utf8'));
if (input.stop_hook_active) process.exit(0);

let lastText = '';
for (const line of readFileSync(input.transcript_path, 'utf8').split('\n')) {
  if (line.trim() === '') continue;
  const entry = JSON.parse(line);
  if (entry.type !== 'assistant') continue;
  const content = entry.message?.content;
  const texts = Array.isArray(content)
    ? content.filter((block) => block.type === 'text').map((block) => block.text)
    : [String(content ?? '')];
  if (texts.join('') !== '') lastText = texts.join('\n');
}

if (!/tests pass/i.test(lastText)) {
  console.log(
    JSON.stringify({
      decision: 'block',
      reason: 'Run the test suite and confirm that the tests pass before stopping.',
    }),
  );
}
process.exit(0);
