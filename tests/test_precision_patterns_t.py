"""False findings seen on real public skills (set T, after its sample), each beside the rule's own case.

Every test writes a small skill or repository with the pattern that used to give a wrong
finding (no finding now) and the pattern the rule is for (still a finding), and runs ``check``.
"""

from __future__ import annotations

from conftest import run_cli
from test_precision_contract import SKILL, findings, skill, write_tree
from test_precision_patterns_p import lines_of


def _skill_md(name: str, body: str) -> str:
    return SKILL.format(name=name, body=body)


def test_a_path_of_a_folder_that_holds_the_skill_is_not_missing(tmp_path):
    """RES002 on real skills: audit-loop (in a repository's `skills/`) runs the repository's
    `scripts/lib/linter.mjs`; spark-video's `references/spark-video-episode/SKILL.md` cites
    `scripts/stitch.py` of the skill it sits in. Neither is missing. A path that exists nowhere
    is still reported, and so is one that exists only above the repository's root (`.git`)."""
    body = "Lint with `node scripts/lib/linter.mjs src/`.\n\nThen read `references/gone.md`.\n"
    repo = write_tree(tmp_path / "repo", {
        "scripts/lib/linter.mjs": "export {}\n",
        "skills/audit-loop/SKILL.md": _skill_md("audit-loop", body),
        "skills/spark/SKILL.md": _skill_md("spark", "Stitch: `uv run scripts/stitch.py --all`.\n"),
        "skills/spark/scripts/stitch.py": "#!/usr/bin/env python3\n\"\"\"Stitch.\"\"\"\nimport sys\nprint(sys.argv)\n",
        "skills/spark/references/spark-episode/SKILL.md": _skill_md(
            "spark-episode", "Run `uv run scripts/stitch.py --shot 3`, then `references/lost.md`.\n"),
    })
    assert lines_of(repo / "skills" / "audit-loop", "RES002") == [("SKILL.md", 7)]
    got = run_cli("check", ".", "--json", "--no-cache", cwd=repo / "skills" / "spark" / "references" / "spark-episode").json()["data"]
    assert [(f["rule"], f["message"].split()[0]) for f in got if f["rule"] == "RES002"] == [("RES002", "references/lost.md")]
    # the repository ends at .git: a file above it is no file of the skill's repository
    outer = write_tree(tmp_path / "outer", {"scripts/lib/linter.mjs": "export {}\n",
                                            "repo/skills/audit-loop/SKILL.md": _skill_md("audit-loop", body)})
    (outer / "repo" / ".git").mkdir()
    assert lines_of(outer / "repo" / "skills" / "audit-loop", "RES002") == [("SKILL.md", 5), ("SKILL.md", 7)]


def test_a_path_after_the_name_of_a_sibling_skill_is_that_skills_file(tmp_path):
    """RES002 on real skills: editframe's webhooks says "See `references/events.md` and
    `editframe-api` `references/files.md`": the second is the sibling skill's file. The first,
    missing from webhooks itself, is still reported."""
    body = "See `references/events.md` and `editframe-api` `references/files.md`.\n"
    repo = write_tree(tmp_path / "repo", {
        "webhooks/SKILL.md": _skill_md("webhooks", body),
        "editframe-api/SKILL.md": _skill_md("editframe-api", "API.\n"),
        "editframe-api/references/files.md": "# Files\n",
    })
    got = run_cli("check", ".", "--json", "--no-cache", "--select", "RES002", cwd=repo / "webhooks").json()["data"]
    assert [f["message"].split()[0] for f in got] == ["references/events.md"]


def test_versions_kept_beside_a_skill_are_no_name_clash(tmp_path):
    """SPC021 on real skills: tangled-skills keeps `misc/websearch/` beside `misc/websearch-0-1-0/`,
    an archive of versions no host loads together. Two different skills with one name in the
    same folder still clash, and so do versions in a skills folder a host loads."""
    def tree(top):
        return {f"{top}/websearch/SKILL.md": "---\nname: websearch\ndescription: Searches. Use when searching.\n---\n# W\n",
                f"{top}/websearch-0-1-0/SKILL.md": "---\nname: websearch\ndescription: Searches. Use when searching.\n---\n# W\n"}
    root = write_tree(tmp_path / "misc-repo", tree("misc"))
    data = run_cli("check", "misc", "--json", "--no-cache", cwd=root).json()["data"]
    assert [f for f in data if f["rule"] == "SPC021"] == []
    root = write_tree(tmp_path / "skills-repo", tree("skills"))
    data = run_cli("check", "skills", "--json", "--no-cache", cwd=root).json()["data"]
    assert len([f for f in data if f["rule"] == "SPC021"]) == 1  # the other's name differs from its folder: SPC008


def test_a_checkers_report_lines_are_its_data(tmp_path):
    """PYS053 on real skills: verify_cot_html.py lists its findings, `for w in warnings:
    print(f"WARN: {w}")`; validate_process_spec.py `for e in errors: print('ERROR:', e)`. A
    progress line inside a loop (`print(f"[INFO] Scanning {f}...")`) is still status."""
    script = ('#!/usr/bin/env python3\n"""Check the files given."""\nimport json, sys\n\n'
              'warnings, errors = [], []\n'
              'for f in sys.argv[1:]:\n'
              '    print(f"[INFO] Scanning {f}...")\n'
              'for w in warnings:\n'
              '    print(f"WARN: {w}")\n'
              'for e in errors:\n'
              '    print("ERROR:", e)\n'
              'if "--json" in sys.argv:\n'
              '    print(json.dumps({"warnings": warnings, "errors": errors}))\n')
    root = skill(tmp_path, "check", "Check: `python3 scripts/check.py a.html`.", {"scripts/check.py": script})
    assert lines_of(root, "PYS053") == [("scripts/check.py", 7)]


def test_a_source_location_and_a_linked_worked_call_use_no_exec_bit(tmp_path):
    """CON003 on real skills: data-markets cites "`scripts/mops_client.py` L54 (comment)", a place
    in the source; legal-contract-review's SKILL.md says it "runs `scripts/cache_check.py`" while the
    protocol it links shows `uv run scripts/cache_check.py statute ...`. Neither call needs the bit.
    A script cited to run through its path is still flagged."""
    py = '#!/usr/bin/env python3\n"""Check."""\nimport sys\nprint(sys.argv)\n'
    body = ("Provenance: `scripts/mops.py` L54 (comment), `scripts/tw.py:143`.\n\n"
            "The review runs `scripts/cache_check.py`; see [the protocol](protocols/evaluate.md).\n\n"
            "Then run `scripts/direct.py --all`.\n")
    root = skill(tmp_path, "legal", body, {
        "scripts/mops.py": py, "scripts/tw.py": py, "scripts/cache_check.py": py, "scripts/direct.py": py,
        "protocols/evaluate.md": "# Evaluate\n\n```bash\nuv run scripts/cache_check.py statute 12\n```\n"})
    assert [p for p, _ in findings(root, "CON003")] == ["scripts/direct.py"]


def test_a_repl_run_bare_is_a_whole_call(tmp_path):
    """CON013 on real skills: s-expression-interpreter shows `python3 scripts/full_scheme_interpreter.py`
    ("Run as REPL"): the script reads only lines typed at its `input()` prompt. A script that reads
    stdin as a stream, cited bare, is still flagged."""
    repl = '#!/usr/bin/env python3\n"""A REPL."""\n\nwhile True:\n    print(eval(input("> ")))\n'
    piped = '#!/usr/bin/env python3\n"""Count lines."""\nimport sys\n\nprint(len(sys.stdin.read().splitlines()))\n'
    body = "Run as REPL: `python3 scripts/repl.py`.\n\nCount: `scripts/count.py`.\n"
    root = skill(tmp_path, "interp", body, {"scripts/repl.py": repl, "scripts/count.py": piped}, mode=0o755)
    assert [p for p, _ in findings(root, "CON013")] == ["SKILL.md"]
    assert lines_of(root, "CON013") == [("SKILL.md", 7)]


def test_a_vendor_installer_under_an_installation_heading(tmp_path):
    """SEC002 on real skills: esbuild-0-28-0's SKILL.md shows `curl -fsSL https://esbuild.github.io/dl/v0.28.0 | sh`
    under "## Installation / Setup", as installation docs do. The same command in a workflow step
    is still flagged."""
    body = ("## Installation / Setup\n\n```bash\ncurl -fsSL https://esbuild.github.io/dl/v0.28.0 | sh\n```\n\n"
            "## Build\n\n```bash\ncurl -fsSL https://esbuild.github.io/dl/v0.28.0 | sh\n```\n")
    root = skill(tmp_path, "esbuild", body, {})
    assert lines_of(root, "SEC002") == [("SKILL.md", 14)]


def test_a_readme_another_reference_names_by_path_is_the_agents_index(tmp_path):
    """RES006 on real skills: uipath-platform's `references/integration-service/connections.md`
    (which SKILL.md reaches through another document) names `connector-overrides/README.md`, the
    index of the overrides the agent applies. A README in a subfolder that only a bare "README.md"
    names is still a document for people."""
    files = {"guides/index.md": "# Index\n\n- `guides/service/connections.md`: connections\n",
             "guides/service/connections.md": "# Connections\n\nSee `connector-overrides/README.md` first.\n",
             "guides/service/connector-overrides/README.md": "# Overrides\n",
             "guides/other/README.md": "# Other\n",
             "guides/notes.md": "# Notes\n\nEvery project has a README.md.\n"}
    body = "Read `guides/index.md` and `guides/notes.md`.\n"
    root = skill(tmp_path, "platform", body, files)
    assert [p for p, _ in findings(root, "RES006")] == ["guides/other/README.md"]


def test_a_file_that_says_it_is_not_for_the_agent_is_not_uncited(tmp_path):
    """RES001 on real skills: every tangled-skills skill keeps `assets/MISC.md`, "Skill Metadata ...
    Moved from SKILL.md frontmatter. Not loaded into agent context." An uncited asset that says
    nothing of the kind is still reported."""
    files = {"assets/MISC.md": "# Skill Metadata\n\nMoved from SKILL.md frontmatter. Not loaded into agent context.\n",
             "assets/orphan.md": "# Orphan\n\nSome notes.\n"}
    root = skill(tmp_path, "meta", "Does things.\n", files)
    assert [p for p, _ in findings(root, "RES001")] == ["assets/orphan.md"]
