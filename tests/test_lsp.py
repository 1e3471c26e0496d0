"""``skillsmith lsp`` end to end: a real LSP client (pytest-lsp) talks to the server over stdio."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Union

import pytest
from conftest import EXAMPLE, run_cli

pytest_lsp = pytest.importorskip("pytest_lsp")
from lsprotocol import types  # noqa: E402
from pygls.protocol import default_converter  # noqa: E402
from pygls.uris import from_fs_path  # noqa: E402
from pygls.workspace import TextDocument  # noqa: E402
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities  # noqa: E402
from pytest_lsp.client import register_lsp_features  # noqa: E402


def converter():
    """pygls' converter, reading a code action that runs a command as a CodeAction.

    lsprotocol takes every code action result with a "command" key for a Command; a Command's
    "command" is a string, a CodeAction's is an object (a Command to run after its edit).
    """
    found = default_converter()

    def code_action(obj, _):
        return found.structure(obj, types.Command if isinstance(obj.get("command"), str) else types.CodeAction)

    found.register_structure_hook(Union[types.Command, types.CodeAction], code_action)
    return found


def make_client() -> LanguageClient:
    client = LanguageClient(converter_factory=converter)
    register_lsp_features(client)
    return client


SERVER = ClientServerConfig(server_command=[sys.executable, "-m", "skillsmith", "lsp"], client_factory=make_client)


@pytest_lsp.fixture(config=SERVER)
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(types.InitializeParams(capabilities=client_capabilities("neovim")))
    yield
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=SERVER)
async def vscode(lsp_client: LanguageClient):
    """A client that takes versioned edits (``workspaceEdit.documentChanges``), as VS Code does."""
    await lsp_client.initialize_session(types.InitializeParams(capabilities=client_capabilities("visual-studio-code")))
    yield
    await lsp_client.shutdown_session()


@pytest.fixture
def skill(tmp_path) -> Path:
    """A clean skill (the documented example) in a temporary folder."""
    return Path(shutil.copytree(EXAMPLE, tmp_path / "table-formatter"))


@pytest_lsp.fixture(config=SERVER)
async def in_skill(lsp_client: LanguageClient, skill):
    """A client whose workspace is the skill folder (a repository of its own in the test below)."""
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=client_capabilities("neovim"), root_uri=uri_of(skill)))
    yield
    await lsp_client.shutdown_session()


def uri_of(path: Path) -> str:
    return from_fs_path(str(path))


def open_doc(client: LanguageClient, path: Path, text: str | None = None, language: str = "markdown") -> str:
    uri = uri_of(path)
    text = path.read_text() if text is None else text
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id=language, version=1, text=text)))
    return uri


def change_doc(client: LanguageClient, uri: str, version: int, text: str) -> None:
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))


async def diagnostics_when(client: LanguageClient, uri: str, ready, timeout: float = 60) -> list[types.Diagnostic]:
    """The diagnostics last published for *uri*, once ``ready(diagnostics)`` holds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        found = client.diagnostics.get(uri)
        if found is not None and ready(list(found)):
            return list(found)
        await asyncio.sleep(0.05)
    raise AssertionError(f"no diagnostics as expected for {uri}; last: {client.diagnostics.get(uri)}")


async def code_actions(client: LanguageClient, uri: str, span: types.Range, diagnostics, only=None) -> list:
    return await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), range=span,
        context=types.CodeActionContext(diagnostics=list(diagnostics), only=only)))


def codes(diagnostics) -> set[str]:
    return {d.code for d in diagnostics}


def applied(text: str, uri: str, edit: types.WorkspaceEdit) -> str:
    """*text* with the edits *edit* makes to *uri*, applied by pygls' own document model."""
    if edit.document_changes:
        edits = [e for change in edit.document_changes if change.text_document.uri == uri for e in change.edits]
    else:
        edits = list(edit.changes[uri])
    doc = TextDocument(uri, text)
    for e in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        doc.apply_change(types.TextDocumentContentChangePartial(range=e.range, text=e.new_text))
    return doc.source


def check_codes(path: Path, *args: str) -> set[str]:
    r = run_cli("check", str(path), "--json", "--no-cache", *args)
    assert r.code in (0, 10), r.stderr
    return {f["rule"] for f in r.json()["data"]}


FRONTMATTER_TYPO = """\
---
name: table-formatter
descripton: Turns CSV into aligned Markdown tables. Use when the user pastes CSV.
license: MIT
---

# Table formatter
"""


@pytest.mark.asyncio
async def test_diagnostics_come_from_the_editor_text_and_clear_when_it_is_fixed(client: LanguageClient, skill):
    md = skill / "SKILL.md"
    good = md.read_text()
    uri = open_doc(client, md, FRONTMATTER_TYPO)  # the file on disk stays clean
    found = await diagnostics_when(client, uri, lambda ds: "SPC015" in codes(ds))
    typo = next(d for d in found if d.code == "SPC015")
    assert typo.source == "skillsmith"
    assert typo.severity == types.DiagnosticSeverity.Warning
    assert typo.range.start == types.Position(2, 0)  # line 3 of the file, 1-based in findings
    assert "descripton" in typo.message
    assert typo.data == {"fix": None}

    change_doc(client, uri, 2, good)
    assert await diagnostics_when(client, uri, lambda ds: not ds) == []


BROKEN_SHELL = """\
#!/usr/bin/env bash
# Say hello.
#
# Usage:   hello.sh
# Input:   none
# Output:  a greeting
# Stderr:  errors only
# Exit:    0 ok
#
# Examples:
#   hello.sh
case "${1:-}" in
  -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
esac
name="${1:-world}"
echo hello $name
"""


@pytest.mark.asyncio
async def test_a_quick_fix_edit_gives_a_file_check_accepts(client: LanguageClient, skill):
    script = skill / "scripts" / "hello.sh"
    script.write_text(BROKEN_SHELL)
    script.chmod(0o755)
    assert "SHL001" in check_codes(skill)
    uri = open_doc(client, script, language="sh")
    found = await diagnostics_when(client, uri, lambda ds: "SHL001" in codes(ds))
    strict = next(d for d in found if d.code == "SHL001")

    actions = await code_actions(client, uri, strict.range, [strict])
    titles = [a.title for a in actions]
    fix = next(a for a in actions if a.title.startswith("Fix SHL001"))
    assert fix.kind == types.CodeActionKind.QuickFix and fix.is_preferred
    assert "(unsafe)" not in fix.title
    assert any(t == "Fix all safe fixes (skillsmith)" for t in titles), titles
    assert fix.edit.document_changes is None and list(fix.edit.changes) == [uri]  # neovim 0.11 declares no documentChanges

    script.write_text(applied(BROKEN_SHELL, uri, fix.edit))
    assert "SHL001" not in check_codes(skill)
    assert "set -uo pipefail" in script.read_text()


@pytest.mark.asyncio
async def test_edits_carry_the_document_version_for_clients_that_take_it(vscode: LanguageClient, skill):
    script = skill / "scripts" / "hello.sh"
    script.write_text("#!/usr/bin/env bash\n")
    uri = open_doc(vscode, script, BROKEN_SHELL, language="sh")  # the editor's text, not the saved one
    change_doc(vscode, uri, 7, BROKEN_SHELL)
    found = await diagnostics_when(vscode, uri, lambda ds: "SHL001" in codes(ds))
    actions = await code_actions(vscode, uri, found[0].range, found)
    fix_all = next(a for a in actions if a.kind == "source.fixAll.skillsmith")
    (change,) = fix_all.edit.document_changes
    assert change.text_document.uri == uri and change.text_document.version == 7
    assert "set -uo pipefail" in applied(BROKEN_SHELL, uri, fix_all.edit)


@pytest.mark.asyncio
async def test_unsafe_fixes_are_titled_so_and_fix_all_takes_only_safe_ones(client: LanguageClient, skill):
    script = skill / "scripts" / "hello.sh"
    script.write_text(BROKEN_SHELL)
    script.chmod(0o755)
    uri = open_doc(client, script, language="sh")
    found = await diagnostics_when(client, uri, lambda ds: "SHL051" in codes(ds))
    whole = types.Range(types.Position(0, 0), types.Position(len(BROKEN_SHELL.splitlines()), 0))
    actions = await code_actions(client, uri, whole, found)
    by_title = {a.title: a for a in actions}
    assert "Fix SHL051 unquoted-expansion (unsafe)" in by_title, list(by_title)
    assert not by_title["Fix SHL051 unquoted-expansion (unsafe)"].is_preferred
    assert 'echo hello "$name"' in applied(BROKEN_SHELL, uri, by_title["Fix SHL051 unquoted-expansion (unsafe)"].edit)

    fix_all = by_title["Fix all safe fixes (skillsmith)"]
    assert fix_all.kind == "source.fixAll.skillsmith"
    script.write_text(applied(BROKEN_SHELL, uri, fix_all.edit))
    left = check_codes(skill)
    assert "SHL001" not in left and "SHL051" in left  # the unsafe fix is not part of "fix all safe"

    only = await code_actions(client, uri, whole, [], only=[types.CodeActionKind.SourceFixAll])
    assert [a.title for a in only] == ["Fix all safe fixes (skillsmith)"]  # what an editor runs on save


@pytest.mark.asyncio
async def test_the_executable_bit_is_set_by_a_command(client: LanguageClient, skill):
    script = skill / "scripts" / "count_rows.sh"
    script.chmod(0o644)
    md = skill / "SKILL.md"  # run by its path, so the bit matters (`bash scripts/...` would not need it)
    md.write_text(md.read_text().replace("`bash scripts/count_rows.sh", "`scripts/count_rows.sh"))
    uri = open_doc(client, script, language="sh")
    found = await diagnostics_when(client, uri, lambda ds: "CON003" in codes(ds))
    bit = next(d for d in found if d.code == "CON003")
    actions = await code_actions(client, uri, bit.range, [bit])
    fix = next(a for a in actions if a.title.startswith("Fix CON003"))
    assert fix.edit is None  # not a text edit
    await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command=fix.command.command, arguments=fix.command.arguments))
    assert os.stat(script).st_mode & 0o111 == 0o111
    assert "CON003" not in codes(await diagnostics_when(client, uri, lambda ds: "CON003" not in codes(ds)))
    assert "CON003" not in check_codes(skill)


@pytest.mark.asyncio
async def test_hover_shows_the_rule_documentation(client: LanguageClient, skill):
    uri = open_doc(client, skill / "SKILL.md", FRONTMATTER_TYPO)
    found = await diagnostics_when(client, uri, lambda ds: "SPC015" in codes(ds))
    typo = next(d for d in found if d.code == "SPC015")
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(2, 3)))
    assert hover.contents.kind == types.MarkupKind.Markdown
    assert hover.range == typo.range
    rules = run_cli("rules", "SPC015")
    assert rules.code == 0
    assert rules.stdout.strip() in hover.contents.value
    assert "## What it does" in hover.contents.value
    nothing = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(6, 2)))
    assert nothing is None


async def complete(client: LanguageClient, uri: str, line: int, character: int) -> list[types.CompletionItem]:
    result = await client.text_document_completion_async(types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line, character)))
    return [] if result is None else list(result.items if isinstance(result, types.CompletionList) else result)


@pytest.mark.asyncio
async def test_completion_offers_the_frontmatter_fields_of_the_target(client: LanguageClient, skill):
    text = "---\nname: table-formatter\nli\n---\n\n# Table formatter\n"
    uri = open_doc(client, skill / "SKILL.md", text)
    await diagnostics_when(client, uri, lambda ds: True)
    items = await complete(client, uri, 2, 2)
    labels = [i.label for i in items]
    assert {"description", "license", "compatibility", "metadata", "allowed-tools"} <= set(labels)
    assert "when_to_use" not in labels  # Claude Code's: not portable
    assert "name" not in labels and "progressive" not in labels
    license_item = next(i for i in items if i.label == "license")
    assert license_item.text_edit.new_text == "license: "
    assert license_item.text_edit.range == types.Range(types.Position(2, 0), types.Position(2, 2))

    assert await complete(client, uri, 1, 6) == []  # in a value
    assert await complete(client, uri, 5, 1) == []  # in the body


@pytest.mark.asyncio
async def test_completion_offers_claude_code_fields_in_a_claude_code_skill(client: LanguageClient, tmp_path):
    skill = Path(shutil.copytree(EXAMPLE, tmp_path / ".claude" / "skills" / "table-formatter"))
    text = "---\nname: table-formatter\nli\n---\n\n# Table formatter\n"
    uri = open_doc(client, skill / "SKILL.md", text)
    await diagnostics_when(client, uri, lambda ds: True)
    labels = [i.label for i in await complete(client, uri, 2, 2)]
    assert {"license", "when_to_use", "disable-model-invocation", "display-name"} <= set(labels)
    assert "display_name" not in labels and "displayName" not in labels  # other spellings: accepted, not offered
    assert labels.index("license") < labels.index("when_to_use")  # the spec's fields first


@pytest.mark.asyncio
async def test_completion_follows_the_detected_target(client: LanguageClient, skill):
    text = "---\nname: table-formatter\nprogressive: true\n\n---\n"
    uri = open_doc(client, skill / "SKILL.md", text)
    await diagnostics_when(client, uri, lambda ds: True)
    labels = {i.label for i in await complete(client, uri, 3, 0)}
    assert {"resources", "network", "description"} <= labels
    assert "progressive" not in labels and "when_to_use" not in labels


@pytest.mark.asyncio
async def test_other_open_files_of_the_skill_follow_the_edit(client: LanguageClient, skill):
    """A script's findings depend on SKILL.md: editing SKILL.md re-publishes the open script's,
    and closing it unsaved checks the script against the saved one again."""
    script = skill / "scripts" / "count_rows.sh"
    script_uri = open_doc(client, script, language="sh")
    assert await diagnostics_when(client, script_uri, lambda ds: True) == []
    md = skill / "SKILL.md"
    text = md.read_text().replace("- Count the rows of a CSV file: `bash scripts/count_rows.sh data.csv`\n", "")
    assert "count_rows" not in text
    md_uri = open_doc(client, md, text)
    await diagnostics_when(client, md_uri, lambda ds: True)
    uncited = await diagnostics_when(client, script_uri, lambda ds: bool(ds))
    assert codes(uncited) == {"CON012"}  # not cited from SKILL.md (the editor's, not the saved one)
    assert "CON012" not in check_codes(skill)

    client.text_document_did_close(types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(uri=md_uri)))
    assert await diagnostics_when(client, script_uri, lambda ds: not ds) == []  # the saved SKILL.md cites it


@pytest.mark.asyncio
async def test_a_lone_python_script_its_codemod_fix_and_closing_it(client: LanguageClient, tmp_path):
    (tmp_path / "skillsmith.toml").write_text('select = ["ALL", "CON014"]\n')  # CON014 is opt-in
    script = tmp_path / "tool.py"
    text = "import sys\n\nprint('config not found', file=sys.stderr)\nsys.exit(3)\n"  # what exit 3 means
    script.write_text(text)
    uri = open_doc(client, script, language="python")
    found = await diagnostics_when(client, uri, lambda ds: bool(ds))
    assert {"CON001", "CON004", "CON014"} <= codes(found)  # the script contract, as `check tool.py` sees it
    assert codes(found) == check_codes(script)

    literal = next(d for d in found if d.code == "CON014")
    assert literal.range.start == types.Position(3, 0)
    actions = await code_actions(client, uri, literal.range, [literal])
    fix = next(a for a in actions if a.title.startswith("Fix CON014"))
    script.write_text(applied(text, uri, fix.edit))
    assert "sys.exit(EXIT_NOT_FOUND)" in script.read_text()
    assert "CON014" not in check_codes(script)

    client.text_document_did_close(types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(uri=uri)))
    assert await diagnostics_when(client, uri, lambda ds: not ds) == []


@pytest.mark.asyncio
async def test_a_file_the_walk_skips_gets_no_diagnostics(in_skill: LanguageClient, skill):
    """What git ignores is decided by the repository skillsmith runs in: for the server, the editor's workspace."""
    (skill / ".gitignore").write_text("scripts/generated.py\n")
    subprocess.run(["git", "init", "-q", str(skill)], check=True)
    generated = skill / "scripts" / "generated.py"
    generated.write_text("print('hi')\n")
    uri = open_doc(in_skill, generated, language="python")
    assert await diagnostics_when(in_skill, uri, lambda ds: True) == []
    r = run_cli("check", ".", "--json", "--no-cache", cwd=skill)
    assert not any(f["path"].endswith("generated.py") for f in r.json()["data"])


def test_without_pygls_lsp_says_how_to_install_it_and_exits_5():
    code = textwrap.dedent("""
        import sys

        class Block:
            def find_spec(self, name, path=None, target=None):
                if name.split(".")[0] in ("pygls", "lsprotocol"):
                    raise ModuleNotFoundError(f"No module named {name!r}", name=name)
                return None

        sys.meta_path.insert(0, Block())
        from skillsmith.cli.main import main
        sys.exit(main(["lsp"]))
    """)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                          stdin=subprocess.DEVNULL)
    assert proc.returncode == 5, proc.stderr
    assert "pip install 'skillsmith[lsp]'" in proc.stderr
    assert proc.stdout == ""
