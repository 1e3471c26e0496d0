"""One name per exit code: the Python fix, the shell fix and both templates agree.

The skill template and the one-script template are rendered with real Copier (``new``,
``add script``); the fixes run on real scripts (``fix``). Every ``EXIT_*`` constant any of them
writes is collected and compared: a code has one name wherever it is written, the name the
protocol's table gives it (:mod:`skillsmith.exitcodes`, seed 000 §5).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from conftest import run_cli, write_tree

from skillsmith.exitcodes import ExitCode, constant_name, meaning

#: a header whose Exit: line says what each code means (a fix names only codes whose meaning it knows)
EXIT_LINE = ("Exit: 0 ok, 1 error, 2 usage, 3 not found, 4 invalid input, 5 missing dependency, 6 timeout, "
             "7 unavailable, 8 busy, 10 drift, 11 stale")

PYTHON_SCRIPT = f'''#!/usr/bin/env python3
"""Exit with the code given as the first argument.

{EXIT_LINE}
"""
import sys

code = int(sys.argv[1]) if len(sys.argv) > 1 else 0
''' + "".join(f"if code == {c}:\n    sys.exit({c})\n" for c in (1, 2, 3, 4, 5, 6, 7, 8, 10, 11))

SHELL_SCRIPT = f"""#!/usr/bin/env bash
# Exit with the code given as the first argument.
#
# {EXIT_LINE}
set -uo pipefail

case "${{1:-0}}" in
""" + "".join(f"  {c}) exit {c} ;;\n" for c in (1, 2, 3, 4, 5, 6, 7, 8, 10, 11)) + "esac\n"

_READONLY = re.compile(r"^readonly (EXIT_\w+)=(\d+)$", re.M)


def constants(path: Path) -> dict[str, int]:
    """The ``EXIT_*`` constants a script defines at its top level."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".py":
        found = {}
        for node in ast.parse(text).body:
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and type(node.value.value) is int:
                found.update((t.id, node.value.value) for t in node.targets if isinstance(t, ast.Name) and t.id.startswith("EXIT_"))
        return found
    return {name: int(value) for name, value in _READONLY.findall(text)}


def names_by_code(sources: dict[str, Path]) -> dict[int, dict[str, set[str]]]:
    """code -> name -> the sources that use that name for it."""
    out: dict[int, dict[str, set[str]]] = {}
    for source, path in sources.items():
        consts = constants(path)
        assert consts, f"{source} defines no exit constant"
        for name, code in consts.items():
            out.setdefault(code, {}).setdefault(name, set()).add(source)
    return out


def generated_and_fixed(tmp_path: Path) -> dict[str, Path]:
    r = run_cli("new", "demo", "--script", "tool.py", "--script", "run.sh", "--verifier", "--defaults", cwd=tmp_path)
    assert r.code == 0, r.stderr
    skill = tmp_path / "demo"
    for name in ("added.py", "other.sh"):
        r = run_cli("add", "script", "demo", name, cwd=tmp_path)
        assert r.code == 0, r.stderr
    loose = write_tree(tmp_path / "loose", {"scripts/codes.py": PYTHON_SCRIPT, "scripts/codes.sh": SHELL_SCRIPT})
    r = run_cli("fix", "scripts", "--select", "CON014", cwd=loose)
    assert r.code == 0, r.stderr
    return {
        "python fix": loose / "scripts" / "codes.py",
        "shell fix": loose / "scripts" / "codes.sh",
        "skill template (python)": skill / "scripts" / "tool.py",
        "skill template (shell)": skill / "scripts" / "run.sh",
        "skill template (verifier)": skill / "scripts" / "verify_facts.py",
        "skill template (tests/run.sh)": skill / "tests" / "run.sh",
        "script template (python)": skill / "scripts" / "added.py",
        "script template (shell)": skill / "scripts" / "other.sh",
    }


def test_one_name_per_exit_code_across_fixes_and_templates(tmp_path):
    sources = generated_and_fixed(tmp_path)
    by_code = names_by_code(sources)
    disagreements = {code: names for code, names in by_code.items() if len(names) > 1}
    assert disagreements == {}
    names = {code: next(iter(found)) for code, found in by_code.items()}
    # the codes the protocol names, by its table; domain signals by the scripts' Exit: lines
    assert {c: names[c] for c in names if c < 8} == {c: constant_name(c) for c in names if c < 8}
    assert names[4] == "EXIT_VALIDATION" and names[5] == "EXIT_PRECONDITION"
    assert names[10] == "EXIT_DRIFT" and names[11] == "EXIT_STALE"
    assert names[8] == "EXIT_BUSY"  # the protocol leaves 8 open: the Exit: line's word names it
    # every code the table names shows up somewhere, so the comparison covers them all
    assert {int(c) for c in ExitCode} <= set(by_code)
    # the fixes agree with each other on every code they were given
    fixes = [constants(sources["python fix"]), constants(sources["shell fix"])]
    assert {v: k for k, v in fixes[0].items()} == {v: k for k, v in fixes[1].items()}
    # and the generated scripts still run and pass their own tests
    r = run_cli("check", str(tmp_path / "demo"), "--no-cache")
    assert r.code == 0, r.stdout + r.stderr


def exit_words(path: Path) -> dict[int, str]:
    """code -> its words on the script's ``Exit:`` line."""
    line = next(ln for ln in path.read_text(encoding="utf-8").splitlines() if "Exit:" in ln)
    value = line.split("Exit:", 1)[1]
    return {int(c): words.strip() for c, words in re.findall(r"(\d+)\s+([^,]+)", value)}


def test_the_fixes_describe_each_code_with_the_same_words(tmp_path):
    """The meaning comes from the script's own constant names; both fixes write the protocol's words for them."""
    codes = (2, 3, 4, 5, 6, 7, 10)
    names = {c: constant_name(c) for c in codes}
    python = '#!/usr/bin/env python3\n"""Exit with a code.\n\nExit: 0 ok\n"""\nimport sys\n\n' + "".join(
        f"{names[c]} = {c}\n" for c in codes) + "".join(
        f"if sys.argv[1:] == ['{c}']:\n    sys.exit({names[c]})\n" for c in codes)
    shell = "#!/usr/bin/env bash\n# Exit with a code.\n#\n# Exit: 0 ok\nset -uo pipefail\n\n" + "".join(
        f"readonly {names[c]}={c}\n" for c in codes) + "".join(
        f'if [[ "${{1:-}}" == {c} ]]; then exit "${names[c]}"; fi\n' for c in codes)
    root = write_tree(tmp_path, {"scripts/codes.py": python, "scripts/codes.sh": shell})
    r = run_cli("fix", "scripts", "--select", "CON010", cwd=root)
    assert r.code in (0, 10), r.stderr
    words_py = exit_words(root / "scripts" / "codes.py")
    words_sh = exit_words(root / "scripts" / "codes.sh")
    assert words_py == words_sh
    assert words_py == {0: "ok", **{c: meaning(c) for c in codes}}
    assert words_py[4] == "invalid input" and words_py[5] == "missing dependency"
