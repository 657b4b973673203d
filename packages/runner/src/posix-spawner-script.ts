// The posix spawner's program (see posix-spawner.ts), run as `python3 -I -S -c SCRIPT PARENT_PID`
// with a socket on its stdin and stdout. It reads one JSON request a line, and writes one JSON line
// an answer (a `data` line is followed by that many bytes of output). It spawns with
// subprocess.Popen, which on Linux starts the child with vfork: nothing of this small process is
// copied, where Node's spawn forks its whole address space. Each child leads a new session (so a
// new process group), with an exact environment, its descriptors 0-2 set and no other, and every
// signal at its default, as Node's spawn leaves them.
//
// Requests:
//   {"t":"spawn","id":N,"file":F,"argv":[...],"env":{...},"cwd":D,"stdio":[S0,S1,S2]}
//     S: {"pipe":1} a socket pair (as Node gives), whose output is relayed in data lines;
//        {"null":1} /dev/null; {"fd":K} the parent's descriptor K, reopened for this child;
//        {"shared":K} the parent's descriptor K, reopened once and given to every child that names
//        it (their file offset is shared, as a shell's children share it) until "drop".
//   {"t":"release","pid":P}  the parent stopped reading child P's output: close it here.
//   {"t":"drop","fd":K}      forget the shared descriptor K.
// Answers:
//   {"t":"ready","pid":P}
//   {"t":"started","id":N,"pid":P}
//   {"t":"failed","id":N,"code":"ENOENT"} (an errno name) or {"t":"failed","id":N,"fallback":M}
//     (nothing was started: the parent spawns it itself);
//   {"t":"data","pid":P,"fd":1,"n":BYTES} then the bytes; {"t":"eof","pid":P,"fd":1};
//   {"t":"exit","pid":P,"code":C} or {"t":"exit","pid":P,"signal":S} (a signal number).
// When stdin closes (the parent is gone), every group still running gets SIGKILL, and it exits.
export const POSIX_SPAWNER_SCRIPT = String.raw`
import errno, json, os, selectors, signal, socket, subprocess, sys

# Descriptors the parent holds without close-on-exec came along: none of them is ours to keep.
for name in os.listdir('/proc/self/fd'):
    if int(name) > 2:
        try:
            os.close(int(name))
        except OSError:
            pass
parent = int(sys.argv[1])
if os.getppid() != parent or sys.version_info < (3, 8):
    sys.exit(3)
# The parent's descriptors are reopened through /proc: a system that forbids it is not one to
# spawn for.
os.close(os.open('/proc/%d/fd' % parent, os.O_RDONLY | os.O_DIRECTORY))
out = socket.socket(fileno=os.dup(1))
out.setblocking(True)
def send(message, data=b''):
    try:
        out.sendall(json.dumps(message, separators=(',', ':')).encode() + b'\n' + data)
    except OSError:
        gone()

sel = selectors.DefaultSelector()
# Wake-ups on a socket pair, not a pipe: no child can open it through /proc/PPID/fd and drain it.
wake_r, wake_w = socket.socketpair()
wake_r.setblocking(False)
wake_w.setblocking(False)
signal.set_wakeup_fd(wake_w.fileno())
signal.signal(signal.SIGCHLD, lambda *_: None)
requests = sys.stdin.buffer.raw.fileno()
os.set_blocking(requests, False)
children = {}
streams = {}
shared = {}

def reopen(fd):
    flags = 0
    with open('/proc/%d/fdinfo/%d' % (parent, fd)) as info:
        for line in info:
            if line.startswith('flags:'):
                flags = int(line.split()[1], 8)
    keep = os.O_ACCMODE | os.O_APPEND | os.O_NONBLOCK
    return os.open('/proc/%d/fd/%d' % (parent, fd), (flags & keep) | os.O_NOCTTY)

def spawn(request):
    opened = []
    mine = []
    stdio = []
    # A descriptor named by two slots (cmd >f 2>&1) is one open file, as a dup of it would be.
    reopened = {}
    # A child given a shared descriptor cannot go to Node, which would give it the parent's own,
    # at another offset: its errors are told, not passed on.
    sharing = any('shared' in source for source in request['stdio'])
    try:
        for child_fd, source in enumerate(request['stdio']):
            if 'pipe' in source:
                ours, theirs = socket.socketpair()
                mine.append((ours, child_fd))
                opened.append(theirs.detach())
                stdio.append(opened[-1])
            elif 'null' in source:
                stdio.append(subprocess.DEVNULL)
            elif 'shared' in source:
                key = source['shared']
                if key not in shared:
                    shared[key] = reopen(key)
                stdio.append(shared[key])
            else:
                if source['fd'] not in reopened:
                    reopened[source['fd']] = reopen(source['fd'])
                    opened.append(reopened[source['fd']])
                stdio.append(reopened[source['fd']])
        child = subprocess.Popen(request['argv'], executable=request['file'], stdin=stdio[0],
                                 stdout=stdio[1], stderr=stdio[2], cwd=request['cwd'],
                                 env=request['env'], start_new_session=True)
    except OSError as error:
        name = errno.errorcode.get(error.errno)
        # ENOEXEC: Node's spawn runs such a file with /bin/sh (as execvp does); its own errors
        # are Node's to word.
        if sharing:
            fail(request, opened, mine, {'code': name or 'EINVAL'})
        elif name in (None, 'ENOEXEC') or error.filename != request['file']:
            fail(request, opened, mine, {'fallback': str(error)})
        else:
            fail(request, opened, mine, {'code': name})
        return
    except (ValueError, UnicodeError, subprocess.SubprocessError) as error:
        fail(request, opened, mine, {'code': 'EINVAL'} if sharing else {'fallback': str(error)})
        return
    for fd in opened:
        os.close(fd)
    children[child.pid] = child
    streams[child.pid] = {}
    send({'t': 'started', 'id': request['id'], 'pid': child.pid})
    for ours, child_fd in mine:
        ours.setblocking(False)
        streams[child.pid][child_fd] = ours
        sel.register(ours, selectors.EVENT_READ, (child.pid, child_fd))

def fail(request, opened, mine, why):
    for fd in opened:
        os.close(fd)
    for ours, _ in mine:
        ours.close()
    why.update({'t': 'failed', 'id': request['id']})
    send(why)

def relay(pid, child_fd, sock, chunks=16):
    # What the socket holds now (a bounded number of reads, so a flood does not hold up the rest).
    for _ in range(chunks):
        try:
            data = sock.recv(65536)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b''
        if not data:
            close_stream(pid, child_fd)
            send({'t': 'eof', 'pid': pid, 'fd': child_fd})
            return
        send({'t': 'data', 'pid': pid, 'fd': child_fd, 'n': len(data)}, data)

def close_stream(pid, child_fd):
    sock = streams.get(pid, {}).pop(child_fd, None)
    if sock is not None:
        sel.unregister(sock)
        sock.close()

def reap():
    try:
        wake_r.recv(512)
    except (BlockingIOError, InterruptedError):
        pass
    for pid, child in list(children.items()):
        code = child.poll()
        if code is None:
            continue
        del children[pid]
        # What it wrote before it exited goes before its exit: the parent reads the output for a
        # short window after the exit only.
        for child_fd, sock in list(streams.get(pid, {}).items()):
            relay(pid, child_fd, sock, chunks=64)
        if code < 0:
            send({'t': 'exit', 'pid': pid, 'signal': -code})
        else:
            send({'t': 'exit', 'pid': pid, 'code': code})

def handle(request):
    kind = request.get('t')
    if kind == 'spawn':
        spawn(request)
    elif kind == 'release':
        for child_fd in list(streams.get(request['pid'], {})):
            close_stream(request['pid'], child_fd)
        streams.pop(request['pid'], None)
    elif kind == 'drop':
        fd = shared.pop(request['fd'], None)
        if fd is not None:
            os.close(fd)

def gone():
    for pid in children:
        try:
            os.killpg(pid, signal.SIGKILL)
        except OSError:
            pass
    sys.exit(0)

sel.register(requests, selectors.EVENT_READ, 'requests')
sel.register(wake_r, selectors.EVENT_READ, 'children')
send({'t': 'ready', 'pid': os.getpid()})
pending = b''
while True:
    # Requests left from the last pass: look at the children's output first, without waiting.
    for key, _ in sel.select(0 if b'\n' in pending else None):
        if key.data == 'children':
            reap()
            continue
        if key.data != 'requests':
            relay(key.data[0], key.data[1], key.fileobj)
            continue
        try:
            data = os.read(requests, 65536)
        except BlockingIOError:
            continue
        if not data:
            gone()
        pending += data
    # A few requests a pass, so output and exits are relayed between spawns.
    for _ in range(4):
        if b'\n' not in pending:
            break
        line, pending = pending.split(b'\n', 1)
        handle(json.loads(line))
`;
