// A hook written with defineHook, for hook.test.ts. What it does is chosen by the tool call's
// input `act` (other events: allow):
//   allow | deny   that decision; the reason counts the calls this process served
//   none           no decision (returns undefined)
//   null           no decision (returns null)
//   throw          the handler throws
//   log            a stderr line, then allow
//   bigint         an output JSON cannot hold
//   mode           allow with reason = the mode the helper saw
import { defineHook } from '@soong-agent/protocol/hook';

let calls = 0;
await defineHook(async (input, context) => {
  calls += 1;
  const act = input.event === 'PreToolUse' ? (input.tool.input.act ?? 'allow') : 'allow';
  if (act === 'none') return undefined;
  if (act === 'null') return null;
  if (act === 'throw') throw new Error('handler-failure-marker');
  if (act === 'bigint') return { decision: 'allow', metadata: { n: 1n } };
  if (act === 'mode') return { decision: 'allow', reason: context.mode };
  if (act === 'log') console.error(`log-marker ${input.event}`);
  await new Promise((resolve) => setTimeout(resolve, 1));
  return { decision: act === 'deny' ? 'deny' : 'allow', reason: `call ${calls} of ${process.pid}` };
});
