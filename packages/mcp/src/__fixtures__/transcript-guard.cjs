// A Claude Code PreToolUse hook that blocks (exit 2) unless the file at transcript_path exists and
// shows this very call as a tool_use. argv[2]: a file that gets one JSON line per call with the
// tool's name and how many tool_result blocks the transcript held.
const fs = require('node:fs');

let raw = '';
process.stdin.on('data', (chunk) => {
  raw += chunk;
});
process.stdin.on('end', () => {
  const input = JSON.parse(raw);
  let lines;
  try {
    lines = fs
      .readFileSync(input.transcript_path, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
  } catch (error) {
    process.stderr.write(`no transcript: ${error.message}`);
    process.exit(2);
  }
  const blocks = lines.flatMap((line) =>
    Array.isArray(line.message?.content) ? line.message.content : [],
  );
  const used = blocks.some(
    (block) =>
      block.type === 'tool_use' && block.id === input.tool_use_id && block.name === input.tool_name,
  );
  fs.appendFileSync(
    process.argv[2],
    `${JSON.stringify({
      tool: input.tool_name,
      results: blocks.filter((block) => block.type === 'tool_result').length,
    })}\n`,
  );
  if (used) process.exit(0);
  process.stderr.write('the transcript does not show this call');
  process.exit(2);
});
