"""Turn on ``nounset`` and ``pipefail`` at the top of an entry shell script; never ``-e``.

An existing top-level ``set`` line gets the missing options merged in (``set -e`` becomes
``set -euo pipefail``, ``set -o errexit`` becomes ``set -o errexit -o nounset -o pipefail``);
otherwise ``set -uo pipefail`` goes right after the header block. A ``#!/bin/sh`` script
gets ``nounset`` only: ``pipefail`` is not in every POSIX shell (see SHL001).

When the script reads a variable that may be unset (``$1`` without a default, an environment
variable it never assigns), ``set -u`` would stop it there: this safe fix then adds only
``pipefail``, and ``sh_strict_nounset`` adds ``nounset`` with ``--unsafe-fixes``.
"""

from __future__ import annotations

import re

from skillsmith.fix.edits import Edit
from skillsmith.lang import shell
from skillsmith.lang.shell_layout import Layout

_CLUSTER = re.compile(r"^-[A-Za-z]+$")


class StrictMode:
    DESCRIPTION = "Add `set -uo pipefail` (or merge nounset/pipefail into the top-level set line)."
    RULES = ("SHL001",)
    SAFE = True
    #: nounset waits for --unsafe-fixes when the script reads variables that may be unset
    HOLD_BACK_NOUNSET = True

    def __init__(self, path=None):
        self.path = path

    def edits(self, source: bytes, tree) -> list[Edit]:
        layout = Layout(source, tree)
        on = shell.set_options(layout.root, source)
        need = ["nounset"] if layout.posix_sh else ["nounset", "pipefail"]
        missing = [o for o in need if o not in on]
        if "nounset" in missing and self.HOLD_BACK_NOUNSET and shell.possibly_unset(layout.root, source):
            missing.remove("nounset")
        if not missing:
            return []
        target = self.set_command(layout)
        if target is not None:
            return self.merge(layout, target, missing)
        at = layout.header_end
        if not layout.free(at, at):
            return []
        letters = ("u" if "nounset" in missing else "") + ("o pipefail" if "pipefail" in missing else "")
        return [Edit(at, at, layout.block([f"set -{letters}"], at))]

    @staticmethod
    def set_command(layout: Layout):
        """The first top-level ``set`` that only sets options (no ``--``, no positionals)."""
        for node in layout.root.children:
            if node.type != "command" or layout.command_name(node) != "set":
                continue
            args = [shell.text(a, layout.data) for a in node.children_by_field_name("argument")]
            if not args or any(a in ("--", "-") for a in args):
                continue
            ok, i = True, 0
            while i < len(args):
                a = args[i]
                if a in ("-o", "+o") or (_CLUSTER.match(a) and a.endswith("o")):
                    i += 2
                    continue
                if not (_CLUSTER.match(a) or re.match(r"^\+[A-Za-z]+$", a)):
                    ok = False
                    break
                i += 1
            if ok and layout.free(node.start_byte, node.end_byte):
                return node
        return None

    @staticmethod
    def merge(layout: Layout, node, missing: list[str]) -> list[Edit]:
        args = node.children_by_field_name("argument")
        texts = [shell.text(a, layout.data) for a in args]
        for i, (arg, t) in enumerate(zip(args, texts)):
            if not _CLUSTER.match(t):
                continue
            letters = t[1:]
            takes_value = letters.endswith("o") and i + 1 < len(texts)
            body = letters[:-1] if takes_value else letters
            if "nounset" in missing:
                body += "u"
            tail = ""
            if "pipefail" in missing and not takes_value:
                body += "o"
                tail = " pipefail"
            elif "pipefail" in missing:
                tail = None  # the cluster's -o already takes a value: add a separate -o
            new = "-" + body + ("o" if takes_value else "") + (tail or "")
            edits = [Edit(arg.start_byte, arg.end_byte, new.encode())]
            if tail is None:
                edits.append(Edit(node.end_byte, node.end_byte, b" -o pipefail"))
            return edits
        extra = "".join(f" -o {o}" for o in missing)
        return [Edit(node.end_byte, node.end_byte, extra.encode())]
