"""A function called in a forked child process, so that whatever goes wrong there stays there.

Native code that crashes (libcst's parser overflows its stack on deep input and the process
dies of SIGSEGV), a regular expression that backtracks for minutes, or a recursion that
blows up cannot take the caller's run down: :func:`call` returns the function's value or
raises :class:`Failed` saying why (the exception it raised, the signal that killed it, the
time limit it passed). The child gets the caller's memory as it is (parse trees need not be
pickled); only the value comes back, pickled. Without ``os.fork`` the function runs in this
process, bounded by nothing.
"""

from __future__ import annotations

import os
import pickle
import select
import signal
import time


class Failed(Exception):
    """The call did not return a value: the message says why."""


def call(func, *args, timeout: float):
    """``func(*args)`` in a forked child that may take at most *timeout* seconds."""
    if not hasattr(os, "fork"):
        return func(*args)
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: send (True, value) or (False, why) and leave without cleaning up
        try:
            os.close(read_end)
            try:
                payload = pickle.dumps((True, func(*args)))
            except BaseException as exc:  # noqa: BLE001 - everything goes back as a reason
                payload = pickle.dumps((False, f"{type(exc).__name__}: {exc}"[:500]))
            view = memoryview(payload)
            while view:
                view = view[os.write(write_end, view):]
        finally:
            os._exit(0)
    os.close(write_end)
    chunks = []
    deadline = time.monotonic() + timeout
    timed_out = False
    try:
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not select.select([read_end], [], [], remaining)[0]:
                timed_out = True
                break
            chunk = os.read(read_end, 1 << 16)
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(read_end)
        if timed_out:
            os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
    if timed_out:
        raise Failed(f"took longer than {timeout:g} s")
    if os.WIFSIGNALED(status):
        raise Failed(f"crashed ({signal_name(os.WTERMSIG(status))})")
    try:
        ok, value = pickle.loads(b"".join(chunks))
    except Exception:  # noqa: BLE001 - a child that died mid-write
        raise Failed(f"ended without an answer (exit status {os.waitstatus_to_exitcode(status)})") from None
    if not ok:
        raise Failed(value)
    return value


def signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"
