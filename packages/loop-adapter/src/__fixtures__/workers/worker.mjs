// A worker hook for the engine tests (spec §8): one request per line on stdin, one response per
// line on stdout. What it does is chosen by the tool call's input `act`:
//   allow | deny        answer that decision (reason names the pid, so tests can see reuse)
//   log                 write a stderr line, then allow
//   hang                never answer this request
//   crash               exit 3 without answering
//   garbage             write a line that is not JSON, and never answer
//   debug-deny          write a debug line on stdout, then deny
//   bare-deny           print a soong output without the {"id","output"} wrapper
//   stray-next          allow, then 100 ms later a stray allow for the next id
//   stray-marked        allow, then 20 ms later a stray allow for the next id, then create the
//                       file input.marker (the stray line is in the pipe by then)
//   wrong-id            answer with the id of another request
//   flood               answer with one line of 100000 bytes
//   fork                start a background `sleep 600` (its pid goes to input.pid_file), then allow
//   env                 allow with reason = the SOONG_AGENT_* variables it sees
//   context             allow with context = input.tool.input.text (spec §13.1)

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import readline from 'node:readline';

const lines = readline.createInterface({ input: process.stdin });
const answer = (id, output) => process.stdout.write(`${JSON.stringify({ id, output })}\n`);

for await (const line of lines) {
  const { id, input } = JSON.parse(line);
  const act = input.tool?.input?.act ?? 'allow';
  if (act === 'hang') continue;
  if (act === 'crash') process.exit(3);
  if (act === 'garbage') {
    process.stdout.write('this is not json\n');
    continue;
  }
  if (act === 'debug-deny') {
    process.stdout.write('debug: checking the command\n');
    answer(id, { decision: 'deny', reason: `debug-deny from ${process.pid}` });
    continue;
  }
  if (act === 'bare-deny') {
    process.stdout.write(`${JSON.stringify({ decision: 'deny', reason: 'bare' })}\n`);
    continue;
  }
  if (act === 'stray-next') {
    answer(id, { decision: 'allow' });
    setTimeout(() => answer(id + 1, { decision: 'allow', reason: 'stray' }), 100);
    continue;
  }
  if (act === 'stray-marked') {
    answer(id, { decision: 'allow' });
    setTimeout(() => {
      answer(id + 1, { decision: 'allow', reason: 'stray' });
      fs.writeFileSync(input.tool.input.marker, '');
    }, 20);
    continue;
  }
  if (act === 'wrong-id') {
    answer(id + 100, { decision: 'allow' });
    continue;
  }
  if (act === 'flood') {
    answer(id, { decision: 'allow', reason: 'x'.repeat(100_000) });
    continue;
  }
  if (act === 'log') process.stderr.write(`worker ${process.pid} saw ${input.event}\n`);
  if (act === 'fork') {
    const child = spawn('sleep', ['600'], { stdio: 'ignore' });
    fs.writeFileSync(input.tool.input.pid_file, String(child.pid));
  }
  if (act === 'context') {
    answer(id, { decision: 'allow', context: input.tool.input.text });
    continue;
  }
  if (act === 'env') {
    const seen = Object.keys(process.env).filter((name) => name.startsWith('SOONG_AGENT_'));
    answer(id, {
      decision: 'allow',
      reason: `${seen.sort().join(',')} mode=${process.env.SOONG_AGENT_HOOK_MODE}`,
    });
    continue;
  }
  answer(id, {
    decision: act === 'deny' ? 'deny' : 'allow',
    reason: `${act} from ${process.pid}`,
    metadata: { pid: process.pid, request: id },
  });
}
