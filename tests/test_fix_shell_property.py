"""Property: over random compositions of shell constructs, the shell fixes keep `bash -n`
green, never skip a file they could parse, and a second pass changes nothing."""

from __future__ import annotations

import subprocess
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skillsmith.fix.engine import fix_file
from skillsmith.model.sourcefile import SourceFile

#: every rule a shell codemod fixes; codemods check before they change, so all may run
RULES = {"CON001", "CON004", "CON005", "CON006", "CON007", "CON009", "CON010", "CON014",
         "SHL001", "SHL050", "SHL051"}

SHEBANGS = ["", "#!/usr/bin/env bash\n", "#!/bin/bash\n", "#!/bin/sh\n"]
HEADERS = [
    "",
    "# Do a thing\n",
    "# Do a thing.\n# Usage: x.sh FILE\n",
    "# Usage:   x.sh FILE\n# Exit:    0 ok\n#\n# Examples:\n",
    "# Do a thing.\n#\n# Usage:   x.sh [--json] FILE\n# Input:   FILE\n# Output:  lines\n"
    "# Stderr:  errors\n# Exit:    0 ok, 2 usage\n#\n# Examples:\n#   x.sh a.txt\n",
]
SETS = [
    "", "set -e\n", "set -euo pipefail\n", "set -uo pipefail  # deliberately no -e\n",
    "set -o errexit -o nounset\n", "set -eu\nset -o pipefail\n", "set -Eeuo pipefail\n",
]
BODY = [
    "cat <<EOF\nhello $USER\nexit 3\nset -e\nEOF\n",
    "cat <<'EOF'\nliteral $x `y`\n# Usage: fake\nEOF\n",
    "if true; then\n\tcat <<-EOF\n\t\tindented $HOME\n\tEOF\nfi\n",
    "body=$(cat <<JSON\n{\"a\": \"$HOME\", \"exit\": 4}\nJSON\n)\necho \"$body\"\n",
    "arr=(one \"two words\" three)\necho \"${arr[@]}\" ${#arr[@]}\nfor a in ${arr[@]}; do echo $a; done\n",
    "declare -A map=([k]=v)\necho \"${map[k]}\"\n",
    "if [[ \"${1:-}\" =~ ^[0-9]+$ ]]; then echo num; fi\n",
    "n=$(( 3 + 4 ))\necho $(( n * 2 ))\n(( n > 1 )) && echo big\n",
    "IFS=$'\\t\\n'\nprintf '%s\\n' $'a\\tb'\n",
    "[[ $# -gt 9 ]] && exit 2\n",
    "if [ ! -d /nonexistent ]; then :; else exit 3; fi\n",
    "check() {\n  command -v jq >/dev/null || exit 5\n}\n",
    "usage() {\n  echo \"Usage: $0 [--json] FILE\"\n}\n",
    "case \"${1:-}\" in\n  --json) json=1 ;;\n  -*) echo bad >&2; exit 2 ;;\nesac\n",
    "sed -n '2,9p' \"$0\" >/dev/null\n",
    "echo \"done: ${1:-none}\" >&2\n",
    "# a comment with exit 7 and set -e\n",
    "x=`echo hi`\necho $x\n",
]


def compose(draw) -> bytes:
    text = draw(st.sampled_from(SHEBANGS)) + draw(st.sampled_from(HEADERS)) + draw(st.sampled_from(SETS))
    text += "".join(draw(st.lists(st.sampled_from(BODY), min_size=1, max_size=6)))
    data = text.replace("\n", "\r\n").encode() if draw(st.booleans()) else text.encode()
    # a BOM glues itself to the first word: before `if` it hides the keyword and bash -n fails,
    # so it only goes before a line that is a comment either way (a shebang or a header)
    bom = data.startswith(b"#") and draw(st.booleans())
    return (b"\xef\xbb\xbf" if bom else b"") + data


def bash_n(data: bytes) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", "-n"], input=data.replace(b"\r\n", b"\n"), capture_output=True)


def fix(data: bytes, unsafe: bool):
    f = SourceFile.from_bytes(Path("/nonexistent/scripts/x.sh"), "scripts/x.sh", data, 0o755)
    return fix_file(f, RULES, unsafe)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.booleans())
def test_fix_keeps_bash_n_green_and_is_idempotent(data, unsafe):
    source = compose(data.draw)
    assert bash_n(source).returncode == 0  # the compositions are valid to start with
    # (a BOM makes the first line a command for bash, but not a syntax error)
    first = fix(source, unsafe)
    if source.startswith(b"\xef\xbb\xbf"):  # no shebang can follow a BOM: such a script is skipped
        assert first.skipped and "BOM" in first.skipped and first.new_data is None
        return
    assert first.skipped is None, first.skipped
    result = first.new_data if first.new_data is not None else source
    check = bash_n(result)
    assert check.returncode == 0, check.stderr.decode() + "\n" + result.decode()
    if b"\r\n" in source:
        assert result.count(b"\n") == result.count(b"\r\n")  # CRLF stays CRLF
    assert result.startswith(b"\xef\xbb\xbf") == source.startswith(b"\xef\xbb\xbf")
    second = fix(result, unsafe)
    assert second.skipped is None, second.skipped
    assert second.new_data is None, (second.new_data or b"").decode()
