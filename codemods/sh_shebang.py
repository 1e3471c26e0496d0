"""Add ``#!/usr/bin/env bash`` to an entry shell script that has no shebang.

Not in a CRLF file (the kernel would look for ``bash\\r``, so ``./script`` would fail), nor in
a file other scripts source (it is not run).
"""

from __future__ import annotations

from skillsmith.fix.context import FixContext
from skillsmith.fix.edits import Edit
from skillsmith.lang.shell_layout import Layout

SHEBANG = "#!/usr/bin/env bash"


class AddShebang:
    DESCRIPTION = "Add #!/usr/bin/env bash as the first line of an entry script without a shebang."
    RULES = ("CON001",)
    SAFE = True
    #: first: the header goes after the shebang line
    ORDER = 5

    def __init__(self, context: FixContext | None = None):
        self.context = context or FixContext()

    def edits(self, source: bytes, tree) -> list[Edit]:
        layout = Layout(source, tree)
        if layout.shebang is not None or layout.crlf or self.context.sourced_by or not self.context.wants("CON001"):
            return []
        return [Edit(layout.bom, layout.bom, SHEBANG.encode() + layout.newline)]
