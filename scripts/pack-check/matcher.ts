// A consumer of @soong-agent/matcher alone, installed from its packed tarball.
import os from 'node:os';
import { builtInMatchers, compileRules, createMatcherRegistry } from '@soong-agent/matcher';

const registry = createMatcherRegistry(builtInMatchers);
const index = compileRules(
  [
    { event: 'PreToolUse', matcher: { tool: ['write_file'], path_prefix: 'src' } },
    { event: 'PreToolUse', matcher: 'bash' },
  ],
  { projectDir: '/p', homeDir: os.homedir(), registry },
);
const hits = index.match({ event: 'PreToolUse', tool: 'write_file', paths: ['/p/src/a.ts'] });
if (JSON.stringify(hits) !== '[0]') throw new Error(`match: ${JSON.stringify(hits)}`);
console.log('ok @soong-agent/matcher');
