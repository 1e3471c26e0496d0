"""What `fix` writes into Python scripts is true: every field comes from the script or its skill.

``tests/fixtures/truth/`` is one skill: ``SKILL.md`` (with worked invocations of some scripts),
``assets/`` (the files those invocations use) and the scripts, each ``<case>.py`` written for the
tests with a known usage. After one safe ``fix`` of the skill:

* ``scripts/<case>.py`` equals ``<case>.fixed.py`` byte for byte (every field the fix writes is
  compared with the expected text);
* the findings that remain for it are exactly ``<case>.txt`` (pylint's functional tests: line,
  column, rule, message): where nothing says what a field should hold, the fix writes nothing
  and the finding says what a person must add;
* every example the fix wrote (docstring ``Examples:``, epilog ``examples:``) runs, from the
  skill's folder, exits 0 and reports none of its own arguments as missing.
"""

from __future__ import annotations

import ast
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import FIXTURES, WITH_CON014, run_cli

from skillsmith.lang.header import HEAD_LINES, python_header

CASES = FIXTURES / "truth"
NAMES = sorted(p.stem for p in CASES.glob("*.py") if not p.name.endswith(".fixed.py"))


@pytest.fixture(scope="module")
def fixed_skill(tmp_path_factory):
    """The truth skill copied (scripts mode 644, a git work tree) and fixed once; with the findings before and after."""
    root = tmp_path_factory.mktemp("truth") / "truth"
    (root / "scripts").mkdir(parents=True)
    shutil.copy(CASES / "SKILL.md", root / "SKILL.md")
    shutil.copytree(CASES / "assets", root / "assets")
    for name in NAMES:
        target = root / "scripts" / f"{name}.py"
        shutil.copyfile(CASES / f"{name}.py", target)
        target.chmod(0o644)
    # exit_codes_section.py prints the branch of the work tree it runs in
    subprocess.run(["git", "init", "-q", "-b", "main", str(root)], check=True)
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "--allow-empty",
                    "-m", "start"], cwd=root, check=True)
    before = run_cli("check", ".", "--json", "--no-cache", *WITH_CON014, cwd=root).json()["data"]
    first = run_cli("fix", ".", "--json", *WITH_CON014, cwd=root)
    second = run_cli("fix", ".", "--check", *WITH_CON014, cwd=root)
    after = run_cli("check", ".", "--json", "--no-cache", *WITH_CON014, cwd=root).json()["data"]
    return root, first, second, before, after


def test_the_cases_are_there():
    assert len(NAMES) >= 20
    for name in NAMES:
        assert (CASES / f"{name}.fixed.py").exists() and (CASES / f"{name}.txt").exists(), name


@pytest.mark.parametrize("name", NAMES)
def test_every_written_field_is_the_expected_text(fixed_skill, name):
    root, first, _, _, _ = fixed_skill
    assert first.code in (0, 10), first.stderr
    got = (root / "scripts" / f"{name}.py").read_text()
    assert got == (CASES / f"{name}.fixed.py").read_text()


@pytest.mark.parametrize("name", NAMES)
def test_what_remains_is_what_a_person_must_add(fixed_skill, name):
    root, _, _, _, after = fixed_skill
    rel = f"scripts/{name}.py"
    got = [f"{f['line']}:{f['column']}: {f['rule']} {f['message']}\n" for f in after if f["path"] == rel]
    assert "".join(got) == (CASES / f"{name}.txt").read_text()


def test_a_second_fix_changes_nothing(fixed_skill):
    _, _, second, _, _ = fixed_skill
    assert second.code == 0, second.stderr
    assert "would fix 0 files" in second.stderr


#: a header finding the fix narrows: no header at all (CON004) becomes the fields still missing
NARROWED = {"CON004": {"CON005", "CON006", "CON007"}}


def test_the_fix_creates_no_finding(fixed_skill):
    _, _, _, before, after = fixed_skill
    had = {(f["path"], f["rule"]) for f in before}
    had |= {(path, narrower) for path, rule in set(had) for narrower in NARROWED.get(rule, ())}
    assert [f for f in after if (f["path"], f["rule"]) not in had] == []
    assert not any(f["rule"] == "CON008" for f in after)  # every field within the first 25 lines


def _docstring(root: Path, name: str):
    text = (root / "scripts" / f"{name}.py").read_text()
    module = ast.parse(text)
    return python_header(ast.get_docstring(module, clean=False), module.body[0].lineno), module


def _examples(root: Path) -> list[tuple[str, str]]:
    """(case, example) for every example a fixed script shows: the docstring's and the epilog's."""
    found = []
    for name in NAMES:
        header, module = _docstring(root, name)
        examples = list(header.examples) if header else []
        for node in ast.walk(module):
            if isinstance(node, ast.keyword) and node.arg == "epilog":
                text = ast.literal_eval(node.value) if isinstance(node.value, (ast.Constant, ast.JoinedStr)) else ""
                lines = text.splitlines()
                if lines and lines[0] == "examples:":  # as argparse prints it
                    examples += [ln.strip().replace("%(prog)s", f"{name}.py") for ln in lines[1:] if ln.strip()]
        found += [(name, e) for e in dict.fromkeys(examples)]
    return found


def test_every_example_runs_from_the_skill_folder(fixed_skill):
    """Each example, run as written from the skill's folder: exit 0, and no argument of its own reported missing."""
    root = fixed_skill[0]
    examples = _examples(root)
    assert len(examples) >= 15
    assert {n for n, _ in examples} >= {"csv_stats", "notes_cli", "usage_print", "manual_args", "prog_epilog"}
    failures = []
    for name, example in examples:
        script = root / "scripts" / f"{name}.py"
        words = shlex.split(example.split("|")[0])  # the script's part: a pipe's consumer is not ours to run
        at = next(i for i, w in enumerate(words) if w.rsplit("/", 1)[-1] == f"{name}.py")
        argv = [sys.executable, str(script)] + words[at + 1:]
        env = {"PATH": os.environ["PATH"], "HOME": str(root), "LANG": "C.UTF-8", "NOTES_FILE": str(root / "notes.json")}
        proc = subprocess.run(argv, cwd=root, capture_output=True, text=True, timeout=30, env=env,
                              stdin=subprocess.DEVNULL)
        said = proc.stdout + proc.stderr
        missing = [a for a in words[at + 1:] if re.search(rf"{re.escape(a)}\S*: (no such file|not found)|"
                                                          rf"No such file or directory: '{re.escape(a)}'", said)]
        if proc.returncode != 0 or missing:
            failures.append(f"{example}: exit {proc.returncode}, missing {missing}\n{said}")
    assert failures == []


# -- the bugs, one by one (each failed on the fix that wrote invented text) -------------------------


def _fixed(root: Path, name: str) -> str:
    return (root / "scripts" / f"{name}.py").read_text()


def test_input_is_never_none_for_a_script_that_reads_sys_argv(fixed_skill):
    root = fixed_skill[0]
    for name in ("usage_print", "manual_args", "fenced_usage", "sectioned_docstring", "suppressed_exit"):
        header, _ = _docstring(root, name)
        assert header.fields["Input"].value.startswith("command-line arguments"), name


def test_usage_comes_from_the_scripts_own_usage_text(fixed_skill):
    header, _ = _docstring(fixed_skill[0], "usage_print")
    assert header.fields["Usage"].value == "usage_print.py FILE"  # the script prints "Usage: usage_print.py FILE"


def test_the_comment_that_says_what_the_script_does_is_its_description(fixed_skill):
    root = fixed_skill[0]
    for name, said in (("usage_print", "Count the words of a text file and print the total."),
                       ("comment_description", "Print today's date in ISO format.")):
        text = _fixed(root, name)
        header, _ = _docstring(root, name)
        assert header.description == said
        assert f"# {said}" not in text  # moved into the docstring, not repeated


def test_prog_placeholder_is_resolved(fixed_skill):
    text = _fixed(fixed_skill[0], "prog_epilog")
    header, _ = _docstring(fixed_skill[0], "prog_epilog")
    assert header.examples == ["prog_epilog.py 'f[io]' assets/notes.txt", "prog_epilog.py -i TWO assets/notes.txt"]
    assert text.count("%(prog)s") == 2  # only the author's epilog, which argparse expands


def test_examples_come_from_skill_md_and_only_the_ones_that_work(fixed_skill):
    header, _ = _docstring(fixed_skill[0], "csv_stats")
    assert header.examples == [
        "python3 scripts/csv_stats.py assets/prices.csv --column price",
        "python3 scripts/csv_stats.py assets/prices.csv --column price --json | jq .max",
    ]  # not "--col-name price" (argparse exits 2), not "<file.csv> --column NAME" (placeholders)


def test_no_help_example_for_a_script_without_help(fixed_skill):
    root = fixed_skill[0]
    for name in NAMES:
        text = _fixed(root, name)
        header, _ = _docstring(root, name)
        if header is None or not any(e.endswith("--help") for e in header.examples):
            continue
        proc = subprocess.run([sys.executable, str(root / "scripts" / f"{name}.py"), "--help"], capture_output=True,
                              text=True, timeout=30, stdin=subprocess.DEVNULL, cwd=root)
        assert proc.returncode == 0 and proc.stdout.strip(), (name, text)


def test_the_envelope_is_claimed_only_where_it_is_printed(fixed_skill):
    root = fixed_skill[0]
    claims = {n for n in NAMES if "JSON envelope" in _fixed(root, n)}
    assert claims == {"envelope"}
    assert _docstring(root, "json_flag")[0].fields["Output"].value == "results on stdout; JSON with --json"


def test_the_authors_exit_meanings_are_kept(fixed_skill):
    root = fixed_skill[0]
    text = _fixed(root, "exit_codes_section")
    assert "    2 = Not a git repo\n" in text and "sys.exit(2)" in text  # not renamed EXIT_USAGE
    header, _ = _docstring(root, "exit_codes_section")
    assert list(header.fields).count("Exit") == 1 and "Exit:" not in text  # no second Exit field
    suppressed = _fixed(root, "suppressed_exit")
    assert "Exit:    0 valid, 3 file not found, 4 not valid JSON, 1 error" in suppressed


def test_130_is_an_interrupt_not_a_domain_signal(fixed_skill):
    text = _fixed(fixed_skill[0], "interrupted")
    assert "EXIT_INTERRUPTED = 130" in text and "130 interrupted" in text
    assert "domain signal" not in text


def test_an_exit_code_nothing_explains_keeps_its_literal_and_its_finding(fixed_skill):
    root, _, _, _, after = fixed_skill
    assert "sys.exit(2)" in _fixed(root, "exit_codes_section")
    [finding] = [f for f in after if f["path"] == "scripts/exit_codes_section.py" and f["rule"] == "CON014"]
    assert "Not a git repo" in finding["message"]


def test_a_suppressed_line_is_left_alone(fixed_skill):
    text = _fixed(fixed_skill[0], "suppressed_exit")
    assert "        sys.exit(4)  # skillsmith: ignore[CON014]\n" in text
    assert "sys.exit(EXIT_NOT_FOUND)" in text


def test_a_complete_comment_header_gets_no_second_header(fixed_skill):
    root, _, _, _, after = fixed_skill
    text = _fixed(root, "comment_header")
    assert '"""' not in text and text.startswith((CASES / "comment_header.py").read_text().split("import sys")[0])
    assert any(f["rule"] == "CON004" and "comment block" in f["message"] for f in after
               if f["path"] == "scripts/comment_header.py")


def test_fields_go_in_at_a_paragraph_boundary_and_within_25_lines(fixed_skill):
    root = fixed_skill[0]
    for name in NAMES:
        header, _ = _docstring(root, name)
        if header is None:
            continue
        assert all(f.line <= HEAD_LINES for f in header.fields.values()), name
    sectioned = _fixed(root, "sectioned_docstring")
    assert "- nothing else\n\nInput:" in sectioned  # after the Output list, not inside it
    assert "```\n| name  | price |\n|-------|-------|\n| apple | 1.5   |\n```" in sectioned  # the code example untouched
    fenced = _fixed(root, "fenced_usage")
    assert "python3 fenced_usage.py notes.txt\n\npython3 fenced_usage.py a.tar.gz b\n```\n\nInput:" in fenced


def test_no_helper_that_nothing_calls(fixed_skill):
    root = fixed_skill[0]
    for name in NAMES:
        text = _fixed(root, name)
        for helper in ("emit_json", "emit_error"):
            assert (f"def {helper}(" in text) <= (text.count(f"{helper}(") > 1), (name, helper)


def test_imports_go_with_the_imports(fixed_skill):
    root = fixed_skill[0]
    text = _fixed(root, "comment_description")
    assert "import datetime\nimport sys\n" in text
    assert "\nimport sys\n" in _fixed(root, "pep723") and _fixed(root, "pep723").index("import sys") < \
        _fixed(root, "pep723").index("if len(sys.argv)")


def test_a_pep723_script_gets_its_runner_as_shebang(fixed_skill):
    text = _fixed(fixed_skill[0], "pep723")
    assert text.startswith("#!/usr/bin/env -S uv run --script\n# /// script\n")


def test_whole_commands_under_usage_are_the_examples(fixed_skill):
    """The author's Usage block of calls is their Examples: none added twice; --help shows the same calls."""
    root = fixed_skill[0]
    header, _ = _docstring(root, "usage_block")
    assert "Examples" not in header.fields
    assert header.usage_examples == ["python3 scripts/usage_block.py assets/notes.txt",
                                     "python3 scripts/usage_block.py assets/notes.txt --blank"]
    assert "examples:\\n\"\n            \"  python3 scripts/usage_block.py assets/notes.txt\\n" in _fixed(root, "usage_block")
    header, _ = _docstring(root, "sectioned_docstring")
    assert "Examples" not in header.fields and header.usage_examples


def test_a_docstring_that_is_the_help_gets_no_second_examples(fixed_skill):
    """description=__doc__: --help already ends with the docstring's Examples; only the formatter goes in."""
    root, _, _, before, after = fixed_skill
    text = _fixed(root, "doc_help")
    assert "epilog" not in text and "formatter_class=argparse.RawDescriptionHelpFormatter" in text
    rules = {f["rule"] for f in before if f["path"] == "scripts/doc_help.py"}
    assert "PYS002" not in rules and "PYS003" in rules


def test_no_formatter_for_a_parser_with_nothing_to_rewrap(fixed_skill):
    """A one-line description and no epilog: the default formatter changes nothing, so nothing is said or done."""
    root, _, _, before, _ = fixed_skill
    for name in ("envelope", "shared_parser", "usage_kw", "mentioned"):
        assert "formatter_class" not in _fixed(root, name), name
        assert not [f for f in before if f["path"] == f"scripts/{name}.py" and f["rule"] == "PYS003"], name


def test_a_path_named_in_a_list_is_not_an_example(fixed_skill):
    """``- `scripts/mentioned.py` — greets`` names the script; running it bare fails (exit 1): no example."""
    root, _, _, _, after = fixed_skill
    header, _ = _docstring(root, "mentioned")
    assert "Examples" not in header.fields and "scripts/mentioned.py" not in _fixed(root, "mentioned").split('"""')[1]
    assert any(f["rule"] == "CON006" and "Examples: a worked invocation" in f["message"]
               for f in after if f["path"] == "scripts/mentioned.py")
    header, _ = _docstring(root, "plain_parser")  # "Run `scripts/plain_parser.py` to list ...": a call
    assert header.examples == ["scripts/plain_parser.py"]


def test_no_example_only_asks_for_the_help(fixed_skill):
    root = fixed_skill[0]
    for name in NAMES:
        header, _ = _docstring(root, name)
        if header is not None:
            assert not [e for e in header.examples if e.split()[-1] in ("-h", "--help")], name


def test_a_pep723_script_without_dependencies_runs_under_python3(fixed_skill):
    assert _fixed(fixed_skill[0], "pep723_plain").startswith("#!/usr/bin/env python3\n# /// script\n")


def test_an_exit_the_author_explains_otherwise_keeps_its_number(fixed_skill):
    """``sys.exit(2)  # exit code 2 signals that a person must answer``: not argparse's usage error."""
    root, _, _, _, after = fixed_skill
    text = _fixed(root, "exit_comment")
    assert "sys.exit(2)  # exit code 2 signals" in text and "EXIT_USAGE" not in text
    assert "Exit:" not in text.split('"""')[1]  # "2 usage" would be false here
    assert any(f["rule"] == "CON014" for f in after if f["path"] == "scripts/exit_comment.py")


def test_the_formatter_is_named_as_the_parser_is(fixed_skill):
    """argparse imported inside main(): the formatter uses that name; no second, module-level import."""
    text = _fixed(fixed_skill[0], "local_import")
    assert "formatter_class=argparse.RawDescriptionHelpFormatter" in text
    assert text.count("import argparse") == 1


def test_output_says_when_the_script_writes_files(fixed_skill):
    """notes_cli stores its notes with open(STORE, "w"): stdout is not all it makes."""
    header, _ = _docstring(fixed_skill[0], "notes_cli")
    assert header.fields["Output"].value == "results on stdout; writes files"
    header, _ = _docstring(fixed_skill[0], "csv_stats")
    assert "writes files" not in header.fields["Output"].value


def test_a_shim_that_runs_another_modules_main_gets_no_invented_contract(fixed_skill):
    """``from notes_tool.cli import main; raise SystemExit(main())``: its arguments, output, exit codes and
    --help are the package's. No "Input: none", no "Exit: 0 ok", no help branch that would hide the real help."""
    root, _, _, _, after = fixed_skill
    assert _fixed(root, "shim") == (CASES / "shim.py").read_text()
    left = {f["rule"] for f in after if f["path"] == "scripts/shim.py"}
    assert {"CON006", "CON009"} <= left
