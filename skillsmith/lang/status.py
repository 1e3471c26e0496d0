"""Status text: the words a message starts with when it reports progress, not data (seed 000 §4).

One test for Python's ``print`` (PYS053) and the shell's ``echo``/``printf`` (SHL052).
"""

from __future__ import annotations

import re

#: a printed literal that starts like this reports status; it is not data. A word glued to
#: ``=``, ``_`` or ``-`` is a key of the data (``running=%s``, ``running_files:``), not status.
STATUS = re.compile(
    r"^\s*(\[?(info|warn(ing)?|error|debug|note)\b\]?|processing|loading|reading|writing|wrote|"
    r"saving|saved|fetching|downloading|downloaded|starting|started|done\b|finished|skipping|"
    r"checking|creating|created|running|connecting|waiting|retrying)(?![\w=-])",
    re.IGNORECASE,
)


def is_status_text(text: str) -> bool:
    """Whether the literal start of a printed message is status (or ends with ``...``)."""
    return bool(STATUS.match(text)) or text.rstrip().endswith("...")
