"""Hostile SKILL.md frontmatter through ``check`` and ``fix``: a finding or a repair, never a crash.

Each example is one skill whose SKILL.md frontmatter is generated from YAML's sharp edges:
``: `` and ``#`` inside plain values, quotes, flow brackets that are text, tabs, anchors and
aliases, ``!!python`` tags that would run a command, huge and deeply nested values, NUL, a
BOM, CRLF or mixed line endings, bytes that are not UTF-8, and a missing closing ``---``.

The hypothesis test runs the command line's ``main`` in this process (the code ``python -m
skillsmith`` runs, without a new interpreter per call, so that many examples fit in a few
seconds); ``test_hostile_frontmatter_through_real_processes`` runs a few fixed examples
through real ``python -m skillsmith`` processes. Asserted for every example:

- no internal error, exit codes only from the documented set (``check``: 0 or 10; ``fix``:
  0 or 10; nothing here is a usage, path or config error);
- nothing outside the skill is written and no file appears inside it (no temp file left);
- a SKILL.md whose frontmatter is still broken after ``fix`` (SPC003/SPC004/SPC005 remain),
  or that is not UTF-8, is byte for byte as it was;
- a SKILL.md that ``fix`` changed has frontmatter that parses (no SPC004 remains) and keeps
  every line ending it had (no line loses or gains a CR);
- a second ``fix`` changes nothing and writes nothing;
- no ``!!python`` tag is ever constructed: the command it names never runs.
"""

from __future__ import annotations

import contextlib
import io
import json
import shutil
import tempfile
from pathlib import Path

import pytest
from conftest import run_cli
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skillsmith.cli.main import main

#: where a ``!!python`` payload would leave its mark (``{marker}`` is the example's own path)
PAYLOADS = [
    '!!python/object/apply:os.system ["touch {marker}"]',
    "!!python/object/apply:subprocess.call [[touch, {marker}]]",
    '!!python/object/new:os.system ["touch {marker}"]',
    "!!python/name:os.system",
    '!!python/object/apply:builtins.open ["{marker}", "w"]',
]
VALUES = [
    "Use when: the user asks", "Does X. Use when the user says \"go: now\"", "it's here: yes", "it's \"both\": x",
    "[file] [options]", "[x]", "[a, b", "{a: 1}", "{a", "\"Quoted\" then text", "'single' then text",
    "@Observable state", "`code` first", "%percent", "*bold* text", "*alias", "&anchor value", "| block",
    "> folded", "x # a comment: here", "C# and F#", "a\tb: c", "back\\slash: x", "ok", "", "- item",
    "日本語：説明。license: MIT", "x" * 70_000, "[" * 400, "{" * 400 + "}" * 400, "\x00", "nul\x00: x",
    "\ufeffbom", "ctrl\x07: x", "émoji 😀: yes", "yes", "1.0", "~", "null: x", "---", "...",
]
KEYS = ["name", "description", "argument-hint", "allowed-tools", "license", "when_to_use", "metadata", "x-custom", "version"]


@st.composite
def frontmatter_line(draw) -> str:
    kind = draw(st.sampled_from(["key", "key", "key", "nested", "tab-nested", "continuation", "payload", "anchor",
                                 "comment", "blank", "text"]))
    value = draw(st.one_of(st.sampled_from(VALUES), st.text(max_size=20)))
    if kind == "key":
        sep = draw(st.sampled_from([" ", " ", "  ", "\t", ""]))
        return f"{draw(st.sampled_from(KEYS))}:{sep}{value}"
    if kind == "nested":
        return f"  {draw(st.sampled_from(['author', 'short-description', 'tags']))}: {value}"
    if kind == "tab-nested":
        return f"\t{draw(st.sampled_from(['author', 'version']))}: {value}"
    if kind == "continuation":
        return draw(st.sampled_from(["  and more text", "the user asks.", "  - listed", "\tindented: x"]))
    if kind == "payload":
        return f"{draw(st.sampled_from(KEYS))}: {draw(st.sampled_from(PAYLOADS))}"
    if kind == "anchor":
        return draw(st.sampled_from(["base: &a [x, y]", "copy: *a", "<<: *a", "lol: &l [l, l, l]"]))
    if kind == "comment":
        return "# a comment: with colon"
    if kind == "blank":
        return ""
    return value


@st.composite
def skill_md(draw) -> tuple[bytes, bool]:
    """(bytes of a SKILL.md, whether it is meant to be UTF-8)."""
    lines = ["---"] + draw(st.lists(frontmatter_line(), min_size=1, max_size=8))
    if draw(st.integers(0, 9)):  # mostly closed
        lines.append("---")
    lines += ["", "# Title", "Body text."]
    ending = draw(st.sampled_from(["\n", "\r\n", "mixed"]))
    if ending == "mixed":
        text = "".join(ln + ("\r\n" if i % 2 else "\n") for i, ln in enumerate(lines))
    else:
        text = ending.join(lines) + ending
    data = text.encode("utf-8", "surrogatepass")
    if draw(st.booleans()) and draw(st.booleans()):
        data = b"\xef\xbb\xbf" + data
    utf8 = True
    if not draw(st.integers(0, 7)):  # sometimes bytes that are not UTF-8
        at = draw(st.integers(0, len(data)))
        data = data[:at] + draw(st.sampled_from([b"\xff", b"\xc3\x28", b"\xed\xa0\x80"])) + data[at:]
        utf8 = False
    return data, utf8


def run_main(*args: str) -> tuple[int, str, str]:
    """``skillsmith ARGS`` through the command line's own ``main``: (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue(), err.getvalue()


def tree(base: Path) -> dict[str, bytes]:
    """Every file below *base* (relative path -> bytes)."""
    return {str(p.relative_to(base)): p.read_bytes() for p in sorted(base.rglob("*")) if p.is_file()}


def cr_pattern(data: bytes) -> list[bool]:
    """For each line of *data*: whether it ends with CRLF."""
    return [ln.endswith(b"\r") for ln in data.split(b"\n")[:-1]]


FRONTMATTER_BROKEN = {"SPC003", "SPC004", "SPC005"}


def check_and_fix(content: bytes, utf8: bool, base: Path, run) -> None:
    """The properties of the module docstring for one SKILL.md, with *run* (args) -> (code, stdout, stderr)."""
    marker = base / "pwned"
    content = content.replace(b"{marker}", str(marker).encode())
    skill = base / "work" / "fuzz-skill"
    skill.mkdir(parents=True)
    (base / "work" / "outside.txt").write_text("not part of the skill\n")
    md = skill / "SKILL.md"
    md.write_bytes(content)
    outside_before = {k: v for k, v in tree(base).items() if not k.startswith("work/fuzz-skill/")}

    code, out, err = run("check", str(skill), "--json", "--no-cache")
    assert code in (0, 10), (code, err)
    assert "internal error" not in err + out
    before = json.loads(out)["data"]

    code, out, err = run("fix", str(skill), "--json")
    assert code in (0, 10), (code, err)
    assert "internal error" not in err + out
    json.loads(out)
    once = md.read_bytes()

    code, out, err = run("check", str(skill), "--json", "--no-cache")
    assert code in (0, 10), (code, err)
    after = json.loads(out)["data"]
    broken = {f["rule"] for f in after if f["rule"] in FRONTMATTER_BROKEN}
    if broken or not utf8:
        assert once == content, f"fix changed a SKILL.md it could not repair ({sorted(broken)})"
    if once != content:
        assert not broken
        assert cr_pattern(once) == cr_pattern(content), "fix changed the line endings"
        assert any(f["rule"] == "SPC004" for f in before), "fix changed a SKILL.md that had no broken YAML"

    code, out, err = run("fix", str(skill), "--json")
    assert code in (0, 10), (code, err)
    assert md.read_bytes() == once, "a second fix changed SKILL.md again"
    assert not [i for i in json.loads(out)["data"] if i["status"] == "fixed"], "a second fix wrote again"

    assert not marker.exists(), "a !!python tag was constructed"
    assert sorted(p.name for p in skill.iterdir()) == ["SKILL.md"], "fix left a file in the skill"
    outside_after = {k: v for k, v in tree(base).items() if not k.startswith("work/fuzz-skill/")}
    assert outside_after == outside_before, "a file outside the skill was written"


@settings(max_examples=120, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(example=skill_md())
def test_hostile_frontmatter_is_a_finding_or_a_repair(example):
    content, utf8 = example
    base = Path(tempfile.mkdtemp(prefix="skillsmith-fm-fuzz-"))
    try:
        check_and_fix(content, utf8, base, run_main)
    finally:
        shutil.rmtree(base, ignore_errors=True)


FIXED_EXAMPLES = {
    "python-tag-in-broken-line": b"---\nname: fuzz-skill\ndescription: Use when: x\nx: " + PAYLOADS[1].encode() + b"\n---\n",
    "nul": b"---\nname: fuzz-skill\ndescription: a\x00b: c\n---\n",
    "not-utf8": b"---\nname: fuzz-skill\ndescription: caf\xe9: yes\n---\n",
    "bom-crlf-colon": b"\xef\xbb\xbf---\r\nname: fuzz-skill\r\ndescription: Use when: the user asks\r\n---\r\n# T\r\n",
}


@pytest.mark.parametrize("name", sorted(FIXED_EXAMPLES))
def test_hostile_frontmatter_through_real_processes(name, tmp_path):
    def run(*args):
        r = run_cli(*args, timeout=60)
        return r.code, r.stdout, r.stderr

    check_and_fix(FIXED_EXAMPLES[name], name != "not-utf8", tmp_path, run)


#: pieces of a description as authors write them, rich in what YAML reads as structure
PIECES = list("abZ é日:'\"\\#@`%*&![]{}|>,-?~.\t") + [": ", " #", "Use when: ", "it's ", '"go" ', "[x] ", "C:\\x "]
CONTINUATIONS = ["and more text", "  indented more", "  the user asks: now", "the end.", "  it's \"done\""]


@st.composite
def broken_description(draw) -> tuple[bytes, str]:
    """(a SKILL.md whose description is *text* as written, the text the author meant)."""
    first = "".join(draw(st.lists(st.sampled_from(PIECES), min_size=1, max_size=12))).strip(" \t")
    more = draw(st.lists(st.sampled_from(CONTINUATIONS), max_size=2))
    if not first:
        first = "x"
    meant = " ".join([first] + [c.strip() for c in more])
    ending = draw(st.sampled_from(["\n", "\r\n"]))
    lines = ["---", "name: fuzz-skill", "# a comment", f"description: {first}", *more, "license: MIT", "---", "# T", ""]
    return ending.join(lines).encode("utf-8"), meant


@settings(max_examples=80, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(example=broken_description())
def test_repair_gives_the_value_the_author_wrote(example):
    """``[*]`` exactly when ``fix`` repairs; a repair keeps the other lines and gives the text as written."""
    import yaml

    content, meant = example
    base = Path(tempfile.mkdtemp(prefix="skillsmith-fm-repair-"))
    try:
        skill = base / "fuzz-skill"
        skill.mkdir()
        md = skill / "SKILL.md"
        md.write_bytes(content)
        code, out, err = run_main("check", str(skill), "--json", "--no-cache")
        assert code in (0, 10) and "internal error" not in err
        spc004 = [f for f in json.loads(out)["data"] if f["rule"] == "SPC004"]
        code, out, err = run_main("fix", str(skill), "--json")
        assert code in (0, 10) and "internal error" not in err
        fixed = md.read_bytes()
        marked = bool(spc004) and spc004[0]["fix"] == "safe"
        assert marked == (fixed != content), (spc004, fixed)
        if fixed != content:
            old, new = content.split(b"\n"), fixed.split(b"\n")
            assert len(old) == len(new)
            assert [o for o, n in zip(old, new) if o == n][:3] == old[:3], "a line before the value changed"
            assert old[-4:] == new[-4:], "a line after the value changed"
            lines = fixed.decode().replace("\r\n", "\n").split("\n")
            data = yaml.safe_load("\n".join(lines[1:lines.index("---", 1)]))
            assert data == {"name": "fuzz-skill", "description": meant, "license": "MIT"}
            code, out, _ = run_main("check", str(skill), "--json", "--no-cache")
            assert not [f for f in json.loads(out)["data"] if f["rule"] == "SPC004"]
            run_main("fix", str(skill))
            assert md.read_bytes() == fixed, "a second fix changed the repair"
        elif spc004:
            assert "quote" in spc004[0]["message"] or "indent" in spc004[0]["message"], spc004[0]["message"]
    finally:
        shutil.rmtree(base, ignore_errors=True)
