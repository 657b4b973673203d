// Writes event records as fast as it can until killed. argv: <dist dir> <log file>
// Prints the number of records written after every 100, so the test knows when to kill it.
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [distDir, file] = process.argv.slice(2);
const { createJsonlEventSink } = await import(
  pathToFileURL(path.join(distDir, 'event-sink.js')).href
);
const sink = createJsonlEventSink(file, { sessionId: 'crash' });
const prompt = 'x'.repeat(20_000);
for (let count = 1; ; count++) {
  sink.emit({ type: 'user_prompt_submitted', prompt: `${count} ${prompt}` });
  if (count % 100 === 0) process.stdout.write(`${count}\n`);
}
