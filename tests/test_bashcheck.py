"""``bash -n`` in batches gives the same verdicts as one run per script."""

from __future__ import annotations

from pathlib import Path

from skillsmith.lang import bashcheck
from skillsmith.model.skill import Loose
from skillsmith.model.sourcefile import SourceFile

GOOD = b"#!/bin/bash\nif true; then\n  echo ok\nfi\ncat <<EOF\nunclosed ' quote in a heredoc is fine\nEOF\n"
BAD_IF = b"#!/bin/bash\nif true; then\n  echo missing fi\n"
# each alone is broken; naively concatenated, the second closes the first's quote
HALF_A = b'#!/bin/bash\necho "abc\n'
HALF_B = b'#!/bin/bash\necho def"\n'


def loose(files: dict[str, bytes]) -> Loose:
    return Loose(Path("/x"), {rel: SourceFile.from_bytes(Path("/x") / rel, rel, data) for rel, data in files.items()})


def errors(files):
    return bashcheck.syntax_errors(loose(files).scripts)


def test_clean_scripts_pass_together():
    assert errors({"a.sh": GOOD, "b.sh": GOOD, "c.sh": GOOD}) == {}


def test_only_the_broken_script_is_reported_with_its_line():
    found = errors({"a.sh": GOOD, "b.sh": BAD_IF, "c.sh": GOOD})
    assert set(found) == {"b.sh"}
    assert found["b.sh"][0] >= 3


def test_errors_cannot_cancel_out_across_scripts():
    assert set(errors({"a.sh": HALF_A, "b.sh": HALF_B})) == {"a.sh", "b.sh"}
