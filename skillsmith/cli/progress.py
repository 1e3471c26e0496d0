"""Progress on stderr for long runs: a bar with the count and the skill or folder just finished.

Drawn with rich, imported only once a run has lasted :data:`DELAY` seconds on a terminal, so
short runs, ``--help`` and cached checks never load it. Nothing is drawn when stderr is not
a terminal (or is ``TERM=dumb``), with ``--quiet``, or when the output is not text meant for
a person (``--json``, SARIF, GitHub commands). The bar is erased when the run ends.
"""

from __future__ import annotations

import os
import sys
import time

#: seconds a run lasts before progress is drawn
DELAY = 1.0
#: seconds between redraws
REFRESH = 0.1
#: characters of the bar itself
BAR_WIDTH = 30


def wanted(quiet: bool, fmt: str = "text") -> bool:
    """Whether progress may be drawn: a terminal on stderr, not ``--quiet``, text output."""
    try:
        tty = sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False
    return tty and not quiet and fmt == "text" and os.environ.get("TERM") != "dumb"


class Progress:
    """A context manager whose :attr:`callback` reports each finished unit: ``done(unit, finished, total)``.

    *verb* starts the line (``Checking``, ``Fixing``).
    """

    def __init__(self, enabled: bool, verb: str) -> None:
        self.enabled = enabled
        self.verb = verb
        self.started = time.monotonic()
        self.drawn_at = 0.0
        self.bar = None
        self.task = None

    @property
    def callback(self):
        """What the engine calls per finished unit, or None when nothing is drawn."""
        return self.done if self.enabled else None

    def __enter__(self) -> Progress:
        self.started = time.monotonic()
        return self

    def __exit__(self, *exc) -> None:
        if self.bar is not None:
            self.bar.stop()
            self.bar = None

    def done(self, unit, finished: int, total: int) -> None:
        """*finished* of *total* units are done, *unit* the last (None: the work is about to start)."""
        now = time.monotonic()
        if self.bar is None and (now - self.started < DELAY or finished >= total):
            return
        seconds = int(now - self.started)
        fields = {"completed": finished, "elapsed": f"{seconds // 60}:{seconds % 60:02d}"}
        if self.bar is None:
            self.start(total, {**fields, "path": ""})
        # what is left of the line after the verb, the bar, the count and the time
        room = self.bar.console.width - len(self.verb) - BAR_WIDTH - 2 * len(str(total)) - 12
        self.bar.update(self.task, **fields, path=tail(current_path(unit), room) if unit is not None else "")
        if now - self.drawn_at >= REFRESH or finished >= total:
            self.bar.refresh()
            self.drawn_at = now

    def start(self, total: int, fields: dict) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress as Bar, TextColumn
        from rich.table import Column

        console = Console(stderr=True, highlight=False)
        self.bar = Bar(
            TextColumn(self.verb, markup=False),
            BarColumn(bar_width=BAR_WIDTH),
            MofNCompleteColumn(),
            TextColumn("{task.fields[elapsed]}", markup=False),
            TextColumn("{task.fields[path]}", markup=False, table_column=Column(no_wrap=True)),
            console=console, transient=True, auto_refresh=False,
        )
        self.bar.start()
        self.task = self.bar.add_task(self.verb, total=total, **fields)


def current_path(unit) -> str:
    """The unit as the user knows it: the skill's folder, or the folder of loose scripts."""
    from skillsmith.reporters.text import one_line
    from skillsmith.rules.finding import display_path

    return one_line(display_path(unit.root))


def tail(text: str, room: int) -> str:
    """*text* cut to *room* characters from its end (``…/skills/name``), so the bar keeps its width."""
    if room < 8:
        return ""
    return text if len(text) <= room else "…" + text[len(text) - room + 1:]
