"""The seed's checklist rules (SHL052-SHL054, PYS054-PYS057, CON015): each pattern they must
flag, and the near misses they must leave alone (a missed finding costs less than a false one).

Every case is a small skill; all of them are checked by one real ``skillsmith check`` run and
each skill's findings of the checklist rules are compared with what the case expects.
"""

from __future__ import annotations

import pytest
from conftest import run_cli, write_tree

RULES = "SHL052,SHL053,SHL054,PYS054,PYS055,PYS056,PYS057,CON015"
TESTS = {"tests/run.sh": "#!/usr/bin/env bash\nbash -n ../scripts/*.sh\n"}


def sh(body: str, options: str = "") -> str:
    """A shell entry script around *body*, taking ``--json`` unless *options* replaces the case arms."""
    arms = options or '    --json) json=1; shift ;;\n'
    return ("#!/usr/bin/env bash\n# Do a thing.\nset -uo pipefail\njson=0\nwhile [[ $# -gt 0 ]]; do\n  case \"$1\" in\n"
            f"{arms}    -*) echo \"unknown: $1\" >&2; exit 2 ;;\n    *) break ;;\n  esac\ndone\n{body}")


def py(body: str, head: str = "") -> str:
    """A Python entry script: *head* at the top (imports), *body* inside main() after parse_args."""
    indented = "".join(f"    {line}\n" for line in body.splitlines())
    return (f"#!/usr/bin/env python3\n\"\"\"Do a thing.\"\"\"\n{head}import argparse\nimport sys\n\n\ndef main():\n"
            "    parser = argparse.ArgumentParser()\n    parser.add_argument(\"path\")\n"
            f"    parser.add_argument(\"--output\")\n    args = parser.parse_args()\n{indented}    return 0\n\n\n"
            "if __name__ == \"__main__\":\n    sys.exit(main())\n")


CASES = {
    # SHL052: status on stdout beside --json data
    "status-on-stdout": ({"scripts/a.sh": sh('echo "Loading data..."\necho \'{"data": []}\'\n')}, ["SHL052"]),
    "status-on-stderr": ({"scripts/a.sh": sh('echo "Loading data..." >&2\n')}, []),
    "status-in-redirected-block": ({"scripts/a.sh": sh('{\n  echo "Processing"\n} >&2\n')}, []),
    "status-in-stderr-logger": ({"scripts/a.sh": sh('log() { echo "[INFO] $*"; }\nlog start >&2\nlog end 1>&2\n')}, []),
    "status-in-logger-on-stdout": ({"scripts/a.sh": sh('log() { echo "[INFO] $*"; }\nlog start\n'
                                                          '[ "$json" = 1 ] && printf \'{"ok": true}\\n\'\n')}, ["SHL052"]),
    "status-where-json-is-never-written": ({"scripts/a.sh": sh('log() { echo "[INFO] $*"; }\nlog start\n')}, []),
    "status-captured": ({"scripts/a.sh": sh('msg=$(echo "Done")\necho "$msg" >&2\n')}, []),
    "status-after-exec": ({"scripts/a.sh": sh('exec 1>&2\necho "Starting"\n')}, []),
    "status-in-a-report": ({"scripts/a.sh": sh('echo "Checking disks..."\ndf -h\n', options="    -v) shift ;;\n")}, []),
    "checkbox-is-not-json": ({"scripts/a.sh": sh('echo "Loading..."\necho "[ ] done"\n', options="    -v) shift ;;\n")}, []),
    # SHL053: optional tools
    "jq-unguarded": ({"scripts/a.sh": sh('jq -r ".x" "$1"\n')}, ["SHL053"]),
    "jq-guarded": ({"scripts/a.sh": sh('command -v jq >/dev/null || { echo "needs jq" >&2; exit 5; }\njq . "$1"\n')}, []),
    "tools-guarded-in-a-loop": ({"scripts/a.sh": sh('for t in curl jq; do hash "$t" || exit 5; done\ncurl -fsS "$1" | jq .\n')}, []),
    "guards-may-be-sourced": ({"scripts/a.sh": sh('source "$(dirname "$0")/lib.sh"\ngh pr list\n')}, []),
    "git-is-common": ({"scripts/a.sh": sh('git status --short\n')}, []),
    # SHL054: rm -r of the caller's path
    "rm-positional": ({"scripts/a.sh": sh('rm -rf "$1"\n')}, ["SHL054"]),
    "rm-argument-variable": ({"scripts/a.sh": sh('out="${1:-}"\nrm -r -- "$out"/*\n')}, ["SHL054"]),
    "rm-temporary": ({"scripts/a.sh": sh('tmp=$(mktemp -d)\ntrap \'rm -rf "$tmp"\' EXIT\nrm -rf "$tmp"\n')}, []),
    "rm-function-argument": ({"scripts/a.sh": sh('clean() { rm -rf "$1"; }\nclean "$HOME/.cache/x"\n')}, []),
    "rm-behind-force": ({"scripts/a.sh": sh('[[ $force -eq 1 ]] && rm -rf "$1"\n',
                                             options='    --force) force=1; shift ;;\n')}, []),
    "rm-not-recursive": ({"scripts/a.sh": sh('rm -f "$1"\n')}, []),
    "rm-variable-also-set-elsewhere": ({"scripts/a.sh": sh('d="$1"\nd="$d/build"\nrm -rf "$d"\n')}, []),
    # PYS054: imports outside the standard library
    "import-undeclared": ({"scripts/a.py": py("print(requests)", head="import requests\n")}, ["PYS054"]),
    "import-guarded": ({"scripts/a.py": py("print(requests)", head="try:\n    import requests\nexcept ImportError:\n    requests = None\n")}, []),
    "import-pep723": ({"scripts/a.py": py("print(requests)", head="# /// script\n# dependencies = [\"requests\"]\n# ///\nimport requests\n")}, []),
    "import-sibling": ({"scripts/a.py": py("print(helpers)", head="import helpers\n"),
                        "scripts/helpers.py": "X = 1\n"}, []),
    "import-requirements-file": ({"scripts/a.py": py("print(requests)", head="import requests\n"),
                                  "requirements.txt": "requests==2.32.3\n"}, []),
    "import-skill-says-install": ({"scripts/a.py": py("print(requests)", head="import requests\n"),
                                   "references/setup.md": "Run `pip install requests` first.\n"}, []),
    "import-after-sys-path": ({"scripts/a.py": py("print(mylib)", head="import sys as _s\n_s.path.insert(0, '/opt/lib')\nimport mylib\n")}, []),
    "import-type-checking": ({"scripts/a.py": py("print(1)", head="from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import numpy\n")}, []),
    "import-stdlib": ({"scripts/a.py": py("print(json, tomllib)", head="import json\nimport tomllib\n")}, []),
    # PYS055: unknown arguments dropped
    "known-args-dropped": ({"scripts/a.py": py("").replace("args = parser.parse_args()", "args = parser.parse_known_args()[0]")}, ["PYS055"]),
    "known-args-forwarded": ({"scripts/a.py": py("print(rest)").replace("args = parser.parse_args()", "args, rest = parser.parse_known_args()")}, []),
    # PYS056: rmtree of the caller's path
    "rmtree-argument": ({"scripts/a.py": py("shutil.rmtree(args.path)", head="import shutil\n")}, ["PYS056"]),
    "rmtree-behind-force": ({"scripts/a.py": py("if args.force:\n    shutil.rmtree(args.path)", head="import shutil\n")
                             .replace('parser.add_argument("--output")', 'parser.add_argument("--output")\n    parser.add_argument("--force", action="store_true")')}, []),
    "rmtree-own-folder": ({"scripts/a.py": py("shutil.rmtree('build')", head="import shutil\n")}, []),
    # PYS057: writes in place
    "write-in-place": ({"scripts/a.py": py("with open(args.output, 'w') as fh:\n    fh.write('x'.replace('x', 'y'))")}, ["PYS057"]),
    "write-path-in-place": ({"scripts/a.py": py("Path(args.output).write_text('x')", head="from pathlib import Path\n")}, ["PYS057"]),
    "write-atomic": ({"scripts/a.py": py("with open(args.output + '.tmp', 'w') as fh:\n    fh.write('x')\nos.replace(args.output + '.tmp', args.output)",
                                         head="import os\n")}, []),
    "write-path-rename": ({"scripts/a.py": py("tmp = Path(args.output + '.tmp')\ntmp.write_text('x')\ntmp.replace(args.output)",
                                              head="from pathlib import Path\n")}, []),
    "read-argument": ({"scripts/a.py": py("with open(args.path) as fh:\n    print(fh.read())")}, []),
}


@pytest.fixture(scope="module")
def findings(tmp_path_factory):
    root = tmp_path_factory.mktemp("checklist")
    for name, (files, _want) in CASES.items():
        skill_md = f"---\nname: {name}\ndescription: A case of the checklist rules. Use when testing them.\n---\n\n# {name}\n"
        write_tree(root / name, {"SKILL.md": skill_md, **TESTS, **files})
    r = run_cli("check", str(root), "--select", RULES, "--json", "--no-cache")
    assert r.code in (0, 10), r.stderr
    by_skill: dict[str, list[str]] = {name: [] for name in CASES}
    for f in r.json()["data"]:
        skill = f["path"].split(str(root) + "/", 1)[1].split("/", 1)[0]
        by_skill[skill].append(f["rule"])
    return by_skill


@pytest.mark.parametrize("case", sorted(CASES))
def test_checklist_rule_case(findings, case):
    assert sorted(findings[case]) == sorted(CASES[case][1])


def test_skill_without_tests_is_con015_and_placeholders_are_not_tests(tmp_path):
    skill_md = "---\nname: {0}\ndescription: A case of CON015. Use when testing it.\n---\n\n# {0}\n"
    script = py("print(1)")
    write_tree(tmp_path / "bare", {"SKILL.md": skill_md.format("bare"), "scripts/a.py": script})
    write_tree(tmp_path / "placeholder", {"SKILL.md": skill_md.format("placeholder"), "scripts/a.py": script,
                                          "tests/.gitkeep": ""})
    write_tree(tmp_path / "pytest-beside", {"SKILL.md": skill_md.format("pytest-beside"), "scripts/a.py": script,
                                            "scripts/test_a.py": "def test_a():\n    assert True\n"})
    write_tree(tmp_path / "library-only", {"SKILL.md": skill_md.format("library-only"),
                                           "scripts/lib/common.sh": "helper() { :; }\n"})
    r = run_cli("check", str(tmp_path), "--select", "CON015", "--json", "--no-cache")
    flagged = sorted(f["path"].split(str(tmp_path) + "/", 1)[1].split("/", 1)[0] for f in r.json()["data"])
    assert flagged == ["bare", "placeholder"]
    assert all(f["severity"] == "info" for f in r.json()["data"])
