// Emits event records until the disk refuses one (run it under `ulimit -f`), then one more.
// argv: <dist dir> <log file>. Prints { written, code, again } as JSON: how many records were
// written, the error code of the refused one, and the code of the emit after it.
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [distDir, file] = process.argv.slice(2);
const { createJsonlEventSink } = await import(
  pathToFileURL(path.join(distDir, 'event-sink.js')).href
);
const sink = createJsonlEventSink(file, { sessionId: 'full' });
const prompt = 'x'.repeat(300);
let written = 0;
let code;
while (code === undefined && written < 100_000) {
  try {
    sink.emit({ type: 'user_prompt_submitted', prompt: `${written + 1} ${prompt}` });
    written += 1;
  } catch (error) {
    code = error.code;
  }
}
let again;
try {
  sink.emit({ type: 'loop_ended', reason: 'error' });
} catch (error) {
  again = error.code;
}
process.stdout.write(JSON.stringify({ written, code, again }));
