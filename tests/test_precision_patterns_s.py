"""False findings seen on real public skills (sets R and S, after their samples), each beside the rule's own case.

Every test writes a small skill with the pattern that used to give a wrong finding (no finding
now) and the pattern the rule is for (still a finding), and runs ``check`` on it.
"""

from __future__ import annotations

from conftest import run_cli
from test_precision_contract import findings, skill, write_tree
from test_precision_patterns_p import lines_of

PY_ARGS = '#!/usr/bin/env python3\n"""Search notes."""\nimport sys\n\nprint(sys.argv[1])\n'


def test_a_script_cited_only_to_forbid_running_it_needs_no_invocation(tmp_path):
    """CON013 on real skills: xhs-search says "Do not call `scripts/upstream_cli.py` directly"
    (its wrapper `scripts/cli.py` is the way in). A script cited bare in an instruction to use it
    is still flagged."""
    body = "\n".join([
        "- Use only `python scripts/cli.py search <query>` from this folder.",
        "- Do not call `scripts/upstream_cli.py` directly.",
        "- Never run scripts/raw.py by hand; it has no rate limit.",
        "- Use `scripts/other.py` for details.",
        "- Write `observations.json` in the shape documented in",  # agent-harness-explorer: a document to read
        "  `scripts/shape.py`, and pass `--tools observations.json` to the cli.",
    ])
    scripts = {f"scripts/{n}.py": PY_ARGS for n in ("cli", "upstream_cli", "raw", "other", "shape")}
    root = skill(tmp_path, "xhs", body, scripts)
    assert lines_of(root, "CON013") == [("SKILL.md", 8)]


def test_a_module_skill_md_imports_without_a_shebang_is_a_library_even_with_a_cli(tmp_path):
    """CON006 on real skills: challenging's challenger.py is what SKILL.md imports (`from challenger
    import prepare`), has no shebang, and a ``__main__`` with an ArgumentParser for a drill mode no
    one is told to run. With a shebang, the same module is a command too."""
    module = ('"""Adversarial review engine."""\nimport argparse\n\n\ndef prepare(x):\n    return x\n\n\n'
              'if __name__ == "__main__":\n    p = argparse.ArgumentParser(description="drill")\n'
              '    p.add_argument("path")\n    print(prepare(p.parse_args().path))\n')
    body = "```python\nfrom challenger import prepare\nprepare('draft.md')\n```\n"
    root = skill(tmp_path, "lib", body, {"scripts/challenger.py": module})
    assert findings(root, "CON006", "CON001", "PYS002") == []
    root = skill(tmp_path, "cmd", body, {"scripts/challenger.py": "#!/usr/bin/env python3\n" + module})
    assert ("scripts/challenger.py", "CON006") in findings(root, "CON006")
    # python-lsp's lsp_client.py: imported too, but SKILL.md also runs it through a variable
    # (`LSP=/mnt/skills/user/python-lsp/scripts/lsp_client.py`, then `python3 $LSP hover`): a command
    run = "```bash\nLSP=/mnt/skills/user/lib/scripts/challenger.py\npython3 $LSP draft.md\n```\n\n" + body
    root = skill(tmp_path, "var", run, {"scripts/challenger.py": module})
    assert ("scripts/challenger.py", "CON001") in findings(root, "CON001")


def test_a_metasyntactic_package_name_is_a_placeholder(tmp_path):
    """SEC004 on real skills: container-layer says "Now `uv pip install foo` both installs the
    package AND appends `RUN uv pip install foo` to your Containerfile": `foo` stands for any
    package. A real package name is still flagged."""
    body = "Now `uv pip install foo` installs the package.\n\nFirst run `pip install requests`.\n"
    root = skill(tmp_path, "layer", body, {})
    assert lines_of(root, "SEC004") == [("SKILL.md", 7)]


def test_skills_that_claude_skills_links_to_are_claude_code_skills(tmp_path):
    """SPC030/SPC020 on real skills: Gamaroff's library keeps its skills in `skills/` and links
    `.claude/skills -> ../skills` (CLAUDE.md: skills load via `.claude/skills/`), so Claude Code
    reads them: `version` and comma lists are fine there. The same skills with no link keep the
    portable target's warnings."""
    import os

    skill_md = "---\nname: prd\ndescription: Drafts a PRD. Use when asked for a PRD.\nversion: 1.0.0\nallowed-tools: Read, Write\n---\n\n# PRD\n"
    for name, link in (("linked", True), ("one-link", "each"), ("plain", False)):
        project = write_tree(tmp_path / name, {"skills/prd/SKILL.md": skill_md, "CLAUDE.md": "# Project\n"})
        (project / ".claude").mkdir()
        if link is True:
            os.symlink("../skills", project / ".claude" / "skills")
        elif link == "each":
            (project / ".claude" / "skills").mkdir()
            os.symlink("../../skills/prd", project / ".claude" / "skills" / "prd")
        got = findings(project / "skills" / "prd", "SPC030", "SPC020")
        assert sorted(got) == ([] if link else [("SKILL.md", "SPC020")]), name


def test_a_skill_to_copy_keeps_its_starting_name(tmp_path):
    """SPC008 on real skills: microsoft's gallery has `submissions/_template/SKILL.md` with
    `name: my-great-skill` (CONTRIBUTING.md: copy this folder), anthropics/skills has
    `template/SKILL.md` with `name: template-skill`. Another folder with another name is flagged."""
    for folder, name, flagged in (("_template", "my-great-skill", False), ("template", "template-skill", False),
                                  ("prd-template", "prd", True)):
        root = write_tree(tmp_path / folder, {"SKILL.md": f"---\nname: {name}\ndescription: Drafts a PRD. Use when asked for a PRD.\n---\n\n# PRD\n"})
        assert findings(root, "SPC008") == ([("SKILL.md", "SPC008")] if flagged else []), folder


def messages_of(root, rule):
    """(path, message) of the findings of *rule*."""
    data = run_cli("check", ".", "--json", "--no-cache", "--select", f"ALL,{rule}", cwd=root).json()["data"]
    return sorted((f["path"], f["message"]) for f in data if f["rule"] == rule)


def test_strict_mode_advice_for_a_posix_sh_script_is_set_u(tmp_path):
    """SHL001 on real skills: cs-agent-test.sh is `#!/bin/sh`, and the finding told it to add
    `set -uo pipefail`, which dash refuses ("Illegal option -o pipefail"). A bash script is still
    told both."""
    launcher = '#!/bin/sh\n# Run the agent test.\nDIR=$(dirname "$0")\nexec node "$DIR/run.js" "$@"\n'
    scripts = {"scripts/run.sh": launcher, "scripts/run-bash.sh": launcher.replace("#!/bin/sh", "#!/usr/bin/env bash")}
    body = "Run `sh scripts/run.sh --suite smoke` or `bash scripts/run-bash.sh --suite smoke`.\n"
    root = skill(tmp_path, "launch", body, scripts, mode=0o755)
    got = dict(messages_of(root, "SHL001"))
    assert got["scripts/run.sh"].endswith("add 'set -u' after the header"), got
    assert got["scripts/run-bash.sh"].endswith("add 'set -uo pipefail' after the header"), got


def test_an_installer_in_a_troubleshooting_page_about_installing_is_installation_docs(tmp_path):
    """SEC002 on real skills: a vendor's `troubleshoot-install.md` says "you ran the `curl -fsSL
    https://.../install | bash` installer in PowerShell": a document about installing, like
    `SETUP.md`. The same line in a workflow reference is still flagged; one with the URL left out
    (`curl -fsSL ... | bash`) names the kind of command, with nothing to download."""
    line = "If you ran `curl -fsSL https://downloads.example.com/cli | bash` in PowerShell, use WSL.\n"
    elided = "You ran the macOS/Linux `curl -fsSL ... | bash` installer in Windows PowerShell.\n"
    root = skill(tmp_path, "cli", "Read `references/troubleshoot-install.md` and `references/workflow.md`.\n",
                 {"references/troubleshoot-install.md": "# Install problems\n\n" + line,
                  "references/workflow.md": "# Workflow\n\n" + line + "\n" + elided})
    assert lines_of(root, "SEC002") == [("references/workflow.md", 3)]


def test_a_short_document_a_reference_links_is_read_whole_by_a_preview(tmp_path):
    """RES009 on real skills: a reference names `assets/templates/brief.md`, 24 to 39 lines, as an
    output shape: `head -100` reads it whole, so the chain costs nothing. A long one is flagged."""
    refs = {"references/guide.md": "# Guide\n\nSee [brief](../assets/templates/brief.md) and [spec](spec.md).\n",
            "assets/templates/brief.md": "# Brief\n" + "- item\n" * 30,
            "references/spec.md": "# Spec\n" + "A line of the spec.\n" * 150}
    root = skill(tmp_path, "brief", "Read [the guide](references/guide.md) before you start.\n", refs)
    assert messages_of(root, "RES009") == [("references/guide.md", "references/guide.md links references/spec.md, which "
                                            "SKILL.md does not cite: the agent reaches it two levels deep and may only "
                                            "preview it; cite from SKILL.md what it should read whole")]


def test_a_changelog_skill_md_names_in_its_references_table_is_cited(tmp_path):
    """RES006 on real skills: working-with-codex lists `| Changelog | `CHANGELOG.md` |` in its
    table of the files in `references/`. A README it never names, and one named only in
    prose about other projects ("fetch README.md of each repo"), are still flagged."""
    body = "| Topic | File |\n|---|---|\n| Changelog | `CHANGELOG.md` |\n\nFetch README.md of each repo.\n"
    root = skill(tmp_path, "codex", body, {"references/CHANGELOG.md": "# Changes\n", "notes/README.md": "# Read me\n"})
    assert lines_of(root, "RES006") == [("notes/README.md", 1)]
    assert lines_of(root, "RES001") == []


def test_a_variable_set_to_the_skills_folder_runs_its_scripts(tmp_path):
    """CON013/CON003 on real skills: work-iq-signalboard sets `SIGNALBOARD_SKILL="/resolved/absolute/
    path/to/work-iq-signalboard"`, then runs `python "$SIGNALBOARD_SKILL/scripts/render.py" \\` with
    its arguments on the next line. A variable set to another folder is not the skill's."""
    body = "\n".join([
        "```bash",
        'BOARD_SKILL="/resolved/absolute/path/to/board"',
        'python "$BOARD_SKILL/scripts/render.py" \\',
        '  "$TMP/board.json" --validate-only',
        "```",
        "",
        "- `scripts/render.py` validates and renders the dashboard.",
    ])
    root = skill(tmp_path, "board", body, {"scripts/render.py": PY_ARGS})
    assert findings(root, "CON013", "CON003") == []
    root = skill(tmp_path, "board2", body.replace("/board\"", "/elsewhere\"").replace("board2", "board2"),
                 {"scripts/render.py": PY_ARGS})
    assert ("SKILL.md", "CON013") in findings(root, "CON013")


def test_a_title_underline_is_not_a_wrapped_description(tmp_path):
    """CON005 on real skills: build_story.py's docstring opens with "Generic Scrollytelling Story
    Builder" over "=====": a title, not a sentence running onto the next line."""
    titled = '#!/usr/bin/env python3\n"""\nStory Builder\n=============\nUsage:  python3 build_story.py <file>\n"""\nimport sys\nprint(sys.argv[1])\n'
    wrapped = titled.replace("Story Builder\n=============\n", "Build a story page from a workbook\nand its sheets\n")
    root = skill(tmp_path, "story", "Run `python3 scripts/a.py data.xlsx` or `python3 scripts/b.py data.xlsx`.\n",
                 {"scripts/a.py": titled, "scripts/b.py": wrapped})
    got = dict(messages_of(root, "CON005"))
    assert got["scripts/a.py"] == "the header's description should be one sentence ending in a period"
    assert got["scripts/b.py"].startswith("the header's description runs onto the next line")


def test_a_script_a_reference_forbids_running_needs_no_invocation(tmp_path):
    """CON013 on real skills: scrollytelling-data's DEMO-MODE.md says "Do **not** execute
    `build_story.py` to produce the deliverable; its templated output is only a code example to
    read", while SKILL.md mentions `scripts/build_story.py` in passing."""
    body = "`scripts/build_story.py` checks its JS itself.\n\nFor the demo read [demo mode](references/demo.md).\n"
    demo = "# Demo\n\nUse it as a reference. Do **not** execute `build_story.py` to produce the deliverable.\n"
    root = skill(tmp_path, "story", body, {"scripts/build_story.py": PY_ARGS, "references/demo.md": demo})
    assert findings(root, "CON013") == []
    root = skill(tmp_path, "story2", body, {"scripts/build_story.py": PY_ARGS, "references/demo.md": "# Demo\n"})
    assert findings(root, "CON013") == [("SKILL.md", "CON013")]


def test_a_large_data_file_a_script_loads_is_not_read_by_the_agent(tmp_path):
    """FIL002 on real skills: jobber's `docs/jobber_schema_inventory.json` (1 MB) is opened by
    `schema_registry.py`, the rule's own remedy ("load it from a script on demand"). A large
    reference nothing loads is still flagged."""
    big = '{"types": [' + ",".join(['"x"'] * 300_000) + "]}\n"
    loader = ('#!/usr/bin/env python3\n"""Look a type up in the schema."""\nimport json\nfrom pathlib import Path\n\n'
              'HERE = Path(__file__).resolve().parent.parent\nprint(len(json.load(open(HERE / "docs/inventory.json"))))\n')
    root = skill(tmp_path, "jobber", "Run `python3 scripts/schema.py --type Client`.\n",
                 {"scripts/schema.py": loader, "docs/inventory.json": big, "references/dump.md": "x " * 600_000})
    assert findings(root, "FIL002") == [("references/dump.md", "FIL002")]


def test_the_epilog_advice_for_a_parser_whose_help_is_the_docstring(tmp_path):
    """PYS002 on real skills: build_dashboard.py's parser is `ArgumentParser(description=__doc__)`
    and SKILL.md shows a whole call it accepts; the finding said there was none. It now says the
    Examples belong in the docstring. A script with no example anywhere is still told to write one."""
    script = ('#!/usr/bin/env python3\n"""Build the dashboard.\n\nConsumes: a config and items.\n"""\nimport argparse\n\n'
              'p = argparse.ArgumentParser(description=__doc__)\np.add_argument("--config")\nprint(p.parse_args().config)\n')
    root = skill(tmp_path, "dash", "Run `python3 scripts/build.py --config config.json`.\n\nAlso `scripts/other.py`.\n",
                 {"scripts/build.py": script, "scripts/other.py": script})
    got = dict(messages_of(root, "PYS002"))
    assert got["scripts/build.py"].endswith("by hand: its help is the docstring (description=__doc__), so add the Examples there")
    # gh-fix-ci's inspect_pr_checks.py: ArgumentDefaultsHelpFormatter would rewrap an epilog the fix added
    defaults = script.replace("description=__doc__", 'description="Build it.", formatter_class=argparse.ArgumentDefaultsHelpFormatter')
    root = skill(tmp_path, "defaults", "Run `python3 scripts/build.py --config config.json`.\n", {"scripts/build.py": defaults})
    assert messages_of(root, "PYS002")[0][1].endswith("ArgumentDefaultsHelpFormatter would rewrap an added epilog; "
                                                        "give the examples with RawDescriptionHelpFormatter")
    assert got["scripts/other.py"].endswith("(none in SKILL.md or the docstring that the parser accepts)")


def test_a_skill_in_a_folder_of_test_fixtures_is_test_data(tmp_path):
    """RES002/SPC017 on real skills: thoughtspot's `tools/validate/tests/fixtures/bad_coverage_matrix/
    agents/cli/ts-convert-from-badformat/SKILL.md` is broken on purpose for the repository's own
    validator tests. Checked from the repository, it is data; given itself, it is checked."""
    bad = "---\nname: wrong-name\ndescription: A fixture.\n---\n\nMissing `references/coverage-matrix.md`.\n"
    good = "---\nname: real\ndescription: Drafts a PRD. Use when asked for a PRD.\n---\n\n# Real\n"
    repo = write_tree(tmp_path / "repo", {"skills/real/SKILL.md": good,
                                          "tools/tests/fixtures/bad/skills/fixture-skill/SKILL.md": bad})
    r = run_cli("check", ".", "--json", "--no-cache", cwd=repo)
    assert r.json()["data"] == [] and r.json()["meta"]["units"] == 1, r.stdout
    r = run_cli("check", "tools/tests/fixtures/bad/skills/fixture-skill", "--json", "--no-cache", cwd=repo)
    assert {f["rule"] for f in r.json()["data"]} >= {"SPC008", "RES002"}, r.stdout


def test_a_project_skill_cites_the_projects_own_scripts(tmp_path):
    """RES002 on real skills: dev-agent-skills keeps `.agents/skills/maintain-skills/`, whose SKILL.md
    says "run `uv run scripts/check_repository_contract.py`": a script of the repository root. A
    path neither the skill nor the project has is still missing."""
    skill_md = ("---\nname: maintain\ndescription: Keeps the skills in shape. Use when editing skills.\n---\n\n"
                "Run `uv run scripts/check_contract.py`, then `uv run scripts/gone.py`.\n")
    repo = write_tree(tmp_path / "repo", {".agents/skills/maintain/SKILL.md": skill_md,
                                          "scripts/check_contract.py": "print('ok')\n"})
    assert lines_of(repo / ".agents" / "skills" / "maintain", "RES002") == [("SKILL.md", 6)]


def test_a_bundled_programs_launcher_runs_it_and_notices_need_no_contents(tmp_path):
    """FIL002/RES004 on real skills: copilot-studio-agent-test's `scripts/cs-agent-test.sh` runs the
    1.5 MB esbuild bundle `cs-agent-test.cjs` (`exec node "$DIR/cs-agent-test.cjs" "$@"`), which no
    agent reads; its 1,110-line `references/THIRD-PARTY-NOTICES.md` is no reference to read in
    slices. A large reference nothing runs, and a long guide, are still flagged."""
    launcher = '#!/usr/bin/env bash\n# Run the agent test.\nset -uo pipefail\nDIR=$(dirname "$0")\nexec node "$DIR/agent-test.cjs" "$@"\n'
    files = {"scripts/run.sh": launcher, "scripts/agent-test.cjs": "var a=1;" * 140_000,
             "references/big.md": "word " * 220_000,
             "references/THIRD-PARTY-NOTICES.md": "# Notices\n" + "Copyright line.\n" * 400,
             "references/guide.md": "# Guide\n" + "A line of the guide.\n" * 400}
    root = skill(tmp_path, "agent-test", "Run `bash scripts/run.sh --suite smoke`; read `references/guide.md`, "
                 "`references/big.md` and `references/THIRD-PARTY-NOTICES.md`.\n", files, mode=0o755)
    assert sorted(findings(root, "FIL002", "RES004")) == [("references/big.md", "FIL002"), ("references/guide.md", "RES004")]


def test_a_link_to_another_skill_of_the_same_plugin_resolves(tmp_path):
    """RES003 on real skills: joeblackwaslike's plugin (`.claude-plugin/plugin.json`, `skills/`) has
    authoring-agent-skills link `../working-with-vercel-ai-sdk/SKILL.md` as an example to copy: the
    plugin installs both. The same link outside a plugin, and one further up, still leave the skill."""
    body = "See [the SDK skill](../sdk/SKILL.md) and [the notes](../../docs/notes.md).\n"
    skill_md = f"---\nname: author\ndescription: Writes skills. Use when authoring a skill.\n---\n\n{body}"
    other = "---\nname: sdk\ndescription: Uses the SDK. Use when calling the SDK.\n---\n\n# SDK\n"
    for name, plugin in (("plugin", True), ("plain", False)):
        files = {"skills/author/SKILL.md": skill_md, "skills/sdk/SKILL.md": other, "docs/notes.md": "# Notes\n"}
        if plugin:
            files[".claude-plugin/plugin.json"] = '{"name": "kit"}\n'
        repo = write_tree(tmp_path / name, files)
        got = lines_of(repo / "skills" / "author", "RES003")
        assert got == ([("SKILL.md", 6)] if plugin else [("SKILL.md", 6), ("SKILL.md", 6)]), name


def test_the_metadata_advice_fits_the_value(tmp_path):
    """SPC013 on real skills: tuyenivt's skills write `metadata.tags: [capacity, scaling]`, and the
    finding said "quote it", which would make the string "[capacity, scaling]". A list is to be one
    string; a number is still to be quoted."""
    for name, value, advice in (("plan-a", "[capacity, scaling]", "write it as one string ('capacity, scaling')"),
                                ("plan-b", "1.2", "quote it"),
                                ("plan-c", "{a: {b: c}}", "write it as strings, one entry each, or move it out of 'metadata'")):
        root = write_tree(tmp_path / name, {"SKILL.md": f"---\nname: {name}\ndescription: Plans capacity. Use when sizing a "
                                                        f"system.\nmetadata:\n  tags: {value}\n---\n\n# Body\n"})
        assert messages_of(root, "SPC013")[0][1].endswith(advice), value


def test_agent_needs_context_fork_in_claude_code(tmp_path):
    """SPC036, which agnix has (CC-SK-004) and skillsmith missed on set S: `agent: Explore` without
    `context: fork` starts no subagent in Claude Code. With the fork, or in a portable skill
    (where `agent` is SPC030's portability matter), it is not flagged."""
    head = "---\nname: survey\ndescription: Surveys the code. Use when asked where a symbol is used.\n"
    for where, extra, flagged in ((".claude/skills/survey", "agent: Explore\n", True),
                                  (".claude/skills/survey", "context: fork\nagent: Explore\n", False),
                                  ("survey", "agent: Explore\n", False)):
        root = write_tree(tmp_path / str(flagged) / extra[:7], {f"{where}/SKILL.md": head + extra + "---\n\n# Survey\n"})
        assert findings(root / where, "SPC036") == ([("SKILL.md", "SPC036")] if flagged else []), (where, extra)


def test_a_worker_only_a_shown_script_runs_needs_no_help(tmp_path):
    """CON009 on real skills: sub2api-upgrade's `scripts/debug-canary-adapters/*.sh` are started by the
    script SKILL.md shows, and SKILL.md never names them: the agent never asks them for --help. A
    script the skill names still needs one."""
    shown = '#!/usr/bin/env bash\n# Run the canary.\nset -uo pipefail\ncase "${1:-}" in -h|--help) echo "usage"; exit 0;; esac\nbash "$(dirname "$0")/adapters/gate.sh" "$1"\n'
    worker = '#!/usr/bin/env bash\n# Gate one log.\nset -uo pipefail\ngrep -c ERROR "$1"\n'
    body = "Run `bash scripts/canary.sh app.log`; it also runs `scripts/named.sh` for you.\n"
    root = skill(tmp_path, "canary", body, {"scripts/canary.sh": shown, "scripts/adapters/gate.sh": worker,
                                            "scripts/named.sh": worker}, mode=0o755)
    assert findings(root, "CON009") == [("scripts/named.sh", "CON009")]
