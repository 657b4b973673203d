// NODE_OPTIONS=--require target: it also loads into the agent itself, so it only marks a leak
// when it runs inside a hook or tool (which the agent gives SOONG_AGENT_SESSION_ID).
const fs = require('node:fs');
const path = require('node:path');
if (process.env.SOONG_AGENT_SESSION_ID && process.env.SOONG_AGENT_PROJECT_DIR) {
  fs.writeFileSync(path.join(process.env.SOONG_AGENT_PROJECT_DIR, 'LEAKED-NODE-OPTIONS'), '');
}
