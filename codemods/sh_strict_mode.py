"""Turn on ``nounset`` and ``pipefail`` at the top of an entry shell script where that keeps its behaviour; never ``-e``.

An existing top-level ``set`` line gets the missing options merged in (``set -e`` becomes
``set -euo pipefail``, ``set -o errexit`` becomes ``set -o errexit -o nounset -o pipefail``);
otherwise ``set -uo pipefail`` goes right after the header block. A ``#!/bin/sh`` script
gets ``nounset`` only: ``pipefail`` is not in every POSIX shell (see SHL001).

Each option is added only when it cannot change what the script does
(:func:`skillsmith.lang.shell_plans.plan_strict`): ``nounset`` when no variable may be read
unset, ``pipefail`` when no pipeline whose status the script uses can fail before its last
stage. The others wait for ``sh_strict_unsafe`` and ``--unsafe-fixes``.
"""

from __future__ import annotations

import re

from skillsmith.fix.context import FixContext
from skillsmith.fix.edits import Edit
from skillsmith.lang import shell
from skillsmith.lang.shell_layout import Layout
from skillsmith.lang.shell_plans import plan_strict

_CLUSTER = re.compile(r"^-[A-Za-z]+$")


class StrictMode:
    DESCRIPTION = "Add `set -uo pipefail` (or merge nounset/pipefail into the top-level set line) where behaviour stays the same."
    RULES = ("SHL001",)
    SAFE = True
    #: also turn on what changes behaviour (the unsafe fix)
    RUNTIME_DEPENDENT = False

    def __init__(self, context: FixContext | None = None):
        self.context = context or FixContext()

    def edits(self, source: bytes, tree) -> list[Edit]:
        layout = Layout(source, tree)
        if not self.context.wants("SHL001"):
            return []
        plan = plan_strict(layout, sourced_by=self.context.sourced_by)
        chosen = plan.safe + (plan.unsafe if self.RUNTIME_DEPENDENT else [])
        missing = [o for o in plan.missing if o in chosen]
        if not missing:
            return []
        target = self.set_command(layout)
        if target is not None:
            return self.merge(layout, target, missing)
        at = layout.header_end
        if not layout.free(at, at):
            return []
        if missing == ["pipefail"]:
            line = "set -o pipefail"
        else:
            line = "set -u" + ("o pipefail" if "pipefail" in missing else "")
        return [Edit(at, at, layout.block([line], at))]

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
