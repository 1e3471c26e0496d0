"""``fix`` keeps what the file system gives a file, and a kill at any moment leaves no debris.

Owner and group, hard links, extended attributes and a read-only mode survive a fix (or the
file is skipped with the reason); SIGKILL at random moments leaves every file old or new, and
the next run removes the temp files the killed one left.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import run_cli

SKILL_MD = "---\nname: {name}\ndescription: A test skill for fixing. Use when testing fixes.\n---\n\nRun `scripts/tool.sh`.\n"
SCRIPT = b'echo "hi $1"\n'


def make_skill(root: Path, name: str = "tool-skill", script: bytes = SCRIPT) -> Path:
    skill = root / name
    (skill / "scripts").mkdir(parents=True)
    (skill / "SKILL.md").write_text(SKILL_MD.format(name=name))
    target = skill / "scripts" / "tool.sh"
    target.write_bytes(script)
    return target


def fix_json(path: Path) -> dict:
    result = run_cli("fix", str(path), "--json")
    assert result.code in (0, 2, 10), result.stderr  # 10: a file was skipped
    return result.json()


def skipped_reasons(path: Path) -> list[str]:
    return [f["reason"] for f in fix_json(path)["data"] if f["status"] == "skipped"]


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can give a file to another user")
def test_root_run_fix_keeps_owner_and_group(tmp_path):
    target = make_skill(tmp_path)
    os.chown(target, 4321, 4322)
    os.chown(target.parent, 4321, 4322)
    run_cli("fix", str(tmp_path))
    assert target.read_bytes() != SCRIPT  # it was fixed
    st = os.stat(target)
    assert (st.st_uid, st.st_gid) == (4321, 4322)


def test_hard_linked_file_is_skipped_with_reason_and_both_names_agree(tmp_path):
    target = make_skill(tmp_path)
    other = tmp_path / "other-name.sh"
    os.link(target, other)
    reasons = skipped_reasons(tmp_path / "tool-skill")
    assert any("hard links" in r for r in reasons), reasons
    assert target.read_bytes() == other.read_bytes() == SCRIPT
    assert os.stat(target).st_ino == os.stat(other).st_ino


def test_read_only_file_is_not_written(tmp_path):
    target = make_skill(tmp_path)
    target.chmod(0o444)
    reasons = skipped_reasons(tmp_path / "tool-skill")
    assert any("read-only" in r for r in reasons), reasons
    assert target.read_bytes() == SCRIPT
    assert (os.stat(target).st_mode & 0o777) == 0o444


def test_fix_keeps_extended_attributes(tmp_path):
    target = make_skill(tmp_path)
    try:
        os.setxattr(target, "user.origin", b"downloaded")
    except OSError as exc:
        pytest.skip(f"this file system has no user extended attributes: {exc}")
    run_cli("fix", str(tmp_path))
    assert target.read_bytes() != SCRIPT
    assert os.getxattr(target, "user.origin") == b"downloaded"


# -- kills ------------------------------------------------------------------------------------

STALE = ".tool.sh.skillsmith-abcd1234.tmp"


def test_next_run_removes_stale_temp_files_of_our_naming_only(tmp_path):
    target = make_skill(tmp_path)
    folder = target.parent
    old = time.time() - 60
    for name in (STALE, ".tool.sh.abcd1234.tmp", "notes.skillsmith-abcd1234.tmp"):
        (folder / name).write_bytes(b"half")
        os.utime(folder / name, (old, old))
    os.symlink("/etc/hostname", folder / ".x.sh.skillsmith-zzzz9999.tmp")
    run_cli("fix", str(tmp_path))
    assert sorted(os.listdir(folder)) == sorted([".tool.sh.abcd1234.tmp", "notes.skillsmith-abcd1234.tmp",
                                                 ".x.sh.skillsmith-zzzz9999.tmp", "tool.sh"])


def _scripts(n: int) -> dict[str, bytes]:
    rng = random.Random(17)
    out = {}
    for i in range(n):
        body = "".join(f'echo "step {j} $1"\n' for j in range(rng.randint(1, 4)))
        out[f"t{i:03d}.sh"] = body.encode()
    return out


def _temp_files(root: Path) -> list[str]:
    return sorted(str(p) for p in root.rglob("*.tmp"))


def test_sigkill_at_random_moments_leaves_each_file_old_or_new_and_no_temp_files(tmp_path):
    originals = _scripts(200)
    skill = tmp_path / "many" / "bulk-skill"
    (skill / "scripts").mkdir(parents=True)
    (skill / "SKILL.md").write_text(SKILL_MD.format(name="bulk-skill").replace("scripts/tool.sh", "scripts/t000.sh"))
    for name, data in originals.items():
        (skill / "scripts" / name).write_bytes(data)
    reference = tmp_path / "reference"
    shutil.copytree(tmp_path / "many", reference)
    env = dict(os.environ, SKILLSMITH_CACHE_DIR=str(tmp_path / "cache"))
    command = [sys.executable, "-m", "skillsmith", "fix"]
    started = time.monotonic()
    subprocess.run([*command, str(reference)], env=env, capture_output=True, timeout=120)
    full = time.monotonic() - started
    fixed = {name: (reference / "bulk-skill" / "scripts" / name).read_bytes() for name in originals}
    assert all(fixed[n] != originals[n] for n in originals)
    rng = random.Random(1717)
    kills = 0
    deadline = time.monotonic() + max(18, 10 * full)  # a loaded machine runs each fix longer: as many tries
    while time.monotonic() < deadline and kills < 25:
        proc = subprocess.Popen([*command, str(tmp_path / "many")], env=env, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, start_new_session=True)
        time.sleep(rng.uniform(0, full))
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            kills += 1
        proc.wait()
        for name in originals:
            now = (skill / "scripts" / name).read_bytes()
            assert now in (originals[name], fixed[name]), name
        if all((skill / "scripts" / n).read_bytes() == fixed[n] for n in originals):
            for name, data in originals.items():  # start again from the originals
                path = skill / "scripts" / name
                path.write_bytes(data)
                path.chmod(0o644)
    subprocess.run([*command, str(tmp_path / "many")], env=env, capture_output=True, timeout=120)
    assert _temp_files(tmp_path / "many") == []
    assert {n: (skill / "scripts" / n).read_bytes() for n in originals} == fixed
    assert kills >= 5, (kills, full)
