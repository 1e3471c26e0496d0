"""False findings seen on real public skills (sets K to O, after their samples), each beside the rule's own case.

Every test writes a small skill with the pattern that used to give a wrong finding (no finding
now) and the pattern the rule is for (still a finding), and runs ``check`` on it.
"""

from __future__ import annotations

from conftest import run_cli
from test_precision_contract import skill
from test_precision_patterns import LONG


def lines_of(root, rule):
    """(path, line) of the findings of *rule*."""
    data = run_cli("check", ".", "--json", "--no-cache", "--select", f"ALL,{rule}", cwd=root).json()["data"]
    return sorted((f["path"], f["line"]) for f in data if f["rule"] == rule)


def test_paths_a_skill_makes_or_shows_are_not_its_missing_files(tmp_path):
    """RES002 on real skills: start-new-project says the plan must "create `scripts/dev-start.sh` and
    `scripts/dev-stop.sh`"; skill-creator says "Store the resulting plan artifact in the target skill
    folder as:" over a list holding `references/plan.md`; 07-deploy-docker shows its rollback script in
    a block that starts ``#!/bin/bash`` / ``# scripts/rollback.sh``; caveman-discover's sample table
    cites `scripts/eval.ts:8`, a line of the user's code."""
    body = "\n".join([
        "The plan must include a step to create `scripts/dev-start.sh` and `scripts/dev-stop.sh`.",  # 5
        "",
        "Store the resulting plan artifact in the target skill folder as:",
        "   - `references/plan.md` (preferred)",  # 8
        "",
        "```bash",
        "#!/bin/bash",
        "# scripts/rollback.sh",  # 12
        "docker compose down",
        "```",
        "",
        "| eval-suite | scripts/eval.ts:8 | env override |",  # 16
        "",
        "Read `references/guide.md` and `references/missing.md` before you start.",  # 18
        "",
        "```bash",
        "# scripts/setup.sh",  # 21: the file this block shows
        "bash scripts/gone.sh --all",  # 22
        "```",
    ])
    root = skill(tmp_path, "made", body, {"references/guide.md": "# Guide\n"})
    assert lines_of(root, "RES002") == [("SKILL.md", 18), ("SKILL.md", 22)]


def test_a_link_through_the_skills_own_folder_and_eval_inputs_are_not_uncited(tmp_path):
    """RES001 on real skills: tushare's SKILL.md links all 233 references as
    ``tushare/references/...``, ``股票技术面因子(专业版).md`` among them (from the folder above: RES002 reports the broken links, and the files
    are cited all the same); portfolio-feedback-v2's ``evals/files/portfolio-underseller.md`` is an
    input of its eval harness (``evals/evals.json``), not a document for the agent."""
    files = {"references/daily(pro).md": "# Daily\n", "references/weekly.md": "# Weekly\n",
             "evals/files/sample-input.md": "# A sample portfolio\n",
             "evals/evals.json": '{"files": ["evals/files/sample-input.md"]}\n', "notes/orphan.md": "# Orphan\n"}
    body = "| [Daily](tushare/references/daily(pro).md) | daily bars |\n| [Weekly](references/weekly.md) | weekly bars |"
    root = skill(tmp_path, "tushare", body, files)
    assert lines_of(root, "RES001") == [("notes/orphan.md", 1)]
    assert lines_of(root, "RES002") == [("SKILL.md", 5)]


def test_a_folder_written_as_code_in_skill_md_is_cited_for_its_index_chain(tmp_path):
    """RES009 on real skills: dolphindb's SKILL.md cites `reference/functions/` (INDEX, by-theme, by-name)
    and tells the agent to look a function up in `reference/functions/INDEX.md`, then read the theme
    file it points to; the folder is cited, as the rule's doc says is enough."""
    index = "# Index\n\n- [Data](by-theme/data.md)\n"
    files = {"reference/functions/INDEX.md": index, "reference/functions/by-theme/data.md": "# Data\n",
             "reference/guides/INDEX.md": "# Guides\n\n- [Setup](setup.md)\n", "reference/guides/setup.md": "# Setup\n" + LONG}
    body = ("- `reference/functions/` — INDEX, by-theme, by-name.\n\n"
            "Look a function up in `reference/functions/INDEX.md`, then in `reference/guides/INDEX.md`.")
    root = skill(tmp_path, "chain", body, files)
    assert lines_of(root, "RES009") == [("reference/guides/INDEX.md", 3)]


ROLLBACK = '''#!/usr/bin/env python3
"""Build a media folder for a project.

Usage: build.py --media-dir DIR
"""
import argparse
import shutil


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--media-dir", required=True)
    args = parser.parse_args()
    if args.media_dir.exists():
        raise SystemExit("media dir exists")
    try:
        args.media_dir.mkdir(parents=True)
        build(args.media_dir)
    except Exception:
        if args.media_dir.exists():
            shutil.rmtree(args.media_dir)
        raise
    {tail}


def build(folder):
    pass


main()
'''


def test_the_rollback_of_a_folder_the_run_made_is_no_removal_of_the_callers(tmp_path):
    """PYS056 on real skills: build_politics_relink_probe.py removes ``args.media_dir`` in the
    ``except`` block that raises again, after ``args.media_dir.mkdir(parents=True)`` (which fails when
    the folder exists) made it; build_politics_card_project.py removes it only behind
    ``--replace-invalid-target``, an opt-in under another name."""
    root = skill(tmp_path, "rollback", "Run `python3 scripts/build.py --media-dir out`.",
                 {"scripts/build.py": ROLLBACK.replace("{tail}", "return 0")})
    assert lines_of(root, "PYS056") == []
    after = ROLLBACK.replace("{tail}", "shutil.rmtree(args.media_dir)  # the caller's folder, on success too")
    root = skill(tmp_path, "removes", "Run `python3 scripts/build.py --media-dir out`.", {"scripts/build.py": after})
    assert lines_of(root, "PYS056") == [("scripts/build.py", 23)]
    flag = after.replace('    args = parser', '    parser.add_argument("--replace-invalid-target", action="store_true")\n    args = parser')
    root = skill(tmp_path, "optin", "Run `python3 scripts/build.py --media-dir out`.", {"scripts/build.py": flag})
    assert lines_of(root, "PYS056") == []


SPLIT = '''#!/usr/bin/env bash
# Install the browser tools into a conda environment.
set -euo pipefail
PW_CONDA_PKGS="playwright nodejs"
mamba install -y $PW_CONDA_PKGS
run --mode "$1" $([ "${DRY:-0}" -eq 1 ] && echo --dry-run)
cp $1 /tmp/out
'''


def test_package_lists_and_a_substitution_that_prints_one_flag_are_split_on_purpose(tmp_path):
    """SHL051 on real skills: kesif's bootstrap.sh runs ``mamba install $PW_CONDA_PKGS`` (a list of
    package names), tescil-run.sh passes ``$([ "${TATBIKAT:-0}" -eq 1 ] && echo --tatbikat)``, which
    prints the flag or nothing: quoting either breaks it. ``cp $1`` beside them is the rule's case."""
    root = skill(tmp_path, "split", "Run `bash scripts/setup.sh in.txt`.", {"scripts/setup.sh": SPLIT})
    assert lines_of(root, "SHL051") == [("scripts/setup.sh", 7)]


JOINED = '''#!/usr/bin/env bash
# Push to every remote.
set -uo pipefail
EXCLUDES="--exclude-dir=node_modules --exclude-dir=.git"
grep -rn $EXCLUDES TODO .
to_push="" count=0
all_remotes="$(git remote)"
for r in $all_remotes; do
  echo "$r"
done
cp $1 /tmp/out
'''


def test_words_of_lines_the_parser_joins_and_an_exclude_list_are_no_unquoted_arguments(tmp_path):
    """SHL051 on real skills (fresh set P): integrate.sh has ``to_push="" eligible_count=0`` on a line,
    then ``for _r in $all_remotes; do``, which tree-sitter-bash reads as one command named ``for``
    (its issues #228, #342; bash ends the command at the newline); extract-msa-events.sh runs
    ``grep -rEn $EXCLUDES``, a list of ``--exclude-dir`` options."""
    root = skill(tmp_path, "joined", "Run `bash scripts/push.sh in.txt`.", {"scripts/push.sh": JOINED})
    assert lines_of(root, "SHL051") == [("scripts/push.sh", 11)]


def test_a_hook_that_reads_no_arguments_and_a_launcher_that_hands_them_on_need_no_unknown_option_branch(tmp_path):
    """SHL003 on real skills: api-trace.sh is a Claude Code Notification hook that reads
    ``$CLAUDE_NOTIFICATION`` and no argument; scnet-chat's ``scripts/run`` picks python3 and runs
    ``exec "$PY" "$DIR/scnet.py" "$@"``, whose parser judges the options."""
    hook = '#!/usr/bin/env bash\n# Log a notification.\nset -uo pipefail\necho "$CLAUDE_NOTIFICATION" >> /tmp/log\n'
    run = ('#!/usr/bin/env bash\n# Run scnet.py with python3.\nset -uo pipefail\nPY=python3\n'
           'exec "$PY" "$(dirname "$0")/scnet.py" "$@"\n')
    reads = ('#!/usr/bin/env bash\n# Greet someone.\nset -uo pipefail\ncase "${1:-}" in\n  --loud) echo HI ;;\n'
             '  *) echo hi ;;\nesac\n')
    root = skill(tmp_path, "hooks", "Run `bash scripts/hook.sh`, `bash scripts/run.sh chat` or `bash scripts/greet.sh --loud`.",
                 {"scripts/hook.sh": hook, "scripts/run.sh": run, "scripts/greet.sh": reads})
    assert lines_of(root, "SHL003") == [("scripts/greet.sh", 1)]


def test_another_skills_folder_a_binary_icon_a_commented_installer_and_a_loaded_template(tmp_path):
    """RES002: plugin-creator runs ``uv run <path-to-skill-creator>/scripts/quick_validate.py``, a
    placeholder for another skill's folder; FIL002: gstack's ``scripts/app/icon.icns`` is a binary
    icon; SEC002: gstack-gbrain-install's header comment says ``bun (install: curl -fsSL
    https://bun.sh/install | bash)``; RES001: install_step4.py copies out
    ``skill_root / "assets" / "repo-template"``, so the template's files need no citation."""
    install = ('#!/usr/bin/env python3\n"""Copy the repository template into a project."""\nimport shutil, sys\n'
               'from pathlib import Path\n\nskill_root = Path(__file__).resolve().parent.parent\n'
               'template_root = skill_root / "assets" / "repo-template"\nshutil.copytree(template_root, sys.argv[1])\n')
    gbrain = ('#!/usr/bin/env bash\n# Install gbrain.\n# Prerequisites:\n#   - bun   (install: curl -fsSL https://bun.sh/install | bash)\n'
              'set -uo pipefail\ncurl -fsSL https://example.com/gbrain.sh | bash\n')
    files = {"scripts/install.py": install, "scripts/gbrain.sh": gbrain, "assets/repo-template/tests/test_x.py": "",
             "assets/orphan.txt": "x\n", "scripts/app/icon.icns": "icns" + "\0" * (1024 * 1024 + 10),
             "scripts/app/big.sh": "#" * (1024 * 1024 + 10)}
    body = ("Run `python3 scripts/install.py DEST`, `bash scripts/gbrain.sh`, `scripts/app/big.sh`,\n"
            "then `uv run <path-to-skill-creator>/scripts/quick_validate.py` and `uv run <skill-dir>/scripts/gone.py`.")
    root = skill(tmp_path, "various", body, files)
    assert lines_of(root, "RES002") == [("SKILL.md", 6)]
    assert lines_of(root, "FIL002") == [("scripts/app/big.sh", 1)]
    assert lines_of(root, "SEC002") == [("scripts/gbrain.sh", 6)]
    assert lines_of(root, "RES001") == [("assets/orphan.txt", 1)]


def test_a_parser_of_a_siblings_argumentparser_subclass_answers_help(tmp_path):
    """CON009 on real skills (fresh set P): github_comment.py builds its parser as
    ``github_api_core.TerminalArgumentParser(...)`` (``import github_api as github_api_core``), a
    subclass of argparse.ArgumentParser that github_api.py beside it defines: -h/--help is inherited."""
    core = ('#!/usr/bin/env python3\n"""Call the GitHub API."""\nimport argparse\n\n\n'
            'class TerminalArgumentParser(argparse.ArgumentParser):\n    def error(self, message):\n'
            '        raise SystemExit(2)\n\n\nclass Plain:\n    pass\n\n\nif __name__ == "__main__":\n'
            '    TerminalArgumentParser().parse_args()\n')
    comment = ('#!/usr/bin/env python3\n"""Post a comment."""\nimport github_api as github_api_core\n\n\n'
               'def main():\n    parser = github_api_core.TerminalArgumentParser(description=__doc__)\n'
               '    parser.parse_args()\n\n\nif __name__ == "__main__":\n    main()\n')
    other = comment.replace("TerminalArgumentParser(description=__doc__)", "Plain()")
    root = skill(tmp_path, "gh", "Run `python3 scripts/github_comment.py` or `python3 scripts/other.py`.",
                 {"scripts/github_api.py": core, "scripts/github_comment.py": comment, "scripts/other.py": other})
    assert lines_of(root, "CON009") == [("scripts/other.py", 1)]


def test_activated_by_keywords_says_when(tmp_path):
    """SPC017 on real skills: sub-api-designer's description ends 'Activated by keywords: "api design",
    "openapi", ...', which says when the skill applies."""
    md = ("---\nname: {name}\ndescription: >-\n  Designs the REST APIs of a service.\n  {when}\n---\n# API\n")
    root = tmp_path / "a" / "api"
    root.mkdir(parents=True)
    (root / "SKILL.md").write_text(md.format(name="api", when='Activated by keywords: "api design", "openapi".'))
    assert lines_of(root, "SPC017") == []
    (root / "SKILL.md").write_text(md.format(name="api", when="Writes its OpenAPI files."))
    assert lines_of(root, "SPC017") == [("SKILL.md", 3)]


def test_a_self_test_main_and_the_projects_own_scripts(tmp_path):
    """CON009/CON012 on real skills (fresh set P): scnet_file.py's ``__main__`` only calls
    ``test_scenario_1()`` and scnet_notebook.py's is marked ``# 测试代码`` (test code): library modules,
    not commands. RES002: hami-gpu-flow says "Verify using project scripts first: ...,
    `scripts/go-in-docker.sh make test`", and modelscope-publish writes a model card with "（如
    `python scripts/train.py`）" (e.g.): the user's project, not the skill."""
    lib = '"""File manager module."""\n\n\ndef test_scenario_1():\n    print("ok")\n\n\nif __name__ == "__main__":\n    test_scenario_1()\n'
    notebook = '"""Notebook manager module."""\n\n\nclass NotebookManager:\n    pass\n\n\nif __name__ == "__main__":\n    # 测试代码\n    print("Use SCNetClient")\n'
    tool = '"""Run a tool."""\n\nif __name__ == "__main__":\n    print("ok")\n'
    body = ("6. Verify using project scripts first: focused Go tests, `scripts/go-in-docker.sh make test`.\n"
            "7. 若找到训练脚本，生成实际命令（如 `python scripts/train.py`）。\n"
            "8. Then run `scripts/gone.sh`.")
    root = skill(tmp_path, "scnet", body, {"scripts/scnet_file.py": lib, "scripts/scnet_notebook.py": notebook,
                                             "scripts/tool.py": tool})
    assert [p for p, _ in lines_of(root, "CON012")] == ["scripts/tool.py"]
    assert lines_of(root, "RES002") == [("SKILL.md", 7)]


def test_a_test_script_the_skill_never_names_is_a_test(tmp_path):
    """CON009/CON012 on real skills (fresh set Q): scene-canon-asset-pack's ``scripts/test_contract.py``
    runs the validator on good and bad fixtures (no pytest, no test functions) and SKILL.md never names
    it: a test, not an entry script. One the skill tells the agent to run keeps the contract."""
    check = '#!/usr/bin/env python3\n"""Exercise the validator with good and bad fixtures."""\nimport subprocess\n\nsubprocess.run(["true"], check=True)\n'
    root = skill(tmp_path, "canon", "Validate with the bundled checks.", {"scripts/test_contract.py": check})
    assert lines_of(root, "CON012") == [] and lines_of(root, "CON009") == []
    root = skill(tmp_path, "told", "Run `python3 scripts/test_contract.py`.", {"scripts/test_contract.py": check})
    assert lines_of(root, "CON009") == [("scripts/test_contract.py", 1)]
