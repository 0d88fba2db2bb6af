#!/usr/bin/env python3
# A hostile client of the session daemon, speaking lib/ipc/proto.h and lib/ipc/ctl.h
# directly (what spoor session and libspoor-ust would never send):
#   ctl SOCK KEY VALUE...   one control request (first pair: verb V); prints the reply's
#                           stdout and stderr, exits with its status
#   bells SOCK              two programs: "separate" when their doorbells are two files (one
#                           clearing O_NONBLOCK on its own leaves the other's alone), else
#                           "shared"
#   steal-bell SOCK N PID   a program that makes its doorbell blocking and reads it away
#                           as it rings it, up to N times or until the daemon (PID) sits
#                           in read(); then stays (SIGTERM ends it)
#   hello SOCK N [stay]     N programs of this uid say HELLO; prints how many got a reply;
#                           stay: then holds them (SIGTERM ends it)
import array, fcntl, os, socket, struct, sys, threading, time

MAGIC, VERSION = 0x53504F53, 2
HELLO, HELLO_REPLY, CTL_REQUEST, CTL_REPLY = 1, 2, 16, 17


def head(kind, length):
    return struct.pack("<4I", MAGIC, VERSION, kind, length)


def connect(path):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    s.connect(path)
    return s


def hello(path):
    """A program's HELLO: (socket, its doorbell fd), or (socket, None) when refused."""
    s = connect(path)
    body = struct.pack("<iiI16s", os.getpid(), os.getppid(), os.getuid(), b"hostile")
    s.send(head(HELLO, 16 + len(body)) + body)
    s.settimeout(5)
    try:
        msg, anc, _, _ = s.recvmsg(4096, socket.CMSG_SPACE(4))
    except (OSError, socket.timeout):
        return s, None
    fds = array.array("i")
    for level, kind, data in anc:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            fds.frombytes(data[: len(data) - len(data) % 4])
    if len(msg) < 16 or struct.unpack("<4I", msg[:16])[2] != HELLO_REPLY or not fds:
        return s, None
    return s, fds[0]


def ctl(path, pairs):
    text = "".join("%s %s\n" % (pairs[i], pairs[i + 1]) for i in range(0, len(pairs), 2))
    s = connect(path)
    s.send(head(CTL_REQUEST, 16 + len(text)) + text.encode())
    msg = s.recv(1 << 17)
    status, outlen = struct.unpack("<iI", msg[16:24])
    sys.stdout.write(msg[24 : 24 + outlen].decode(errors="replace"))
    sys.stderr.write(msg[24 + outlen :].decode(errors="replace"))
    return status


def blocking(fd):
    fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) & ~os.O_NONBLOCK)


def main():
    verb, path = sys.argv[1], sys.argv[2]
    if verb == "ctl":
        return ctl(path, sys.argv[3:])
    if verb == "bells":
        (_, a), (_, b) = hello(path), hello(path)
        blocking(a)
        print("separate" if fcntl.fcntl(b, fcntl.F_GETFL) & os.O_NONBLOCK else "shared")
        return 0
    if verb == "steal-bell":
        s, bell = hello(path)
        blocking(bell)

        def reader():  # takes the count away between the daemon's poll and its read
            while True:
                os.read(bell, 8)

        threading.Thread(target=reader, daemon=True).start()
        for _ in range(int(sys.argv[3])):
            os.write(bell, struct.pack("<Q", 1))
            time.sleep(0.002)
            with open("/proc/%s/syscall" % sys.argv[4]) as f:
                if f.read().split()[0] == "0":  # read(): waiting on what it cannot get
                    break
        print("rang", flush=True)
        time.sleep(1e6)
        return 0
    if verb == "hello":
        held = [hello(path) for _ in range(int(sys.argv[3]))]
        print(sum(1 for _, fd in held if fd is not None), flush=True)
        if sys.argv[4:] == ["stay"]:
            time.sleep(1e6)
        return 0
    return 2


sys.exit(main())
