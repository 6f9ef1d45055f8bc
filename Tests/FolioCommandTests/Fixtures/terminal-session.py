"""Runs a program on a pseudo-terminal of its own, as a person at a terminal runs it.

    python3 terminal-session.py STEPS SECONDS PROGRAM [ARGUMENT...]

The program starts as the leader of a new session whose controlling terminal is the
pseudo-terminal (200 columns, 50 rows), so it is the terminal's foreground process group,
as a shell's command is. STEPS is a JSON list played in order:

    {"expect": "text"}  wait until the terminal shows the text (after the last match)
    {"send": "text"}    type the text; "\\u0003" is ^C, which the terminal turns into SIGINT
    {"pause": seconds}  wait, reading what the terminal shows meanwhile
    {"send": "text", "until": "shown"}
                        type the text, and again every few seconds until the terminal shows
                        "shown" (for a program that may drop keys typed at a busy moment)

then the program is waited for. Everything happens within SECONDS; past them the program is
sent SIGTERM, and a few seconds later its process group is killed. Prints one JSON object:

    {"ending": "exited" | "signalled" | "timedOut", "code": status or signal,
     "steps": steps done, "transcript": everything the terminal showed}
"""

import fcntl
import json
import os
import pty
import select
import signal
import struct
import sys
import termios
import time


def main():
    steps = json.loads(sys.argv[1])
    deadline = time.monotonic() + float(sys.argv[2])
    command = sys.argv[3:]

    pid, terminal = pty.fork()
    if pid == 0:
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 200, 0, 0))
        # Python ignores these; a program a shell starts has them at their defaults.
        for number in (signal.SIGPIPE, signal.SIGXFSZ, signal.SIGINT, signal.SIGQUIT):
            signal.signal(number, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_SETMASK, [])
        try:
            os.execvp(command[0], command)
        finally:
            os._exit(127)

    transcript = bytearray()
    closed = [False]

    def read(wait):
        """Adds what the terminal shows within `wait` seconds; False when nothing came."""
        if closed[0]:
            return False
        ready, _, _ = select.select([terminal], [], [], max(wait, 0))
        if not ready:
            return False
        try:
            data = os.read(terminal, 65536)
        except OSError:  # EIO: no process holds the terminal any more
            data = b""
        if not data:
            closed[0] = True
            return False
        transcript.extend(data)
        return True

    def wait_for(wanted, start, until):
        """Where the terminal shows `wanted` after `start` by `until`; -1 when it has not."""
        while transcript.find(wanted, start) < 0 and not closed[0] and time.monotonic() < until:
            read(until - time.monotonic())
        return transcript.find(wanted, start)

    done = 0
    searched = 0
    for step in steps:
        found = None
        if "pause" in step:
            until = min(time.monotonic() + float(step["pause"]), deadline)
            while time.monotonic() < until:
                read(until - time.monotonic())
        elif "until" in step:
            wanted = step["until"].encode()
            found = -1
            while found < 0 and not closed[0] and time.monotonic() < deadline:
                os.write(terminal, step["send"].encode())
                found = wait_for(wanted, searched, min(time.monotonic() + 5, deadline))
        elif "send" in step:
            os.write(terminal, step["send"].encode())
        else:
            wanted = step["expect"].encode()
            found = wait_for(wanted, searched, deadline)
        if found is not None:
            if found < 0:
                break
            searched = found + len(wanted)
        done += 1

    status = None
    while status is None and time.monotonic() < deadline:
        read(min(0.1, deadline - time.monotonic()))
        ended, code = os.waitpid(pid, os.WNOHANG)
        if ended:
            status = code
    if status is None:
        # SIGTERM first, which a program may clean up after (folio edit removes its copy),
        # then SIGKILL for what is left of its group.
        try:
            os.kill(pid, signal.SIGTERM)
        except OSError:
            pass
        stop = time.monotonic() + 5
        while time.monotonic() < stop and not os.waitpid(pid, os.WNOHANG)[0]:
            read(0.1)
        for kill in (lambda: os.killpg(pid, signal.SIGKILL), lambda: os.kill(pid, signal.SIGKILL)):
            try:
                kill()
            except OSError:
                pass
        try:
            os.waitpid(pid, 0)
        except ChildProcessError:
            pass
        ending, code = "timedOut", 0
    elif os.WIFSIGNALED(status):
        ending, code = "signalled", os.WTERMSIG(status)
    else:
        ending, code = "exited", os.WEXITSTATUS(status)
    # What the program wrote last: until the terminal closes, or is quiet a moment (when
    # something the program started still holds it).
    while read(0.5):
        pass
    os.close(terminal)
    print(json.dumps({"ending": ending, "code": code, "steps": done,
                      "transcript": transcript.decode("utf-8", "replace")}))


if __name__ == "__main__":
    main()
