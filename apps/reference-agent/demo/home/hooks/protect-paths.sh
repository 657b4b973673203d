#!/bin/sh
# PreToolUse on path_prefix "secrets": the matcher already selected the call, so deny it.
cat >/dev/null
echo '{"decision":"deny","reason":"secrets/ is protected: the agent may not read or write it"}'
