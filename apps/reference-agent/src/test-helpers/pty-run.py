"""Runs a command on a pseudo-terminal and answers prompts, for tests of interactive behaviour.

usage: pty-run.py PROMPT_TEXT ANSWER -- COMMAND...
Writes ANSWER + newline each time PROMPT_TEXT appears in the output; prints a JSON object with the
exit code and everything the command wrote to the terminal. Gives up after 60 s.
"""
import json
import os
import pty
import select
import sys
import time

prompt, answer = sys.argv[1].encode(), sys.argv[2].encode()
command = sys.argv[sys.argv.index("--") + 1 :]
pid, fd = pty.fork()
if pid == 0:
    os.execvp(command[0], command)

output = b""
answered = 0
deadline = time.time() + 60
while time.time() < deadline:
    ready, _, _ = select.select([fd], [], [], 0.1)
    if ready:
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            break
        if not chunk:
            break
        output += chunk
        if output.count(prompt) > answered:
            answered += 1
            os.write(fd, answer + b"\n")
_, status = os.waitpid(pid, 0)
print(json.dumps({"code": os.waitstatus_to_exitcode(status), "output": output.decode("utf8", "replace"), "answered": answered}))
