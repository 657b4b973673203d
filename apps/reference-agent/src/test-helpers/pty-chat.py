"""Drives an interactive command on a pseudo-terminal through a list of steps, for tests of `chat`.

usage: pty-chat.py STEPS_JSON -- COMMAND...
STEPS_JSON is a JSON array of {"wait": TEXT, "send": TEXT}: wait until TEXT appears in the output
after the point the previous step's TEXT was found, then write SEND (may hold control characters,
e.g. "\u0003" for Ctrl-C, "\r" for Enter). After the last step it waits for the command to exit.
Prints a JSON object with the exit code, everything written to the terminal and the number of steps
done. Gives up after 90 s (the exit code is then null and the command is killed).
"""
import json
import os
import pty
import select
import signal
import sys
import time

steps = json.loads(sys.argv[1])
command = sys.argv[sys.argv.index("--") + 1 :]
pid, fd = pty.fork()
if pid == 0:
    os.execvp(command[0], command)

output = b""
position = 0
done = 0
deadline = time.time() + 90
exited = None
while time.time() < deadline:
    if done < len(steps):
        wanted = steps[done]["wait"].encode()
        found = output.find(wanted, position)
        if found != -1:
            position = found + len(wanted)
            os.write(fd, steps[done]["send"].encode())
            done += 1
            continue
    ready, _, _ = select.select([fd], [], [], 0.1)
    if ready:
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            chunk = b""
        if not chunk:
            break
        output += chunk
code = None
if time.time() >= deadline:
    os.kill(pid, signal.SIGKILL)
_, status = os.waitpid(pid, 0)
if time.time() < deadline:
    code = os.waitstatus_to_exitcode(status)
print(json.dumps({"code": code, "output": output.decode("utf8", "replace"), "steps": done}))
