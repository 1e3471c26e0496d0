"""False findings seen on real public skills (set U, after its sample), each beside the rule's own case.

Every test writes a small skill or repository with the pattern that used to give a wrong
finding (no finding now) and the pattern the rule is for (still a finding), and runs ``check``.
"""

from __future__ import annotations

import os

from conftest import run_cli
from test_precision_contract import SKILL, findings, skill, write_tree
from test_precision_patterns_p import lines_of

SH = '#!/usr/bin/env bash\n# Run the hook.\necho "$1"\n'


def _skill_md(name: str, body: str, extra: str = "") -> str:
    return f"---\nname: {name}\ndescription: Tools written for the precision tests. Use when testing.\n{extra}---\n{body}\n"


def test_a_link_checked_out_as_a_file_is_no_script(tmp_path):
    """CON001, CON009, SHL001 on real skills: skills-by-yigitkonur's `scripts/test-hook.sh` holds only
    `../../../scripts/test-hook.sh`, a symbolic link checked out as a file (git with core.symlinks
    off). It is no script, so the script rules say nothing of it; a real script beside it still hears them."""
    root = skill(tmp_path, "hooks", "Run `scripts/test-hook.sh a` and `scripts/real.sh a`.",
                 {"scripts/test-hook.sh": "../../../scripts/test-hook.sh", "scripts/real.sh": "echo hi\n"}, mode=0o755)
    got = findings(root, "CON001", "CON009", "SHL001", "CON012")
    assert {p for p, _ in got} == {"scripts/real.sh"}


def test_the_source_map_of_a_bundled_program_is_not_read_by_the_agent(tmp_path):
    """FIL002 on real skills: `scripts/validate-skill.mjs.map` (1.4 MB) is the source map of the
    program SKILL.md runs with `node`; no agent reads it. A large map with no program beside it,
    and a large reference, are still reported."""
    big = "x" * (1024 * 1024 + 10)
    root = skill(tmp_path, "bundle", "Validate: `node scripts/validate-skill.mjs SKILL.md`.", {
        "scripts/validate-skill.mjs": "console.log(1)\n//# sourceMappingURL=validate-skill.mjs.map\n",
        "scripts/validate-skill.mjs.map": big, "scripts/orphan.js.map": big, "references/dump.md": big})
    assert sorted(p for p, _ in findings(root, "FIL002")) == ["references/dump.md", "scripts/orphan.js.map"]


def test_a_list_of_files_is_split_on_purpose(tmp_path):
    """SHL051 on real skills: check-tina-env.sh runs `grep -q 'clientId' $config_files`, where
    `config_files=$(find tina -name 'config.ts' -o ...)`: one argument per file, on purpose. A
    single path left unquoted is still flagged."""
    script = ('#!/usr/bin/env bash\n# Check the config.\nset -uo pipefail\n'
              'config_files=$(find tina -maxdepth 1 -name "config.ts")\n'
              'grep -q clientId $config_files\n'
              'target=$1\n'
              'cat $target\n')
    root = skill(tmp_path, "tina", "Check: `bash scripts/check.sh dir`.", {"scripts/check.sh": script}, mode=0o755)
    assert lines_of(root, "SHL051") == [("scripts/check.sh", 7)]


def test_an_installer_in_ci_configuration_or_an_install_document(tmp_path):
    """SEC002 on real skills: monad-dev-tool-pro shows a workflow whose step "Install Foundry" runs
    `curl -L https://foundry.paradigm.xyz | bash` in a `yaml` block (it runs in CI, not as the
    agent's step); dgx-spark's `playbooks/nemoclaw.md` opens "Install NemoClaw, NVIDIA's ..." and
    shows NVIDIA's installer. The same download in a step of SKILL.md's workflow is still flagged."""
    body = ("```yaml\nsteps:\n  - name: Install Foundry\n    run: curl -L https://foundry.paradigm.xyz | bash\n```\n\n"
            "## Deploy\n\n```bash\ncurl -L https://foundry.paradigm.xyz | bash\n```\n\nSee [NemoClaw](references/nemoclaw.md).\n")
    playbook = ("# Run NemoClaw\n\nInstall NemoClaw, NVIDIA's open-source reference stack.\n\n## Usage\n\n"
                "```bash\ncurl -fsSL https://www.nvidia.com/nemoclaw.sh | bash\n```\n")
    root = skill(tmp_path, "chain", body, {"references/nemoclaw.md": playbook})
    assert lines_of(root, "SEC002") == [("SKILL.md", 14)]


def test_files_the_skill_tests_the_project_for_are_the_projects(tmp_path):
    """RES002 on real skills: sync-skills-lock names the consuming repository's
    `scripts/check-skill-local-patches.sh` and runs it only `if [[ -f scripts/check-skill-local-patches.sh ]]`;
    init-makefiles probes `ls Makefile *.mk scripts/dev.sh 2>/dev/null`. A missing file the skill
    runs unconditionally is still reported."""
    body = ("The repository-owned checker `scripts/check-patches.sh` runs before the sync.\n\n"
            "```bash\nif [[ -f scripts/check-patches.sh ]]; then\n  bash scripts/check-patches.sh\nfi\n"
            "ls Makefile *.mk scripts/dev.sh 2>/dev/null\nbash scripts/sync.sh --all\n```\n")
    root = skill(tmp_path, "sync", body, {})
    assert lines_of(root, "RES002") == [("SKILL.md", 12)]


def test_a_one_letter_package_is_a_placeholder(tmp_path):
    """SEC004 on real skills: an acceptance criterion says the agent "refuses to use `RUN pip install x`":
    `x` stands for any package. A real package name is still flagged."""
    body = "The agent refuses to use `RUN pip install x`.\n\nThen run `pip install requests`.\n"
    root = skill(tmp_path, "rubric", body, {})
    assert lines_of(root, "SEC004") == [("SKILL.md", 7)]


def test_skills_of_a_codex_plugin_and_of_agents_skills_linked_for_claude(tmp_path):
    """SPC030/SPC011 on real skills: skills-by-yigitkonur's `plugins/run-github-scout/skills/x` sits
    beside `.codex-plugin/plugin.json` (a Codex plugin: its `version` is fine); a project's
    `.agents/skills/x` that `.claude/skills/x` links to is a Claude Code skill (its `user-invocable`
    is fine). The same skills with neither keep the portable target's warning."""
    md = _skill_md("scout", "# Scout\n", "version: 1.0.0\n")
    plugin = write_tree(tmp_path / "plugin", {".codex-plugin/plugin.json": '{"name": "scout", "skills": "./skills/"}\n',
                                              "skills/scout/SKILL.md": md})
    assert findings(plugin / "skills" / "scout", "SPC030") == []
    plain = write_tree(tmp_path / "plain", {"skills/scout/SKILL.md": md})
    assert findings(plain / "skills" / "scout", "SPC030") == []  # no target named: its fields tell the host
    (plain / "skillsmith.toml").write_text('target = "agentskills"\n')
    assert findings(plain / "skills" / "scout", "SPC030") == [("SKILL.md", "SPC030")]

    md = _skill_md("review", "# Review\n", "user-invocable: false\n")
    project = write_tree(tmp_path / "project", {".agents/skills/review/SKILL.md": md})
    (project / ".claude" / "skills").mkdir(parents=True)
    os.symlink("../../.agents/skills/review", project / ".claude" / "skills" / "review")
    (project / "skillsmith.toml").write_text('target = "agentskills"\n')
    assert findings(project / ".agents" / "skills" / "review", "SPC030") == []
    alone = write_tree(tmp_path / "alone", {".agents/skills/review/SKILL.md": md, "skillsmith.toml": 'target = "agentskills"\n'})
    assert findings(alone / ".agents" / "skills" / "review", "SPC030") == [("SKILL.md", "SPC030")]


def test_a_skill_md_nested_in_references_cites_paths_of_its_enclosing_skill(tmp_path):
    """RES002 on real skills: spark-video's `references/spark-video-clip-review/SKILL.md` cites
    `references/spark-video-clip-review/rubric.md`, a path from the enclosing skill's root, where it
    exists. A path that exists nowhere is still reported."""
    repo = write_tree(tmp_path / "repo", {
        "spark/SKILL.md": _skill_md("spark", "See `references/clip-review/SKILL.md`.\n"),
        "spark/references/clip-review/SKILL.md": _skill_md(
            "clip-review", "Score with `references/clip-review/rubric.md`, then `references/clip-review/gone.md`.\n"),
        "spark/references/clip-review/rubric.md": "# Rubric\n",
    })
    got = run_cli("check", ".", "--json", "--no-cache", "--select", "RES002", cwd=repo / "spark" / "references" / "clip-review").json()["data"]
    assert [f["message"].split()[0] for f in got] == ["references/clip-review/gone.md"]


def test_a_readme_in_references_is_a_reference_and_a_command_template_is_no_document(tmp_path):
    """RES006/RES001 on real skills: backend-architect's `references/README.md` indexes the references
    for the agent (not a document for people: if SKILL.md does not cite it, RES001 says so);
    visual-explainer's `prompts/plan-review.md` (its own frontmatter, `$1`) and investment-bottleneck's
    `README.md` ("对 $ARGUMENTS 超级趋势执行...") are prompts a host runs as commands. A README at the
    skill's top is still a document for people, and an uncited reference is still uncited."""
    files = {"references/README.md": "# References\n\n- `api.md`: the API\n", "references/api.md": "# API\n",
             "prompts/plan-review.md": "---\nname: plan-review\ndescription: Review a plan.\n---\n\nPlan file: `$1`\n",
             "prompts/notes.md": "# Notes\n\nSome notes.\n",
             "prompts/fact-check.md": "Verify factual accuracy of `$ARGUMENTS` against the codebase.\n",
             "guides/commands.md": "# Commands\n\nA command takes `$ARGUMENTS` substitution.\n",
             "README.md": "# My skill\n\nInstall it with the installer.\n"}
    root = skill(tmp_path, "architect", "Read `references/api.md`.\n", files)
    assert sorted(findings(root, "RES006", "RES001")) == [
        ("README.md", "RES006"), ("guides/commands.md", "RES001"), ("prompts/notes.md", "RES001"),
        ("references/README.md", "RES001")]
    root = skill(tmp_path, "bottleneck", "Scan the trend.\n", {"README.md": "# 瓶颈猎手\n\n对 $ARGUMENTS 超级趋势执行扫描。\n"})
    assert findings(root, "RES006", "RES001") == []
