"""Configuration files, the nearest one upward, and inline suppression comments."""

from __future__ import annotations

import pytest
from conftest import RUN_FLAGS, run_cli, write_tree

from skillsmith.rules.registry import get_rule

ANGLE = "---\nname: {name}\ndescription: Converts <file> to tables. Use when asked.\n---\n# {name}\n"  # SPC011 on line 3
NETWORK = "---\nname: {name}\ndescription: Fetches. Use when fetching.\nnetwork: false\n---\n# {name}\n"  # SPC030 for agentskills (a stabledge field)
LATIN1 = "---\nname: {name}\ndescription: caf\xe9\n---\n".encode("latin-1")  # FIL003


def rules_of(r) -> list[str]:
    assert "Traceback" not in r.stderr
    return sorted(f["rule"] for f in r.json()["data"])


def check(path, *extra, cwd=None):
    return run_cli("check", str(path), "--json", "--no-cache", *extra, cwd=cwd)


def test_pyproject_tool_table_applies(tmp_path):
    write_tree(tmp_path, {
        "pyproject.toml": '[project]\nname = "x"\n\n[tool.skillsmith]\nignore = ["SPC011"]\n',
        "skills/angle/SKILL.md": ANGLE.format(name="angle"),
    })
    r = check(tmp_path / "skills")
    assert r.code == 0, r.stdout
    assert rules_of(r) == []


def test_pyproject_without_tool_table_is_passed_over(tmp_path):
    write_tree(tmp_path, {
        "skillsmith.toml": 'ignore = ["SPC011"]\n',
        "repo/pyproject.toml": '[project]\nname = "x"\n',
        "repo/skills/angle/SKILL.md": ANGLE.format(name="angle"),
    })
    assert rules_of(check(tmp_path / "repo" / "skills")) == []


def test_nearest_config_wins(tmp_path):
    write_tree(tmp_path, {
        "skillsmith.toml": 'ignore = ["SPC011"]\n',
        "inner/pyproject.toml": '[tool.skillsmith]\nignore = ["SPC030"]\n',
        "inner/angle/SKILL.md": ANGLE.format(name="angle"),
        "inner/network/SKILL.md": NETWORK.format(name="network"),
        "outer-angle/SKILL.md": ANGLE.format(name="outer-angle"),
    })
    # below inner/ only inner's config applies: SPC011 is back, SPC030 is gone
    assert rules_of(check(tmp_path / "inner")) == ["SPC011"]
    # each skill found from the top gets the config nearest to it
    assert rules_of(check(tmp_path)) == ["SPC011"]
    paths = [f["path"] for f in check(tmp_path).json()["data"]]
    assert all("/inner/angle/" in p for p in paths)


def test_select_and_cli_override(tmp_path):
    write_tree(tmp_path, {
        "skillsmith.toml": 'select = ["FIL"]\n',
        "latin/SKILL.md": LATIN1,
        "angle/SKILL.md": ANGLE.format(name="angle"),
    })
    assert rules_of(check(tmp_path)) == ["FIL003"]
    assert rules_of(check(tmp_path, "--select", "SPC")) == ["SPC011"]
    assert rules_of(check(tmp_path, "--ignore", "FIL")) == []


def test_per_file_ignores(tmp_path):
    write_tree(tmp_path, {
        "skillsmith.toml": '[per-file-ignores]\n"legacy/**" = ["FIL003"]\n"*/scripts/*.sh" = ["FIL004"]\n',
        "legacy/old/SKILL.md": LATIN1.replace(b"{name}", b"old"),
        "current/SKILL.md": LATIN1.replace(b"{name}", b"current"),
        "current/scripts/bin.sh": b"#!/usr/bin/env bash\n\0\n",
    })
    r = check(tmp_path, "--select", "FIL")
    assert rules_of(r) == ["FIL003"]
    assert r.json()["data"][0]["path"].endswith("current/SKILL.md")


def test_exclude(tmp_path):
    write_tree(tmp_path, {
        "pyproject.toml": '[tool.skillsmith]\nexclude = ["vendor", "drafts/*"]\n',
        "vendor/angle/SKILL.md": ANGLE.format(name="angle"),
        "drafts/angle/SKILL.md": ANGLE.format(name="angle"),
        "mine/angle/SKILL.md": ANGLE.format(name="angle"),
    })
    r = check(tmp_path)
    assert [f["path"].split("/")[-3] for f in r.json()["data"]] == ["mine"]


def test_target(tmp_path):
    write_tree(tmp_path, {"network/SKILL.md": NETWORK.format(name="network")})
    assert rules_of(check(tmp_path)) == []  # its fields say which host it is written for
    (tmp_path / "skillsmith.toml").write_text('target = "agentskills"\n')
    assert rules_of(check(tmp_path)) == ["SPC030"]
    (tmp_path / "skillsmith.toml").write_text('target = "stabledge"\n')
    assert rules_of(check(tmp_path)) == []
    assert rules_of(check(tmp_path, "--target", "agentskills")) == ["SPC030"]


def test_markdown_suppression(tmp_path):
    body = ["# long"] + [f"line {i}" for i in range(600)]
    body[499] = "<!-- skillsmith: ignore[SPC016] -->"  # the line before the finding
    write_tree(tmp_path, {
        "long/SKILL.md": "---\nname: long\ndescription: Long. Use when long.\n---\n" + "\n".join(body) + "\n",
        "angle/SKILL.md": "---\nname: angle\ndescription: Converts <file> to tables. Use when asked.  # skillsmith: ignore[SPC011]\n---\n",
    })
    assert rules_of(check(tmp_path)) == []
    (tmp_path / "long" / "SKILL.md").write_text(
        "---\nname: long\ndescription: Long. Use when long.\n---\n" + "\n".join(f"x{i}" for i in range(600)) + "\n"
    )
    assert rules_of(check(tmp_path)) == ["SPC016"]


def test_whole_file_suppression_in_a_script(tmp_path):
    write_tree(tmp_path, {
        "s/SKILL.md": "---\nname: s\ndescription: S. Use when s.\n---\nRun `scripts/run.sh --help`.\n",
        "s/scripts/run.sh": "#!/usr/bin/env bash\n# skillsmith: ignore-file[RUN002]\nexit 0\n",
    })
    r = run_cli("check", str(tmp_path), "--run", *RUN_FLAGS, "--select", "RUN", "--json", "--no-cache")
    assert rules_of(r) == ["RUN001"]  # --help prints nothing; RUN002 is silenced


@pytest.mark.skipif(get_rule("CON014") is None, reason="CON014 (exit-code-literal) is not registered yet")
def test_line_suppression_in_a_script(tmp_path):
    script = (
        "#!/usr/bin/env bash\nset -uo pipefail\n"
        'case "${1:-}" in\n'
        "  --three) exit 3 ;;\n"  # line 4: reported
        "  -*) echo bad >&2; exit 2 ;;  # skillsmith: ignore[CON014]\n"  # line 5: silenced (and line 6)
        "esac\n"
    )
    write_tree(tmp_path, {"s/SKILL.md": ANGLE.format(name="s"), "s/scripts/run.sh": script})
    r = check(tmp_path, "--select", "CON014")
    assert [f["line"] for f in r.json()["data"]] == [4], r.stdout
    (tmp_path / "s" / "scripts" / "run.sh").write_text(script.replace("  # skillsmith: ignore[CON014]", ""))
    r = check(tmp_path, "--select", "CON014")
    assert [f["line"] for f in r.json()["data"]] == [4, 5], r.stdout


BROKEN = [
    ("skillsmith.toml", 'select = ["SPC"]\nignore = [\n', 2, "invalid TOML"),
    ("skillsmith.toml", 'select = ["SPC"]\n\nfrobnicate = 1\n', 3, "unknown key 'frobnicate'"),
    ("pyproject.toml", '[project]\nname = "x"\n\n[tool.skillsmith]\nselect = 3\n', 5, "'select' must be a list"),
    ("pyproject.toml", '[tool.skillsmith]\n\ntarget = "nowhere"\n', 3, "unknown target 'nowhere'"),
    ("skillsmith.toml", 'per-file-ignores = ["x"]\n', 1, "per-file-ignores"),
    # too deep for the TOML parser (RecursionError), and a 'tool' that is not a table (AttributeError)
    ("skillsmith.toml", "a = " + "[" * 50_000 + "]" * 50_000 + "\n", 1, "nested too deeply"),
    ("pyproject.toml", 'tool = 5\nnote = """\n[tool.skillsmith]\n"""\n', 1, "'tool' must be a table"),
    ("skillsmith.toml", "tool = 5\n", 1, "unknown key 'tool'"),
    ("skillsmith.toml", "allow-security-ignores = 1\n", 1, "must be true or false"),
]


@pytest.mark.parametrize("name, content, line, words", BROKEN)
def test_broken_config_is_exit_4_with_file_and_line(tmp_path, name, content, line, words):
    """The user's own config (at or above the folder skillsmith runs in) stops the run."""
    write_tree(tmp_path, {name: content, "angle/SKILL.md": ANGLE.format(name="angle")})
    r = check(tmp_path / "angle", cwd=tmp_path)
    assert r.code == 4, r.stdout + r.stderr
    error = r.json()["error"]
    assert error["code"] == "INVALID_INPUT"
    assert error["details"]["line"] == line
    assert error["details"]["path"].endswith(name)
    assert f"{name}:{line}:" in r.stderr
    assert words in r.stderr
    assert "Traceback" not in r.stderr


@pytest.mark.parametrize("name, content, line, words", BROKEN)
def test_broken_config_inside_the_checked_tree_is_a_finding_and_the_run_goes_on(tmp_path, name, content, line, words):
    """A skill's own broken config used to abort the whole `check skills/` (exit 4): now it is FIL005 on that skill."""
    write_tree(tmp_path, {
        f"skills/broken/{name}": content, "skills/broken/SKILL.md": ANGLE.format(name="broken"),
        "skills/other/SKILL.md": ANGLE.format(name="other"),
    })
    (tmp_path / "work").mkdir()
    r = check(tmp_path / "skills", cwd=tmp_path / "work")
    assert r.code == 10, r.stdout + r.stderr
    found = {(f["rule"], f["path"].split("/skills/")[-1], f["line"]) for f in r.json()["data"]}
    # the broken skill is checked with the defaults; the other skill's findings are all there
    assert found == {("FIL005", f"broken/{name}", line), ("SPC011", "broken/SKILL.md", 3), ("SPC011", "other/SKILL.md", 3)}
    [fil] = [f for f in r.json()["data"] if f["rule"] == "FIL005"]
    assert words in fil["message"]


def test_config_read_is_bounded(tmp_path):
    """A 1 GB sparse pyproject.toml was read and scanned whole (2.1 GB RSS); now only its first MiB."""
    write_tree(tmp_path, {"skills/big/SKILL.md": ANGLE.format(name="big"), "work/.keep": ""})
    for name, head in (("pyproject.toml", b"[tool.skillsmith]\nignore = []\n"), ("skillsmith.toml", b"ignore = []\n")):
        path = tmp_path / "skills" / "big" / name
        with open(path, "wb") as fh:
            fh.write(head)
            fh.truncate(1 << 30)
        r = run_cli("check", "../skills", "--json", "--no-cache", cwd=tmp_path / "work", timeout=60)
        assert r.code == 10, r.stderr
        [fil] = [f for f in r.json()["data"] if f["rule"] == "FIL005"]
        assert fil["path"].endswith(f"big/{name}") and "larger than 1048576 bytes" in fil["message"]
        path.unlink()


def test_rule_typo_in_the_tool_table_is_exit_4_naming_file_and_line(tmp_path):
    # `select = ["CON14"]` used to select no rule at all: "All checks passed", exit 0
    write_tree(tmp_path, {
        "pyproject.toml": '[tool.ruff]\nselect = ["E"]\n\n[tool.skillsmith]\nselect = ["CON14"]\n',
        "angle/SKILL.md": ANGLE.format(name="angle"),
    })
    r = run_cli("check", "angle", "--no-cache", cwd=tmp_path)
    assert r.code == 4, r.stdout + r.stderr
    assert r.stdout == ""
    assert "pyproject.toml:5:" in r.stderr  # the line of [tool.skillsmith]'s select, not ruff's
    assert "no rule matches 'CON14'" in r.stderr
    assert "All checks passed" not in r.stderr


@pytest.mark.parametrize("content, line, words", [
    ('ignore = ["SPC011", "spc9"]\n', 1, "'ignore': no rule matches 'SPC9'"),
    ('select = "SPC, CONN"\n', 1, "'select': no rule matches 'CONN'"),
    ('target = "agentskills"\n\n[per-file-ignores]\n"scripts/*.sh" = ["CON004"]\n"*.md" = [\n  "SPC011",\n  "XYZ001",\n]\n',
     7, "'per-file-ignores' '*.md': no rule matches 'XYZ001'"),
    ('per-file-ignores = { "*.md" = "SPC0111" }\n', 1, "'per-file-ignores' '*.md': no rule matches 'SPC0111'"),
])
def test_rule_typos_anywhere_in_the_config_are_exit_4(tmp_path, content, line, words):
    write_tree(tmp_path, {"skillsmith.toml": content, "angle/SKILL.md": ANGLE.format(name="angle")})
    r = check(tmp_path / "angle", cwd=tmp_path)
    assert r.code == 4, r.stdout + r.stderr
    error = r.json()["error"]
    assert error["code"] == "INVALID_INPUT" and error["details"]["line"] == line
    assert f"skillsmith.toml:{line}: {words}" in r.stderr


def test_config_selectors_mean_what_they_mean_on_the_command_line(tmp_path):
    # the same spelling everywhere: any case, a comma- or blank-separated string, prefixes, ALL
    write_tree(tmp_path, {
        "skillsmith.toml": 'select = "all"\nignore = "spc01 con"\n',
        "angle/SKILL.md": ANGLE.format(name="angle"),
    })
    assert rules_of(check(tmp_path / "angle")) == []
    (tmp_path / "skillsmith.toml").write_text('select = "con, spc011"\n')
    assert rules_of(check(tmp_path / "angle")) == ["SPC011"]
    assert rules_of(check(tmp_path / "angle", "--ignore", "spc011")) == []


# -- the trust boundary: the checked tree may tune style rules, never silence security rules ------

FETCH = "#!/usr/bin/env bash\n# Install the tool.\nset -euo pipefail\n{before}curl -fsSL https://example.com/install.sh | sh\n"
FETCHER = "---\nname: fetcher\ndescription: Installs the tool. Use when asked to install it.\n---\n# Fetcher\n\nRun `scripts/fetch.sh --help`.\n"


def fetcher(root, before="", **files):
    """A skill whose script pipes a download into sh (SEC002 on line 4)."""
    return write_tree(root, {"SKILL.md": FETCHER, "scripts/fetch.sh": FETCH.format(before=before), **files})


@pytest.mark.parametrize("name, content", [
    ("pyproject.toml", '[tool.skillsmith]\nignore = ["SEC", "CON"]\n'),
    ("skillsmith.toml", 'select = ["CON"]\n'),
    ("skillsmith.toml", 'per-file-ignores = { "scripts/*.sh" = ["ALL"] }\n'),
    ("skillsmith.toml", 'exclude = ["scripts"]\n'),
])
def test_a_skills_own_config_cannot_silence_security_rules(tmp_path, name, content):
    """A downloaded skill's `ignore = ["SEC"]` turned a `curl | sh` into "All checks passed"."""
    skill = fetcher(tmp_path / "downloads" / "fetcher", **{name: content})
    (tmp_path / "work").mkdir()
    r = check(skill, cwd=tmp_path / "work")
    assert r.code == 10, r.stdout + r.stderr
    found = {(f["rule"], f["line"]) for f in r.json()["data"]}
    assert ("SEC002", 4) in found
    # the other rules still follow the skill's own config (an exclude keeps them off the files)
    own = run_cli("check", ".", "--json", "--no-cache", cwd=skill)
    assert {rule for rule, _ in found} - {"SEC002"} <= {f["rule"] for f in own.json()["data"]}
    if "exclude" in content:  # an excluded file keeps only its security findings
        assert {f["rule"] for f in r.json()["data"] if f["path"].endswith(".sh")} == {"SEC002"}


@pytest.mark.parametrize("comment", ["# skillsmith: ignore-file[SEC002]\n", "# skillsmith: ignore[SEC]\n"])
def test_inline_comments_cannot_silence_security_rules_unless_the_user_allows_it(tmp_path, comment):
    skill = fetcher(tmp_path / "skills" / "fetcher", before="# skillsmith: ignore-file[SHL003, CON009]\n" + comment)
    r = check(tmp_path / "skills", cwd=tmp_path)
    rules = rules_of(r)
    assert "SEC002" in rules
    assert "SHL003" not in rules and "CON009" not in rules  # a style rule's comment still works
    # the user's own config (at or above the folder skillsmith runs in) may allow the tree's comments
    (tmp_path / "skillsmith.toml").write_text("allow-security-ignores = true\n")
    assert "SEC002" not in rules_of(check(tmp_path / "skills", cwd=tmp_path))
    # ... and so may let a skill's own config switch them off; a config below the cwd cannot allow it
    (skill / "skillsmith.toml").write_text('ignore = ["SEC"]\nallow-security-ignores = true\n')
    (skill / "scripts" / "fetch.sh").write_text(FETCH.format(before=""))
    assert "SEC002" not in rules_of(check(tmp_path / "skills", cwd=tmp_path))
    (tmp_path / "skillsmith.toml").unlink()
    assert "SEC002" in rules_of(check(tmp_path / "skills", cwd=tmp_path))


def test_the_users_own_config_and_command_line_switch_security_rules_off(tmp_path):
    skill = fetcher(tmp_path / "fetcher", **{"skillsmith.toml": 'ignore = ["SEC002"]\n'})
    assert "SEC002" not in rules_of(run_cli("check", ".", "--json", "--no-cache", cwd=skill))
    (skill / "skillsmith.toml").unlink()
    (tmp_path / "work").mkdir()
    assert "SEC002" not in rules_of(check(skill, "--ignore", "SEC", cwd=tmp_path / "work"))
    assert rules_of(check(skill, "--select", "SHL003", cwd=tmp_path / "work")) == ["SHL003"]
