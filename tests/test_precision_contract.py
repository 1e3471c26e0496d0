"""Script-contract rules fire only where their own documentation would convince the author.

Each case is a small skill written for the test: the pattern that used to give a false finding
(no finding now), beside the pattern the rule is for (still a finding).
"""

from __future__ import annotations

import json

from conftest import run_cli, write_tree

SKILL = "---\nname: {name}\ndescription: Tools written for the precision tests. Use when testing.\n---\n{body}\n"
PY = '#!/usr/bin/env python3\n"""Print the arguments given, one per line."""\nimport sys\n\nfor a in sys.argv[1:]:\n    print(a)\n'
NOARGS = '#!/usr/bin/env python3\n"""Print the name of this machine."""\nimport platform\n\nprint(platform.node())\n'


def findings(root, *rules):
    """(path, rule) of the findings of *rules*, with every default rule running too (and *rules*
    selected by ID, so that an opt-in one such as SEC052 runs)."""
    data = run_cli("check", ".", "--json", "--no-cache", "--select", ",".join(("ALL", *rules)), cwd=root).json()["data"]
    return [(f["path"], f["rule"]) for f in data if f["rule"] in rules]


def skill(tmp_path, name, body, scripts, mode=0o644):
    root = write_tree(tmp_path / name, {"SKILL.md": SKILL.format(name=name, body=body), **scripts})
    for rel in scripts:
        (root / rel).chmod(mode)
    return root


def test_the_exec_bit_is_moot_where_the_skill_names_the_interpreter(tmp_path):
    root = skill(tmp_path, "viaint", "Echo: `python3 scripts/echo.py a b`.", {"scripts/echo.py": PY})
    assert findings(root, "CON003") == []
    root = skill(tmp_path, "direct", "Echo: `scripts/echo.py a b`.", {"scripts/echo.py": PY})
    assert [r for _, r in findings(root, "CON003")] == ["CON003"]


def test_a_script_without_shebang_is_con001s_and_its_fix_makes_it_runnable(tmp_path):
    text = PY.split("\n", 1)[1]
    root = skill(tmp_path, "noshebang", "Echo: `scripts/echo.py a b`.", {"scripts/echo.py": text})
    assert [r for _, r in findings(root, "CON001", "CON003")] == ["CON001"]
    run_cli("fix", str(root), "--select", "CON001")
    path = root / "scripts" / "echo.py"
    assert path.read_text().startswith("#!/usr/bin/env python3\n") and path.stat().st_mode & 0o111 == 0o111
    assert findings(root, "CON001", "CON003") == []


def test_a_script_that_takes_nothing_needs_no_arguments_in_its_citation(tmp_path):
    root = skill(tmp_path, "bare", "Which machine: `scripts/host.py`. Echo: `scripts/echo.py`.",
                 {"scripts/host.py": NOARGS, "scripts/echo.py": PY}, mode=0o755)
    assert findings(root, "CON013") == [("SKILL.md", "CON013")]  # only echo.py's: it reads sys.argv
    data = run_cli("check", str(root), "--json", "--no-cache").json()["data"]
    assert [f["message"] for f in data if f["rule"] == "CON013"][0].startswith("scripts/echo.py ")


def test_newer_python_syntax_is_a_note_about_this_machine_not_a_finding(tmp_path):
    code = '#!/usr/bin/env python3\n"""Print a greeting."""\nname = "Ada"\nprint(f"{"Hello"} {name}")\n'
    root = skill(tmp_path, "py312", "Greet: `python3 scripts/greet.py`.", {"scripts/greet.py": code}, mode=0o755)
    r = run_cli("check", str(root), "--json", "--no-cache")
    assert [f for f in r.json()["data"] if f["rule"] == "PYS001"] == []
    assert "needs Python 3.12 or newer" in r.stderr
    broken = '#!/usr/bin/env python3\n"""Print a greeting."""\nprint("unclosed\n'
    root = skill(tmp_path, "broken", "Greet: `python3 scripts/greet.py`.", {"scripts/greet.py": broken}, mode=0o755)
    assert [r for _, r in findings(root, "PYS001")] == ["PYS001"]


def test_a_script_run_through_the_path_of_its_installed_skill_is_cited(tmp_path):
    """``python3 ~/.claude/skills/NAME/scripts/x.py``: this skill's script, run by its interpreter."""
    body = "Echo: `python3 ~/.claude/skills/installed/scripts/echo.py a b`."
    root = skill(tmp_path, "installed", body, {"scripts/echo.py": PY})
    assert findings(root, "CON003", "CON012", "CON013", "RES002") == []
    body = "Echo: `python3 ~/.claude/skills/another/scripts/echo.py a b`."  # another skill's copy
    root = skill(tmp_path, "elsewhere", body, {"scripts/echo.py": PY})
    assert [r for _, r in findings(root, "CON012")] == ["CON012"]


def test_a_file_the_user_makes_in_the_installed_skill_is_not_a_missing_resource(tmp_path):
    body = "Store the key in `~/.claude/skills/keyed/scripts/.env`. Run `python3 scripts/echo.py a`."
    root = skill(tmp_path, "keyed", body, {"scripts/echo.py": PY})
    assert findings(root, "RES002") == []


def test_a_bare_call_of_a_script_whose_parser_needs_nothing_is_a_whole_call(tmp_path):
    code = ('#!/usr/bin/env python3\n"""Print the date, or the time with --time."""\nimport argparse\nimport datetime\n\n'
            'parser = argparse.ArgumentParser(description="Print the date.")\nparser.add_argument("--time", action="store_true")\n'
            'args = parser.parse_args()\nnow = datetime.datetime.now()\nprint(now.time() if args.time else now.date())\n')
    root = skill(tmp_path, "dated", "Today: `python3 scripts/today.py`.", {"scripts/today.py": code}, mode=0o755)
    assert findings(root, "CON013") == []


def test_json_written_into_a_file_is_not_output(tmp_path):
    """PYS050 is about what stdout carries: a script that stores JSON in a file promises no envelope."""
    code = ('#!/usr/bin/env python3\n"""Save the arguments in args.json."""\nimport json\nimport sys\n\n'
            'with open("args.json", "w", encoding="utf-8") as f:\n    json.dump(sys.argv[1:], f)\nprint("saved")\n')
    root = skill(tmp_path, "saver", "Save: `python3 scripts/save.py a b`.", {"scripts/save.py": code}, mode=0o755)
    assert findings(root, "PYS050") == []
    printed = code.replace('    json.dump(sys.argv[1:], f)\nprint("saved")\n', '    pass\nprint(json.dumps(sys.argv[1:]))\n')
    root = skill(tmp_path, "printer", "Save: `python3 scripts/save.py a b`.", {"scripts/save.py": printed}, mode=0o755)
    # the same print(json.dumps(...)) is PYS051's, the more specific finding it yields to
    assert [r for _, r in findings(root, "PYS050", "PYS051")] == ["PYS051"]


def test_a_default_formatter_with_nothing_to_rewrap_is_left_alone(tmp_path):
    code = ('#!/usr/bin/env python3\n"""Print the arguments."""\nimport argparse\n\n'
            'parser = argparse.ArgumentParser(description="Print the arguments.", '
            'formatter_class=argparse.ArgumentDefaultsHelpFormatter)\nparser.add_argument("words", nargs="*")\n'
            'print(" ".join(parser.parse_args().words))\n')
    root = skill(tmp_path, "fmt", "Print: `python3 scripts/p.py a b`.", {"scripts/p.py": code}, mode=0o755)
    assert findings(root, "PYS003") == []
    multi = code.replace('description="Print the arguments."', 'description="Print the arguments.\\n\\n  p.py a b"')
    root = skill(tmp_path, "fmt2", "Print: `python3 scripts/p.py a b`.", {"scripts/p.py": multi}, mode=0o755)
    assert [r for _, r in findings(root, "PYS003")] == ["PYS003"]


def test_a_readme_the_skill_reads_through_a_placeholder_path_is_not_for_people(tmp_path):
    body = "Read `{lang}/guide/README.md` for your language. Run `python3 scripts/echo.py a`."
    files = {"scripts/echo.py": PY, "python/guide/README.md": "# Python\n", "go/guide/README.md": "# Go\n",
             "notes/README.md": "# Notes for maintainers\n"}
    root = skill(tmp_path, "langs", body, files)
    assert findings(root, "RES006") == [("notes/README.md", "RES006")]


def test_a_bare_call_of_a_shell_script_with_only_optional_flags_is_a_whole_call(tmp_path):
    sh = ('#!/usr/bin/env bash\n# Print boot times.\n#\n# Usage:   boot.sh [--slow]\nset -uo pipefail\n\nslow=0\n'
          'while [[ $# -gt 0 ]]; do\n  case "$1" in\n    --slow) slow=1; shift ;;\n'
          '    *) echo "unknown: $1" >&2; exit 2 ;;\n  esac\ndone\necho "boot 12s (slow=$slow)"\n')
    root = skill(tmp_path, "boot", "Why is boot slow? `scripts/boot.sh`.", {"scripts/boot.sh": sh}, mode=0o755)
    assert findings(root, "CON013") == []
    needs = sh.replace("# Usage:   boot.sh [--slow]", "# Usage:   boot.sh [--slow] LOG")
    root = skill(tmp_path, "bootlog", "Why is boot slow? `scripts/boot.sh`.", {"scripts/boot.sh": needs}, mode=0o755)
    assert [r for _, r in findings(root, "CON013")] == ["CON013"]


def test_another_programs_json_option_in_the_header_is_no_promise(tmp_path):
    sh = ('#!/usr/bin/env bash\n# Find a button on the screen.\n#\n# Uses `idb ui describe-all --json` for the tree.\n'
          'set -uo pipefail\necho "found: ${1:-OK}"\n')
    root = skill(tmp_path, "nav", "Find: `bash scripts/nav.sh OK`.", {"scripts/nav.sh": sh}, mode=0o755)
    assert findings(root, "CON011") == []
    own = sh.replace("# Uses `idb ui describe-all --json` for the tree.", "# With --json it prints JSON.")
    root = skill(tmp_path, "nav2", "Find: `bash scripts/nav.sh OK`.", {"scripts/nav.sh": own}, mode=0o755)
    assert [r for _, r in findings(root, "CON011")] == ["CON011"]


def test_a_variable_that_holds_a_command_is_not_an_invocation():
    from skillsmith.model import citations

    for line, want in (('VALIDATOR="bash scripts/v.sh"', None), ("FOO=1 bash scripts/v.sh a", "FOO=1 bash scripts/v.sh a"),
                       ('X="a b" python3 scripts/v.sh', None), ("X='a' python3 scripts/v.sh c", "X='a' python3 scripts/v.sh c")):
        cited = citations.extract([line], 1)
        assert citations.invocation([line], cited[0], True) == want, line


def test_a_script_skill_md_names_by_its_file_name_is_cited(tmp_path):
    body = "Snapshots: run `snapshot-android.sh` on a device. Echo: `python3 scripts/echo.py a`."
    root = skill(tmp_path, "snap", body, {"scripts/echo.py": PY, "scripts/snapshot-android.sh": "#!/usr/bin/env bash\necho ok\n"})
    assert findings(root, "CON012") == []
    root = skill(tmp_path, "nosnap", "Echo: `python3 scripts/echo.py a`.",
                 {"scripts/echo.py": PY, "scripts/snapshot-android.sh": "#!/usr/bin/env bash\necho ok\n"})
    assert findings(root, "CON012") == [("scripts/snapshot-android.sh", "CON012")]
