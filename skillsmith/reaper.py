"""Run a command, then kill every process it left behind: ``python reaper.py PARENT_PID COMMAND...``.

What ``check --run --unsandboxed`` runs a script under, on Linux. This process is a child
subreaper (``prctl(PR_SET_CHILD_SUBREAPER)``): whatever the command starts stays its
descendant, even double-forked into a new session, so when the command exits, or when this
process gets SIGTERM (a timeout) or loses its parent, every descendant found in ``/proc`` is
killed and reaped before it exits. The exit status is the command's (a signal is raised
again). When the command cannot be started, it prints ``PREFIX`` and the reason on stderr
and exits 127.

Run as a script (``python -I -S``): the standard library only.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import time

PREFIX = "skillsmith-reaper: "
PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36


def descendants(root: int) -> list[int]:
    """Live (not zombie) processes below *root*, from ``/proc``."""
    children: dict[int, list[int]] = {}
    state: dict[int, str] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as fh:
                stat = fh.read().decode("ascii", "replace")
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        pid = int(name)
        state[pid] = fields[0]
        children.setdefault(int(fields[1]), []).append(pid)
    found, todo = [], list(children.get(root, ()))
    while todo:
        pid = todo.pop()
        if state.get(pid) != "Z":
            found.append(pid)
        todo.extend(children.get(pid, ()))
    return found


def kill_all() -> None:
    """SIGKILL every descendant until none is left, reaping them (orphans come to us)."""
    me = os.getpid()
    while True:
        alive = descendants(me)
        for pid in alive:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        reaped = _reap()
        if not alive and not reaped:
            return
        if not reaped:
            time.sleep(0.01)


def _reap() -> bool:
    """Reap what has ended; True when something was."""
    any_reaped = False
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return any_reaped
        if pid == 0:
            return any_reaped
        any_reaped = True


def main(argv: list[str]) -> None:
    parent, command = int(argv[0]), argv[1:]
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)

    def stop(signum, frame):
        kill_all()
        os._exit(128 + signum)

    signal.signal(signal.SIGTERM, stop)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    if os.getppid() != parent:  # the parent died before we asked to be told
        os._exit(128 + signal.SIGTERM)
    read_end, write_end = os.pipe2(os.O_CLOEXEC)  # the exec's error, if it fails
    child = os.fork()
    if child == 0:
        os.close(read_end)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        try:
            os.execvp(command[0], command)
        except OSError as exc:
            os.write(write_end, (exc.strerror or str(exc)).encode("utf-8", "replace"))
        os._exit(127)
    os.close(write_end)
    failure = b""
    while chunk := os.read(read_end, 4096):
        failure += chunk
    os.close(read_end)
    _, status = os.waitpid(child, 0)
    kill_all()
    if failure:
        sys.stderr.write(f"{PREFIX}{command[0]}: {failure.decode('utf-8', 'replace')}\n")
        sys.stderr.flush()
        os._exit(127)
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        signal.signal(sig, signal.SIG_DFL)
        os.kill(os.getpid(), sig)
    os._exit(os.waitstatus_to_exitcode(status))


if __name__ == "__main__":
    main(sys.argv[1:])
