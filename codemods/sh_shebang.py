"""Add ``#!/usr/bin/env bash`` to an entry shell script that has no shebang."""

from __future__ import annotations

from skillsmith.fix.edits import Edit
from skillsmith.lang.shell_layout import Layout

SHEBANG = "#!/usr/bin/env bash"


class AddShebang:
    DESCRIPTION = "Add #!/usr/bin/env bash as the first line of an entry script without a shebang."
    RULES = ("CON001",)
    SAFE = True

    def __init__(self, path=None):
        self.path = path

    def edits(self, source: bytes, tree) -> list[Edit]:
        layout = Layout(source, tree)
        if layout.shebang is not None:
            return []
        return [Edit(layout.bom, layout.bom, SHEBANG.encode() + layout.newline)]
