"""The Claude Code and Codex profiles beside the portable one: chosen, detected, and cached right.

The patterns themselves (valid Claude Code fields, the same skill checked as portable, field
types, a good and a bad ``agents/openai.yaml``) are cases of ``tests/test_precision.py``
(``tests/fixtures/precision/spc-claude-code-*`` and ``spc-codex-*``).
"""

from __future__ import annotations

import json
import shutil

from conftest import FIXTURES, run_cli, write_tree

PRECISION = FIXTURES / "precision"
PORTABLE = PRECISION / "spc-claude-code-fields-portable" / "release-notes"
CODEX_BAD = PRECISION / "spc-codex-openai-yaml-bad" / "release-check"


def found(path, *args: str, cwd=None) -> list[tuple[str, int, str]]:
    r = run_cli("check", str(path), "--json", *args, cwd=cwd)
    assert r.code in (0, 10), r.stdout + r.stderr
    return sorted((f["rule"], f["line"], f["message"]) for f in r.json()["data"])


def test_claude_code_fields_are_valid_when_the_target_is_chosen(tmp_path):
    """The fields are evidence of the host the skill is written for: they are not portable only
    when the skill must be portable (a named target)."""
    skill = shutil.copytree(PORTABLE, tmp_path / "release-notes")
    assert found(skill, "--no-cache") == []
    (rule, line, message), = found(skill, "--no-cache", "--target", "agentskills")
    assert (rule, line) == ("SPC030", 3)
    assert message == ("'display-name', 'default-enabled', 'fallback', 'arguments' and 'disallowed-tools' (read by "
                       "Claude Code) and 'argument-hint' (read by sucoder and Claude Code) are not Agent Skills "
                       "specification fields: hosts that follow only the specification ignore them")
    assert found(skill, "--no-cache", "--target", "claude-code") == []
    (tmp_path / "skillsmith.toml").write_text('target = "agentskills"\n')
    assert [r for r, _, _ in found(skill, "--no-cache")] == ["SPC030"]
    (tmp_path / "skillsmith.toml").write_text('target = "claude-code"\n')
    assert found(skill, "--no-cache") == []


def test_an_unknown_field_is_still_spc015_under_claude_code(tmp_path):
    write_tree(tmp_path, {".claude/skills/notes/SKILL.md": (
        "---\nname: notes\ndescription: Takes notes. Use when the user dictates.\nuser-invokable: true\n"
        "descripton: typo\n---\n# Notes\n")})
    assert found(tmp_path, "--no-cache") == [
        ("SPC015", 4, "unknown frontmatter field 'user-invokable' for target claude-code; did you mean 'user-invocable'?"),
        ("SPC015", 5, "unknown frontmatter field 'descripton' for target claude-code; did you mean 'description'?"),
    ]


def test_a_codex_skill_checked_for_another_target_is_not_read_for_codex(tmp_path):
    skill = shutil.copytree(CODEX_BAD, tmp_path / "release-check")
    assert [r for r, _, _ in found(skill, "--no-cache")] == ["SPC032"]
    assert [r for r, _, _ in found(skill, "--no-cache", "--target", "codex")] == ["SPC030", "SPC032"]
    assert [(r, m) for r, _, m in found(skill, "--no-cache", "--target", "claude-code")] == []
    assert [r for r, _, _ in found(skill, "--no-cache", "--target", "agentskills")] == ["SPC030"]


def test_openai_yaml_that_is_not_yaml_is_ignored_whole(tmp_path):
    write_tree(tmp_path, {
        "s/SKILL.md": "---\nname: s\ndescription: Does s. Use when asked for s.\n---\n# S\n",
        "s/agents/openai.yaml": 'interface:\n  display_name: [S\n  brand_color: "#000000"\n',
    })
    (rule, line, message), = found(tmp_path / "s", "--no-cache")
    assert rule == "SPC032" and message.startswith("agents/openai.yaml is not valid YAML")
    assert message.endswith("Codex ignores the whole file")
    (tmp_path / "s" / "agents" / "openai.yaml").write_text("- interface\n- policy\n")
    assert found(tmp_path / "s", "--no-cache") == [
        ("SPC032", 1, "agents/openai.yaml is a list, not a mapping; Codex ignores the whole file")]


def test_a_plugin_manifest_added_later_changes_the_cached_target(tmp_path):
    """The plugin's manifest is outside the skill: the caches must key on it like on the skill's files."""
    plugin = tmp_path / "plugin"
    skill = shutil.copytree(PORTABLE, plugin / "skills" / "release-notes")
    _claude_code_value_of_the_wrong_type(skill)
    env = {"SKILLSMITH_CACHE_DIR": str(tmp_path / "cache")}
    for given in (plugin / "skills" / "release-notes", plugin / "skills"):
        r = run_cli("check", str(given), "--json", env=env)
        assert (r.code, r.json()["data"]) == (0, []), r.stdout
    write_tree(plugin, {".claude-plugin/plugin.json": json.dumps({"name": "release-tools"}) + "\n"})
    for given in (plugin / "skills" / "release-notes", plugin / "skills"):
        r = run_cli("check", str(given), "--json", env=env)
        assert [f["rule"] for f in r.json()["data"]] == ["SPC031"]  # now read as a Claude Code skill


def _claude_code_value_of_the_wrong_type(skill):
    """Give *skill* ``default-enabled: "yes"``: SPC031 under the Claude Code target, nothing under another."""
    md = skill / "SKILL.md"
    md.write_text(md.read_text().replace("default-enabled: true", 'default-enabled: "yes"'))


def test_a_plugin_that_a_marketplace_defines_is_a_claude_code_plugin(tmp_path):
    """levnikolaevich's skills: no plugin.json, the root's .claude-plugin/marketplace.json defines each
    plugin (``"source": "./plugins/agile-workflow"``, ``"strict": false``); Claude Code reads their fields."""
    repo = tmp_path / "repo"
    shutil.copytree(PORTABLE, repo / "plugins" / "release" / "skills" / "release-notes")
    skill_dir = repo / "plugins" / "release" / "skills" / "release-notes"
    _claude_code_value_of_the_wrong_type(skill_dir)
    env = {"SKILLSMITH_CACHE_DIR": str(tmp_path / "cache")}

    def market(*sources):
        plugins = [{"name": s.rsplit("/", 1)[-1], "source": s, "strict": False} for s in sources]
        write_tree(repo, {".claude-plugin/marketplace.json": json.dumps({"name": "m", "plugins": plugins}) + "\n"})

    assert [f["rule"] for f in run_cli("check", str(skill_dir), "--json", env=env).json()["data"]] == []
    market("./plugins/other")  # a marketplace that lists other plugins does not make this one Claude Code's
    assert [f["rule"] for f in run_cli("check", str(skill_dir), "--json", env=env).json()["data"]] == []
    market("./plugins/other", "./plugins/release")  # the cache keys on the marketplace as on the skill's files
    r = run_cli("check", str(skill_dir), "--json", env=env)
    assert [f["rule"] for f in r.json()["data"]] == ["SPC031"], r.stdout


def test_an_empty_argument_hint_is_as_good_as_none(tmp_path):
    """terrylica's no-argument skills write ``argument-hint: ""``: a string, shown as no hint; SPC031
    took it for a wrong type while ``argument-hint:`` (null) passed."""
    skill = shutil.copytree(PORTABLE, tmp_path / "release-notes")
    text = (skill / "SKILL.md").read_text()
    for value, expected in (('""', []), ("4", ["SPC031"])):
        (skill / "SKILL.md").write_text(text.replace('argument-hint: "[version]"', f"argument-hint: {value}"))
        assert [rule for rule, _, _ in found(skill, "--no-cache", "--target", "claude-code")] == expected
