"""False findings seen on real public skills (set R, after its sample), each beside the rule's own case.

Every test writes a small skill with the pattern that used to give a wrong finding (no finding
now) and the pattern the rule is for (still a finding), and runs ``check`` on it.
"""

from __future__ import annotations

from conftest import run_cli
from test_precision_contract import skill
from test_precision_patterns_p import lines_of


def test_placeholder_links_and_another_named_skills_files_are_not_missing(tmp_path):
    """RES002 on real skills: uploading-files says "no `[link](...)`" (a placeholder link);
    claude-skills shows `<CLAUDE_SKILL_DIR>/scripts/foo.sh`-style names (`scripts/foo.sh`); the git
    skill points at "`/core:agent-loop`'s `references/dispatch-discipline.md`", a file of another skill."""
    body = "\n".join([
        "Show the URL bare: no `**bold**`, no [link](...), no backticks.",  # 5
        "",
        "Run `bash scripts/foo.sh` from your own skill to see the pattern.",  # 7
        "",
        "See `/core:agent-loop`'s `references/dispatch-discipline.md` for read-only agents.",  # 9
        "",
        "Read `references/gone.md` before you start, then [the guide](references/also-gone.md).",  # 11
    ])
    root = skill(tmp_path, "placeholders", body, {})
    assert lines_of(root, "RES002") == [("SKILL.md", 11), ("SKILL.md", 11)]


def test_a_file_of_a_drawn_project_tree_is_the_projects(tmp_path):
    """RES002 on real skills: environment-bootstrap draws ``project/`` over ``├── scripts/`` and
    ``│   └── init.sh``, then says "Run `./scripts/init.sh`": the user's project's script. A tree of
    the skill itself still counts."""
    body = "\n".join([
        "```",
        "project/",
        "├── scripts/",
        "│   └── init.sh    ← Standard location",
        "└── package.json",
        "```",
        "",
        "Run `./scripts/init.sh` after every pull.",  # 12
        "",
        "```",
        "tree-skill/",
        "├── SKILL.md",
        "└── scripts/",
        "    └── build.sh",
        "```",
        "",
        "Run `./scripts/build.sh` to build.",  # 21
    ])
    root = skill(tmp_path, "tree-skill", body, {})
    assert lines_of(root, "RES002") == [("SKILL.md", 21)]


def test_installation_docs_upgrades_and_ci_files_shown_are_no_unpinned_or_piped_runs(tmp_path):
    """SEC002 on real skills: ars's ``docs/SETUP.md`` shows tectonic's installer,
    ``curl --proto '=https' -fsSL https://drop-sh.fullyjustified.net | sh``. SEC004:
    sentry-setup-logging says ``pip install --upgrade sentry-sdk`` under "SDK version too old"; a
    design note shows a CI workflow (a ``yaml`` block) that runs ``pip install pytest``."""
    files = {
        "references/SETUP.md": "# Setup\n\n```bash\ncurl --proto '=https' -fsSL https://drop-sh.fullyjustified.net | sh\n```\n",
        "references/usage.md": "# Usage\n\n```bash\ncurl -fsSL https://drop-sh.fullyjustified.net | sh\n```\n",
    }
    body = "\n".join([
        "If the SDK is too old: `pip install --upgrade sentry-sdk`.",  # 5
        "",
        "```yaml",
        "steps:",
        "  - run: pip install pytest",  # 9
        "```",
        "",
        "Then run `pip install requests` and go on.",  # 12
    ])
    root = skill(tmp_path, "installs", body, files)
    assert lines_of(root, "SEC002") == [("references/usage.md", 4)]
    assert lines_of(root, "SEC004") == [("SKILL.md", 12)]


def test_a_hosts_own_metadata_map_is_its_documented_form(tmp_path):
    """SPC013 on real skills: last30days declares ``metadata: openclaw: requires: env: [...]``, the
    map OpenClaw documents (aliases ``clawdbot``, ``clawdis``); a list under any other key is still
    no string."""
    root = tmp_path / "meta"
    root.mkdir()
    (root / "SKILL.md").write_text(
        "---\nname: meta\ndescription: Reads metadata. Use when testing.\nmetadata:\n  openclaw:\n    requires:\n"
        "      env: [API_KEY]\n---\n# Meta\n")
    other = tmp_path / "labels"
    other.mkdir()
    (other / "SKILL.md").write_text(
        "---\nname: labels\ndescription: Has labels. Use when testing.\nmetadata:\n  labels: [a, b]\n---\n# Labels\n")
    assert lines_of(root, "SPC013") == []
    assert lines_of(other, "SPC013") == [("SKILL.md", 4)]


def test_a_bundled_packages_readme_and_test_data_are_no_documents_for_people(tmp_path):
    """RES006 on real skills: course-lab-plotting bundles matplotlib under ``vendor/`` with its
    ``mpl-data/sample_data/README.txt``; a fixture folder holds a README of its case. The skill's
    own README is still flagged."""
    files = {"vendor/matplotlib/mpl-data/sample_data/README.txt": "Sample data.\n",
             "tests/fixtures/plate/README.md": "# Plate case\n", "README.md": "# My skill\n"}
    root = skill(tmp_path, "plots", "Plot the data.", files)
    assert lines_of(root, "RES006") == [("README.md", 1)]


def test_a_codex_or_claude_code_skill_does_not_hear_of_the_uploader_or_of_its_version(tmp_path):
    """SPC011, SPC018, SPC030 on real skills: ask-claude is a Codex skill (``name: ask-claude``),
    ci-verify-and-summarize's description names ``<RUN_ID>``, and a Claude Code plugin skill records
    ``version: 1.0.0``: Codex and Claude Code load them as they are, and a version changes nothing.
    The portable skill still hears all three."""
    text = ("---\nname: ask-claude\ndescription: Summarise run <RUN_ID>. Use when CI fails.\nversion: 1.0.0\n---\n"
            "# Ask\n")
    for where in ("codex/ask-claude", ".claude/skills/ask-claude", "portable/ask-claude"):
        folder = tmp_path / where
        folder.mkdir(parents=True)
        (folder / "SKILL.md").write_text(text)
    (tmp_path / "codex/ask-claude/agents").mkdir()
    (tmp_path / "codex/ask-claude/agents/openai.yaml").write_text("interface:\n  display_name: Ask\n")

    def rules_on(where):
        data = run_cli("check", where, "--json", "--no-cache", "--select", "ALL,SPC011,SPC018,SPC030", cwd=tmp_path).json()["data"]
        return sorted(f["rule"] for f in data if f["rule"] in ("SPC011", "SPC018", "SPC030"))

    assert rules_on("codex/ask-claude") == []
    assert rules_on(".claude/skills/ask-claude") == []
    assert rules_on("portable/ask-claude") == ["SPC011", "SPC018", "SPC030"]


def test_written_out_shell_commands_prose_help_and_a_listings_tail(tmp_path):
    """PYS004 on real skills: setup_webctl.py's ``run(cmd)`` hands ``cmd`` to ``shell=True`` and is
    only ever called as ``run("webctl setup")``. PYS003: plan_account_names.py's
    ``description=__doc__`` is two paragraphs of prose, which read the same rewrapped. PYS053:
    sketch_ops.py ends a listing with ``f"  ... {n} more"``. Each rule's own case stays."""
    script = "\n".join([
        '#!/usr/bin/env python3',
        '"""Build account-name plans.',
        '',
        'The script only reads redacted responses.',
        'It never connects to a database.',
        '"""',
        'import argparse',
        'import subprocess',
        'import sys',
        '',
        '',
        'def run(cmd):',
        '    return subprocess.run(cmd, shell=True).returncode',  # 13: only literals reach it
        '',
        '',
        'def grep(pattern):',
        '    return subprocess.run(f"grep {pattern} .", shell=True).returncode',  # 17
        '',
        '',
        'def main():',
        '    parser = argparse.ArgumentParser(description=__doc__)',  # 21: prose only
        '    other = argparse.ArgumentParser(epilog="Examples:\\n  x.py a\\n  x.py b")',  # 22
        '    parser.add_argument("pattern")',
        '    args = parser.parse_args()',
        '    run("webctl setup")',
        '    run("pip list")',
        '    rows = ["a", "b"]',
        '    for row in rows[:1]:',
        '        print(f"  {row}")',
        '    print(f"  ... {len(rows) - 1} more")',  # 30
        '    print(f"Processing {args.pattern}...")',  # 31
        '    return grep(args.pattern)',
        '',
        '',
        'if __name__ == "__main__":',
        '    sys.exit(main())',
    ]) + "\n"
    root = skill(tmp_path, "plans", "Run `python scripts/plan.py foo`.", {"scripts/plan.py": script})
    assert lines_of(root, "PYS004") == [("scripts/plan.py", 17)]
    assert lines_of(root, "PYS003") == [("scripts/plan.py", 22)]
    assert lines_of(root, "PYS053") == [("scripts/plan.py", 31)]
