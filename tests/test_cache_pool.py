"""The results cache (by content hash and rule set) and the process pool."""

from __future__ import annotations

import json
import os
import time
from contextlib import closing

from conftest import Run, run_cli, write_tree

ANGLE = "---\nname: {name}\ndescription: Converts <file> to tables. Use when asked.\n---\n# {name}\n"


class Entry:
    """One stored result in the cache's store (``results.sqlite3``): its key, its JSON text read and rewritten."""

    def __init__(self, store, key: str) -> None:
        self.store, self.key = store, key

    def _db(self):
        import sqlite3

        return sqlite3.connect(self.store, isolation_level=None)

    def read_text(self) -> str:
        with closing(self._db()) as db:
            return db.execute("SELECT value FROM entries WHERE key = ?", (self.key,)).fetchone()[0]

    def write_text(self, text: str) -> None:
        with closing(self._db()) as db:
            db.execute("UPDATE entries SET value = ? WHERE key = ?", (text, self.key))

    def __eq__(self, other) -> bool:
        return isinstance(other, Entry) and other.key == self.key

    def __lt__(self, other) -> bool:
        return self.key < other.key

    __hash__ = None


def cache_entries(cache):
    """The entries of the cache folder's one store."""
    import sqlite3

    store = cache / "results.sqlite3"
    if not store.exists():
        return []
    with closing(sqlite3.connect(store)) as db:
        return sorted(Entry(store, key) for (key,) in db.execute("SELECT key FROM entries"))


def plant(entries, message):
    """Rewrite cached results: a run that reports *message* read the cache, not the files."""
    for entry in entries:
        doc = json.loads(entry.read_text())
        for f in doc.get("findings", ()):  # (the skills found below a path hold none)
            if isinstance(f, list):  # a whole run's row: Finding's fields in order
                f[4] = message
            else:
                f["message"] = message
        entry.write_text(json.dumps(doc))


def messages(run):
    return {f["message"] for f in run.json()["data"]}


def two_skills(tmp_path):
    """Two skills below tmp_path/skills with one finding each; the cache folder and the environment naming it."""
    cache = tmp_path / "cache"
    for name in ("one", "two"):
        write_tree(tmp_path / "skills" / name, {"SKILL.md": ANGLE.format(name=name)})
    return cache, {"SKILLSMITH_CACHE_DIR": str(cache)}


def test_second_run_comes_from_the_cache_and_a_change_invalidates_it(tmp_path):
    cache, env = two_skills(tmp_path)
    time.sleep(0.25)  # past the clock granularity: files this fresh get no metadata or walk key (snapshot.racy)
    first = run_cli("check", str(tmp_path / "skills"), "--json", env=env)
    assert first.code == 10
    entries = cache_entries(cache)
    # per skill: one by file metadata, one by content, one by the whole-run walk; one for the whole run;
    # one for the skills found below the path (by the tree's layout)
    assert len(entries) == 8

    plant(entries, "from the cache")
    second = run_cli("check", str(tmp_path / "skills"), "--json", env=env)
    assert messages(second) == {"from the cache"}
    assert cache_entries(cache) == entries
    strip = lambda run: [{k: v for k, v in f.items() if k != "message"} for f in run.json()["data"]]  # noqa: E731
    assert strip(second) == strip(first)

    # --no-cache ignores it
    fresh = run_cli("check", str(tmp_path / "skills"), "--json", "--no-cache", env=env)
    assert fresh.json() == first.json()

    # a touched file (same bytes, new mtime) misses the metadata key and hits the content key
    # (an mtime in the past: one in the future, or too close to now, is not keyed on at all)
    skill_md = tmp_path / "skills" / "one" / "SKILL.md"
    os.utime(skill_md, ns=(skill_md.stat().st_atime_ns, skill_md.stat().st_mtime_ns - 10 * 10**9))
    time.sleep(0.25)  # the change time is now: past its granularity too
    touched = run_cli("check", str(tmp_path / "skills"), "--json", env=env)
    assert messages(touched) == {"from the cache"}
    assert len(cache_entries(cache)) == 11  # new metadata and walk keys for "one", a new whole-run key (same layout)

    # changing any file of a skill invalidates both of its entries
    for name in ("one", "two"):
        (tmp_path / "skills" / name / "SKILL.md").write_text(ANGLE.format(name=name) + "\nMore.\n")
    time.sleep(0.25)  # past the clock granularity: files this fresh get no metadata or walk key (snapshot.racy)
    third = run_cli("check", str(tmp_path / "skills"), "--json", env=env)
    assert "from the cache" not in messages(third)
    assert third.json() == first.json()
    assert len(cache_entries(cache)) == 18

    # a new file anywhere below the path misses the whole-run key; unchanged skills still hit theirs
    plant(cache_entries(cache), "from the cache")
    write_tree(tmp_path / "skills" / "three", {"SKILL.md": ANGLE.format(name="three")})
    fourth = run_cli("check", str(tmp_path / "skills"), "--json", env=env)
    by_path = {f["path"].split("/")[-2]: f["message"] for f in fourth.json()["data"]}
    assert by_path["one"] == by_path["two"] == "from the cache"
    assert by_path["three"] != "from the cache"


def test_a_copy_of_the_tree_at_another_path_hits_and_an_edit_rechecks_only_its_unit(tmp_path):
    """The content key holds a unit's path below the checked folder, not its absolute path (a CI checkout hits)."""
    import shutil

    cache, env = two_skills(tmp_path)
    first = run_cli("check", str(tmp_path / "skills"), "--json", env=env)
    plant(cache_entries(cache), "from the cache")
    shutil.copytree(tmp_path / "skills", tmp_path / "checkout" / "skills")
    copy = run_cli("check", str(tmp_path / "checkout" / "skills"), "--json", env=env)
    assert messages(copy) == {"from the cache"}
    assert [f["path"] for f in copy.json()["data"]] == [
        f["path"].replace(str(tmp_path / "skills"), str(tmp_path / "checkout" / "skills")) for f in first.json()["data"]]
    assert all(f["path"].startswith(str(tmp_path / "checkout" / "skills")) for f in copy.json()["data"])

    one = tmp_path / "checkout" / "skills" / "one" / "SKILL.md"
    one.write_text(one.read_text() + "\nMore.\n")
    edited = run_cli("check", str(tmp_path / "checkout" / "skills"), "--json", env=env)
    by_skill = {f["path"].split("/")[-2]: f["message"] for f in edited.json()["data"]}
    assert by_skill["two"] == "from the cache"
    assert by_skill["one"] != "from the cache"


def test_weird_names_are_cached(tmp_path):
    env = {"SKILLSMITH_CACHE_DIR": str(tmp_path / "cache")}
    folder = os.fsencode(str(tmp_path)) + b"/sk\xffill"
    os.mkdir(folder)
    with open(folder + b"/SKILL.md", "wb") as fh:
        fh.write(ANGLE.format(name="skill").encode())
    with open(folder + b"/n\xe9\nw.md", "wb") as fh:
        fh.write(b"# x\n")
    runs = [run_cli("check", str(tmp_path), "--json", env=env) for _ in range(2)]
    assert all("Traceback" not in r.stderr and r.code == 10 for r in runs), runs[0].stderr
    assert runs[0].json() == runs[1].json()
    assert len(cache_entries(tmp_path / "cache")) == 5  # the skill's metadata, content and walk keys; the run's; the layout's


def test_options_are_part_of_the_key(tmp_path):
    cache = tmp_path / "cache"
    env = {"SKILLSMITH_CACHE_DIR": str(cache)}
    write_tree(tmp_path / "angle", {"SKILL.md": ANGLE.format(name="angle")})
    assert run_cli("check", str(tmp_path / "angle"), "--json", env=env).json()["meta"]["count"] == 1
    assert run_cli("check", str(tmp_path / "angle"), "--json", "--ignore", "SPC011", env=env).json()["meta"]["count"] == 0
    assert run_cli("check", str(tmp_path / "angle"), "--json", env=env).json()["meta"]["count"] == 1


def test_damaged_cache_is_a_miss(tmp_path):
    cache = tmp_path / "cache"
    env = {"SKILLSMITH_CACHE_DIR": str(cache)}
    write_tree(tmp_path / "angle", {"SKILL.md": ANGLE.format(name="angle")})
    first = run_cli("check", str(tmp_path / "angle"), "--json", env=env)
    for entry in cache_entries(cache):
        entry.write_text("{not json")
    second = run_cli("check", str(tmp_path / "angle"), "--json", env=env)
    assert second.json() == first.json()
    assert "Traceback" not in second.stderr
    (cache / "results.sqlite3").write_bytes(b"not a database" * 100)  # the store itself damaged
    for _ in range(2):
        third = run_cli("check", str(tmp_path / "angle"), "--json", env=env)
        assert third.json() == first.json() and "Traceback" not in third.stderr, third.stderr


def test_pool_gives_the_same_findings_as_one_job(tmp_path):
    files = {}
    for i in range(40):
        name = f"skill-{i:02d}"
        if i % 3 == 0:
            files[f"{name}/SKILL.md"] = ANGLE.format(name=name)
        elif i % 3 == 1:
            files[f"{name}/SKILL.md"] = f"---\nname: {name}\ndescription: caf\xe9\n---\n".encode("latin-1")
        else:
            files[f"{name}/SKILL.md"] = f"---\nname: Wrong_{i}\ndescription: Fine. Use when fine.\n---\n"
            files[f"{name}/references/guide.md"] = "# Guide\n\x00"
    write_tree(tmp_path / "many", files)
    one = run_cli("check", str(tmp_path / "many"), "--json", "--no-cache", "--jobs", "1")
    pool = run_cli("check", str(tmp_path / "many"), "--json", "--no-cache", "--jobs", "2")
    assert one.code == pool.code == 10
    assert pool.json() == one.json()
    assert pool.json()["meta"]["units"] == 40
    assert {f["rule"] for f in one.json()["data"]} >= {"SPC011", "FIL003", "FIL004", "SPC007"}
    # the pool's results fill the cache, and a cached run agrees too
    env = {"SKILLSMITH_CACHE_DIR": str(tmp_path / "cache")}
    cold = run_cli("check", str(tmp_path / "many"), "--json", "--jobs", "2", env=env)
    warm = run_cli("check", str(tmp_path / "many"), "--json", "--jobs", "2", env=env)
    assert cold.json() == warm.json() == one.json()


def test_bash_syntax_is_shared_across_units_with_the_same_verdicts(tmp_path):
    """One `bash -n` serves many skills; a rejected batch is split until each verdict is exact."""
    from skillsmith.api import Options, check_result

    good = "#!/usr/bin/env bash\nset -uo pipefail\necho ok\n"
    bad = "#!/usr/bin/env bash\nset -uo pipefail\nif true; then\nfi\n"  # tree-sitter accepts it, bash does not
    roots = []
    for i in range(30):
        name = f"sh-{i:02d}"
        roots.append(write_tree(tmp_path / name, {
            "SKILL.md": f"---\nname: {name}\ndescription: Shell. Use when shell.\n---\nRun `scripts/run.sh x`.\n",
            "scripts/run.sh": bad if i in (3, 17, 18) else good,
        }))
    options = Options(select=["SHL002"], use_cache=False, jobs=1)
    together = check_result([str(tmp_path)], options).findings
    alone = [f for root in roots for f in check_result([str(root)], options).findings]
    assert sorted(together) == sorted(alone)
    assert [(f.path.split("/")[-3], f.line) for f in together] == [("sh-03", 4), ("sh-17", 4), ("sh-18", 4)]


def test_whole_run_key_covers_the_skill_a_skill_md_path_names(tmp_path):
    """`check skill/SKILL.md` checks the whole skill, so a changed script must miss the whole-run key."""
    env = {"SKILLSMITH_CACHE_DIR": str(tmp_path / "cache")}
    skill = write_tree(tmp_path / "angle", {"SKILL.md": ANGLE.format(name="angle"), "notes.md": "# Notes\n"})
    assert run_cli("check", str(skill / "SKILL.md"), "--json", env=env).json()["meta"]["count"] == 1
    (skill / "notes.md").write_bytes(b"# Notes\n\x00")  # a NUL byte in a text file is a finding
    again = run_cli("check", str(skill / "SKILL.md"), "--json", env=env)
    assert [f["path"].split("/")[-1] for f in again.json()["data"]] == ["SKILL.md", "notes.md"], again.stdout


def test_whole_run_key_follows_a_linked_path_as_the_check_does(tmp_path):
    """A path given as a link to a skill is checked through the link; its contents are part of the key."""
    env = {"SKILLSMITH_CACHE_DIR": str(tmp_path / "cache")}
    skill = write_tree(tmp_path / "real" / "angle", {"SKILL.md": ANGLE.format(name="angle"), "notes.md": "# Notes\n"})
    (tmp_path / "angle").symlink_to(skill)
    assert run_cli("check", str(tmp_path / "angle"), "--json", env=env).json()["meta"]["count"] == 1
    (skill / "notes.md").write_bytes(b"# Notes\n\x00")
    again = run_cli("check", str(tmp_path / "angle"), "--json", env=env)
    assert [f["path"].split("/")[-1] for f in again.json()["data"]] == ["SKILL.md", "notes.md"], again.stdout


ECHO = "---\nname: {name}\ndescription: Runs a command. Use when asked to.\n---\nRun `scripts/run.sh ls`.\n"


def sec003(run):
    return [f["path"].split("/")[-3] for f in run.json()["data"] if f["rule"] == "SEC003"]


def test_a_same_size_rewrite_with_the_old_mtime_is_checked_again(tmp_path):
    """(size, mtime, inode) missed a rewrite within one mtime tick: `eval "$1"` was answered from the cache."""
    env = {"SKILLSMITH_CACHE_DIR": str(tmp_path / "cache")}
    skill = write_tree(tmp_path / "skills" / "one", {"SKILL.md": ECHO.format(name="one"),
                                                     "scripts/run.sh": '#!/bin/sh\necho "$1"\n'})
    script = skill / "scripts" / "run.sh"
    assert sec003(run_cli("check", str(tmp_path / "skills"), "--json", env=env)) == []
    st = script.stat()
    script.write_text('#!/bin/sh\neval "$1"\n')  # same size, same inode
    os.utime(script, ns=(st.st_atime_ns, st.st_mtime_ns))  # same mtime (a coarse clock, or touch -r)
    assert (script.stat().st_size, script.stat().st_mtime_ns, script.stat().st_ino) == (st.st_size, st.st_mtime_ns, st.st_ino)
    assert sec003(run_cli("check", str(tmp_path / "skills"), "--json", env=env)) == ["one"]


def test_a_tree_replaced_by_a_same_shaped_copy_is_checked_again(tmp_path):
    """A copy with fixed timestamps (touch -r, reproducible archives) got the old tree's answer: ext4 hands
    the new files the inode numbers the old ones just freed."""
    import shutil

    env = {"SKILLSMITH_CACHE_DIR": str(tmp_path / "cache")}
    tree = tmp_path / "skills"

    def make(script_two: str) -> None:
        for name in ("one", "two"):
            write_tree(tree / name, {"SKILL.md": ECHO.format(name=name),
                                     "scripts/run.sh": script_two if name == "two" else '#!/bin/sh\necho "$1"\n'})

    make('#!/bin/sh\necho "$1"\n')
    stamps = {p.relative_to(tree): p.stat().st_mtime_ns for p in sorted(tree.rglob("*"))}
    assert sec003(run_cli("check", str(tree), "--json", env=env)) == []
    shutil.rmtree(tree)
    make('#!/bin/sh\neval "$1"\n')  # the same shape: same names, sizes and (below) timestamps
    for rel, mtime in stamps.items():
        os.utime(tree / rel, ns=(mtime, mtime))
    assert sec003(run_cli("check", str(tree), "--json", env=env)) == ["two"]


def test_a_file_stamped_within_the_clock_granularity_is_not_keyed_by_metadata(tmp_path):
    """git's racy-clean rule: a timestamp on a whole second near now (FAT, HFS+, ext3) may hide the next write."""
    import time

    cache = tmp_path / "cache"
    env = {"SKILLSMITH_CACHE_DIR": str(cache)}
    skill = write_tree(tmp_path / "one", {"SKILL.md": ECHO.format(name="one"), "scripts/run.sh": '#!/bin/sh\necho "$1"\n'})
    script = skill / "scripts" / "run.sh"
    second = (int(time.time()) + 1) * 10**9  # this second's tick, as a coarse file system stamps it
    os.utime(script, ns=(second, second))
    assert sec003(run_cli("check", str(skill), "--json", env=env)) == []
    # by content only: no metadata key for the unit, none for the run; the skills found below it (by
    # names and modes, which a write that keeps the stamp does not change)
    assert len(cache_entries(cache)) == 2
    script.write_text('#!/bin/sh\neval "$1"\n')
    os.utime(script, ns=(second, second))
    assert sec003(run_cli("check", str(skill), "--json", env=env)) == ["one"]


def test_cache_entries_of_the_wrong_shape_are_a_miss(tmp_path):
    cache, env = two_skills(tmp_path)
    first = run_cli("check", str(tmp_path / "skills"), "--json", env=env)
    for shape in ("[]", "{}", '{"findings": [1], "notes": [], "errors": 0, "units": 1, "tools": [], "tool_state": []}',
                  '{"findings": [], "notes": "x", "errors": 0}', '{"skills": [3], "unlisted": {}}',
                  '{"findings": [["x", 1]], "notes": [], "errors": 0, "units": 1, "tools": [], "tool_state": []}'):
        for entry in cache_entries(cache):
            entry.write_text(shape)
        again = run_cli("check", str(tmp_path / "skills"), "--json", env=env)
        assert again.code == 10 and "Traceback" not in again.stderr and "internal error" not in again.stderr, again.stderr
        assert again.json() == first.json()


def _children(pid: int) -> list[int]:
    found = []
    for stat in os.listdir("/proc"):
        if stat.isdigit():
            try:
                with open(f"/proc/{stat}/stat") as fh:
                    fields = fh.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(stat))
    return found


def test_a_killed_pool_worker_does_not_end_the_run(tmp_path):
    """A worker killed during `check` (the OOM killer, a user) ended the run with BrokenProcessPool, exit 1."""
    import signal
    import subprocess
    import sys
    import time

    if not os.path.isdir("/proc/self"):
        import pytest

        pytest.skip("needs /proc to find the worker processes")
    body = "".join(f"Step {i}: see `scripts/run.sh --step {i}`.\n" for i in range(40))
    for i in range(150):
        write_tree(tmp_path / "many" / f"s{i:03d}", {
            "SKILL.md": ANGLE.format(name=f"s{i:03d}") + body, "scripts/run.sh": '#!/bin/sh\neval "$1"\n' * 50})
    one = run_cli("check", str(tmp_path / "many"), "--json", "--no-cache", "--jobs", "1")
    proc = subprocess.Popen([sys.executable, "-m", "skillsmith", "check", str(tmp_path / "many"), "--json", "--no-cache",
                             "--jobs", "2"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
    killed = None
    deadline = time.monotonic() + 60
    while killed is None and proc.poll() is None and time.monotonic() < deadline:
        workers = _children(proc.pid)
        if workers:
            killed = workers[0]
            os.kill(killed, signal.SIGKILL)
    out, err = proc.communicate(timeout=300)
    if killed is None:
        import pytest

        pytest.skip("the run ended before a worker could be killed")
    assert proc.returncode == 10, err.decode()
    assert "internal error" not in err.decode() and "BrokenProcessPool" not in err.decode()
    assert json.loads(out) == one.json()


def test_after_an_edit_the_main_process_answers_the_unchanged_units_and_starts_no_pool(tmp_path):
    """Every unit went to the worker pool to be looked up in the cache one query at a time: after an
    edit of one file, the main process answers the others (one query per batch) and checks the one."""
    import subprocess
    import sys

    cache = tmp_path / "cache"
    env = {"SKILLSMITH_CACHE_DIR": str(cache)}
    for i in range(40):  # more than the pool's threshold
        write_tree(tmp_path / "skills" / f"s{i:02d}", {"SKILL.md": ANGLE.format(name=f"s{i:02d}")})
    time.sleep(0.25)  # past the clock granularity: files this fresh get no metadata or walk key (snapshot.racy)
    first = run_cli("check", str(tmp_path / "skills"), "--json", "--jobs", "2", env=env)
    assert first.code == 10
    plant(cache_entries(cache), "from the cache")
    edited = tmp_path / "skills" / "s07" / "SKILL.md"
    edited.write_text(edited.read_text() + "\nMore.\n")
    proc = subprocess.run([sys.executable, "-X", "importtime", "-m", "skillsmith", "check", str(tmp_path / "skills"),
                           "--json", "--jobs", "2"], env={**os.environ, **env}, capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=120)
    again = Run(proc.returncode, proc.stdout, proc.stderr)
    assert again.code == 10, again.stderr
    by_skill = {f["path"].split("/")[-2]: f["message"] for f in again.json()["data"]}
    assert by_skill.pop("s07") != "from the cache"
    assert set(by_skill.values()) == {"from the cache"} and len(by_skill) == 39
    assert "concurrent.futures.process" not in again.stderr  # no worker pool was started
    fresh = run_cli("check", str(tmp_path / "skills"), "--json", "--no-cache", "--jobs", "2", env=env)
    assert [f for f in fresh.json()["data"] if "/s07/" in f["path"]] == [
        f for f in again.json()["data"] if "/s07/" in f["path"]]


def test_an_edit_in_a_nested_skill_or_around_it_rechecks_that_skill(tmp_path):
    """A skill inside another is its own unit: the walk that keys the skills must not count its
    files as the outer skill's, nor the outer skill's as its own."""
    cache = tmp_path / "cache"
    env = {"SKILLSMITH_CACHE_DIR": str(cache)}
    write_tree(tmp_path / "skills" / "outer", {"SKILL.md": ANGLE.format(name="outer")})
    write_tree(tmp_path / "skills" / "outer" / "parts" / "inner", {"SKILL.md": ANGLE.format(name="inner")})
    write_tree(tmp_path / "skills" / "plain", {"SKILL.md": ANGLE.format(name="plain")})
    first = run_cli("check", str(tmp_path / "skills"), "--json", env=env)
    assert {f["path"].split("/")[-2] for f in first.json()["data"]} == {"outer", "inner", "plain"}
    for edited, rechecked in (("outer/parts/inner/SKILL.md", "inner"), ("outer/SKILL.md", "outer")):
        plant(cache_entries(cache), "from the cache")
        path = tmp_path / "skills" / edited
        path.write_text(path.read_text() + "\nMore.\n")
        again = run_cli("check", str(tmp_path / "skills"), "--json", env=env)
        by_skill = {f["path"].split("/")[-2]: f["message"] for f in again.json()["data"]}
        assert by_skill.pop(rechecked) != "from the cache", edited
        assert set(by_skill.values()) == {"from the cache"}, edited
