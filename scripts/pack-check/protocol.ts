// A consumer of @soong-agent/protocol alone, installed from its packed tarball.
import { EVENT_RECORD_TYPES, parseHookOutput, safeParseHookOutput } from '@soong-agent/protocol';

const output = parseHookOutput('{"decision":"deny","reason":"no"}');
if (output?.decision !== 'deny' || output.reason !== 'no') throw new Error('parseHookOutput');
if (safeParseHookOutput('not json').success) throw new Error('safeParseHookOutput');
if (!EVENT_RECORD_TYPES.includes('hook_denied')) throw new Error('EVENT_RECORD_TYPES');
console.log('ok @soong-agent/protocol');
