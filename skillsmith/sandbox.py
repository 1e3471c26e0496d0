"""Running a skill's program where it can do no harm: in a bubblewrap sandbox, or (only when
the user asks) without one.

In the sandbox (``bwrap``, the Debian/Fedora package ``bubblewrap``) the program sees:

- the system folders (``/usr``, ``/etc``, ``/opt``, the ``/lib`` and ``/bin`` links) and its
  interpreter's own installation, read-only; the folders it is given (the skill), read-only;
- a private, size-limited temporary file system on ``/tmp`` holding its HOME, its working
  folder and its TMPDIR; nothing else of the machine: no user's home, no ``/run``, no
  ``/var``; a minimal ``/dev`` and its own ``/proc``;
- no network (a network namespace of its own: only its own loopback), its own PID, IPC and
  UTS namespaces, no capabilities, a new session (no terminal to push input into);
- ``--die-with-parent``: when the run ends or times out, bwrap is killed and the PID
  namespace with it, so nothing the program started (double-forked, in a new session)
  outlives the run.

Without the sandbox (``unsandboxed=True``) the program runs as the user, in a temporary HOME
and working folder; on Linux it runs under :mod:`skillsmith.reaper`, which kills every
process it left behind (subreaper and ``/proc``), elsewhere its session's process group is
killed.

Either way stdin is closed, the environment is trimmed (:func:`environment`), and at most
:data:`OUTPUT_LIMIT` bytes of each output stream are kept: the pipes are read as the program
writes and the rest is dropped, so nothing is spooled to disk.
"""

from __future__ import annotations

import os
import selectors
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

#: how much of each output stream is kept
OUTPUT_LIMIT = 64 * 1024
#: the size of the sandbox's /tmp (HOME, working folder and TMPDIR together)
SCRATCH_BYTES = 64 * 1024 * 1024
#: what the sandbox shows of the machine, read-only, where it exists
SYSTEM_FOLDERS = ("/usr", "/etc", "/opt", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/nix/store")
#: the program's HOME, working folder and TMPDIR inside the sandbox
SANDBOX_SCRATCH = "/tmp/skillsmith-run"
#: how long a killed run may take to let go of its output pipes
DRAIN_SECONDS = 2.0
INSTALL_HINT = ("install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap; "
                "Arch: pacman -S bubblewrap)")


@dataclass
class Outcome:
    code: int | None  # None when the run timed out or could not start
    stdout: str = ""
    stderr: str = ""
    timed_out: bool = False
    error: str | None = None  # why the program could not be started


def environment(home: str, tmp: str) -> dict[str, str]:
    """What a program sees: a PATH, a UTF-8 locale, a dumb terminal, a throwaway HOME, bytecode kept in *tmp*."""
    return {
        "PATH": os.environ.get("PATH", os.defpath),
        "HOME": home,
        "TMPDIR": tmp,
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "TERM": "dumb",
        "NO_COLOR": "1",
        "PYTHONDONTWRITEBYTECODE": "1",  # leave no __pycache__ in the skill
        # and what is compiled on purpose (py_compile, compileall) goes to the scratch folder,
        # not beside the source: the skill is read-only in the sandbox and left as it was without it
        "PYTHONPYCACHEPREFIX": os.path.join(tmp, "pycache"),
        "PYTHONIOENCODING": "utf-8",
    }


# -- the sandbox --------------------------------------------------------------------------------


def bwrap_command(argv: list[str], readable: list[Path]) -> list[str] | None:
    """The ``bwrap`` command line that runs *argv* in the sandbox, or None without bwrap."""
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        return None
    cmd = [bwrap]
    for folder in SYSTEM_FOLDERS:
        if os.path.islink(folder):
            cmd += ["--symlink", os.readlink(folder), folder]
        elif os.path.isdir(folder):
            cmd += ["--ro-bind", folder, folder]
    cmd += ["--dev", "/dev", "--proc", "/proc", "--size", str(SCRATCH_BYTES), "--tmpfs", "/tmp"]
    for folder in sorted({*interpreter_folders(argv[0]), *(os.path.abspath(p) for p in readable)}):
        if not any(within(folder, system) for system in SYSTEM_FOLDERS):
            cmd += ["--ro-bind", folder, folder]
    home, work, tmp = (f"{SANDBOX_SCRATCH}/{name}" for name in ("home", "work", "tmp"))
    cmd += ["--dir", home, "--dir", work, "--dir", tmp, "--chdir", work]
    cmd += ["--unshare-net", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
            "--cap-drop", "ALL", "--die-with-parent", "--new-session", "--", *argv]
    return cmd


def within(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def interpreter_folders(program: str) -> list[str]:
    """The installation folders *program* needs (its ``bin/``'s parent, for it and its link target).

    A virtual environment needs its own folder and the base Python's; a pyenv shim its pyenv
    root. A folder that is a user's home, or holds one, is not shown: then only the program's
    own folder is.
    """
    homes = {os.path.expanduser("~"), os.environ.get("HOME", "")} - {""}
    found = []
    for path in {os.path.abspath(program), os.path.realpath(program)}:
        folder = os.path.dirname(path)
        prefix = os.path.dirname(folder)
        if prefix == "/" or any(within(home, prefix) for home in homes):
            prefix = folder
        found.append(prefix)
    return found


@lru_cache(maxsize=1)
def unavailable() -> str | None:
    """Why no sandbox can be made here (bwrap missing, or it cannot start one), or None.

    Found once per process by running ``true`` in the sandbox exactly as a script would run.
    """
    probe = shutil.which("true") or "/bin/true"
    cmd = bwrap_command([probe], [])
    if cmd is None:
        return "bwrap (bubblewrap) is not installed"
    try:
        done = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"bwrap could not start a sandbox: {getattr(exc, 'strerror', None) or exc}"
    if done.returncode != 0:
        why = done.stderr.decode("utf-8", "replace").strip().splitlines()
        return f"bwrap could not start a sandbox: {why[-1] if why else f'exit {done.returncode}'}"
    return None


def require(what: str) -> None:
    """Raise :class:`~skillsmith.errors.MissingDependencyError` (exit 5) when no sandbox can be made here.

    *what* says what would run in it (``--run runs scripts``), for the message, which also
    names the way out: install bubblewrap, or ``--unsandboxed``.
    """
    why = unavailable()
    if why is not None:
        from skillsmith.errors import MissingDependencyError

        raise MissingDependencyError(
            f"{what} in a sandbox, and none can be made here: {why}; {INSTALL_HINT}, "
            "or pass --unsandboxed to run them as you, with your files and network",
            {"tool": "bwrap"})


# -- a run ------------------------------------------------------------------------------------


def run(argv: list[str], *, readable: list[Path], timeout: float, sandboxed: bool = True) -> Outcome:
    """Run *argv* (stdin closed, a trimmed environment, at most *timeout* seconds) and say what happened.

    *readable* are the folders the program may read (the skill); in the sandbox nothing else
    of the user's is visible. *sandboxed* False runs it as the user (see the module text); a
    caller checks :func:`unavailable` first and runs unsandboxed only when the user asked.
    """
    if sandboxed:
        cmd = bwrap_command(argv, readable)
        if cmd is None:
            return Outcome(None, error="bwrap (bubblewrap) is not installed")
        scratch = SANDBOX_SCRATCH
        return _run(cmd, environment(f"{scratch}/home", f"{scratch}/tmp"), "/", timeout, _kill_group, "bwrap: ")
    with tempfile.TemporaryDirectory(prefix="skillsmith-run-") as base:
        home, work, tmp = (os.path.join(base, name) for name in ("home", "work", "tmp"))
        for folder in (home, work, tmp):
            os.mkdir(folder)
        env = environment(home, tmp)
        if sys.platform.startswith("linux"):
            from skillsmith import reaper

            cmd = [sys.executable, "-I", "-S", reaper.__file__, str(os.getpid()), *argv]
            return _run(cmd, env, work, timeout, _stop_reaper, reaper.PREFIX)
        return _run(argv, env, work, timeout, _kill_group, None)


def _run(cmd: list[str], env: dict, cwd: str, timeout: float, kill, failure_prefix: str | None) -> Outcome:
    try:
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                cwd=cwd, env=env, start_new_session=True)
    except OSError as exc:
        return Outcome(None, error=exc.strerror or str(exc))
    deadline = time.monotonic() + timeout
    out, err = bytearray(), bytearray()
    try:
        timed_out = not _capture(proc, {proc.stdout: out, proc.stderr: err}, deadline)
        if not timed_out:
            try:
                proc.wait(timeout=max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                timed_out = True  # it closed its output but went on running
    finally:
        kill(proc)  # also whatever it left running (and everything, after a timeout)
        _capture(proc, {proc.stdout: out, proc.stderr: err}, time.monotonic() + DRAIN_SECONDS)
        for pipe in (proc.stdout, proc.stderr):
            pipe.close()
        proc.wait()
    stdout, stderr = out.decode("utf-8", "replace"), err.decode("utf-8", "replace")
    if timed_out:
        return Outcome(None, stdout, stderr, timed_out=True)
    if failure_prefix and proc.returncode != 0 and stderr.startswith(failure_prefix):
        return Outcome(None, stdout, stderr, error=stderr[len(failure_prefix):].strip().splitlines()[0])
    return Outcome(proc.returncode, stdout, stderr)


def _capture(proc, buffers: dict, deadline: float) -> bool:
    """Read the pipes in *buffers* until they close, keeping :data:`OUTPUT_LIMIT` bytes of each.

    False when *deadline* passed first. Reading goes on past the limit (dropping the bytes),
    so a program that writes a lot is not blocked on a full pipe and changes no behaviour.
    """
    with selectors.DefaultSelector() as sel:
        for pipe in buffers:
            if not pipe.closed:
                sel.register(pipe, selectors.EVENT_READ)
        while sel.get_map():
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            for key, _ in sel.select(remaining):
                chunk = os.read(key.fd, 65536)
                if not chunk:
                    sel.unregister(key.fileobj)
                    continue
                buf = buffers[key.fileobj]
                if len(buf) < OUTPUT_LIMIT:
                    buf += chunk[:OUTPUT_LIMIT - len(buf)]
    return True


def _kill_group(proc) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _stop_reaper(proc) -> None:
    """Have the reaper kill what the program left (SIGTERM), then make sure it is gone."""
    if proc.poll() is None:
        try:
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
    _kill_group(proc)
