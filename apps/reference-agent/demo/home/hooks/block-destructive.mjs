// PreToolUse on bash: deny destructive shell commands. on_failure = "deny" makes it fail closed.
let raw = '';
for await (const chunk of process.stdin) raw += chunk;
const command = String(JSON.parse(raw).tool?.input?.command ?? '');
const rules = [
  ['recursive forced delete (rm -rf)', /\brm\s+-[a-z]*(rf|fr)/i],
  ['force push', /\bgit\s+push\b.*(--force|-f\b)/],
  ['filesystem format (mkfs)', /\bmkfs\b/],
  ['raw disk write (dd)', /\bdd\s+.*of=\/dev\//],
];
const hit = rules.find(([, pattern]) => pattern.test(command));
if (hit) {
  process.stdout.write(
    JSON.stringify({ decision: 'deny', reason: `${hit[0]} is blocked: ${command}` }),
  );
}
