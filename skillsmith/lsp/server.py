"""``skillsmith lsp``: the language server, over stdio, on pygls and lsprotocol.

- **Diagnostics** on open, change and save: the document's unit is checked by ``check``'s engine
  with every open document's text in place of its file (:mod:`skillsmith.lsp.analysis`), and
  the findings are published to each open document of that unit, with their version. Files of
  the unit that are not open get nothing (the editor would have nothing to clear them with);
  a closed document's diagnostics are cleared and the unit's other open documents are checked
  again without its text. A diagnostic's ``code`` is the rule ID,
  ``source`` is ``skillsmith``, ``data`` holds the fix safety (``{"fix": "safe"}``).
- **Code actions**: a quick fix per fixable rule found in the requested range (the unsafe ones
  titled "(unsafe)"), and "fix all safe fixes" (:data:`FIX_ALL`), as minimal text edits to
  the document made by the fix engine in memory. The executable bit (``CON003``) is not text:
  its action runs the :data:`MAKE_EXECUTABLE` command, which sets the bit on the saved file.
- **Hover** on a finding: the rule's documentation, as ``skillsmith rules ID`` prints it.
- **Completion** of top-level frontmatter field names in ``SKILL.md`` for the skill's target.

Positions: findings are 1-based lines and columns (code points); an end column is exclusive
(as in SARIF); a finding without an end covers the rest of its line.
"""

from __future__ import annotations

import difflib
import os
import re
import sys
from pathlib import Path

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path
from pygls.workspace import TextDocument

from skillsmith import __version__, targets
from skillsmith.errors import SkillsmithError
from skillsmith.exitcodes import ExitCode
from skillsmith.lsp import completion
from skillsmith.lsp.analysis import Analysis, analyse
from skillsmith.rules.docs import rule_markdown
from skillsmith.rules.finding import Finding
from skillsmith.rules.registry import get_rule

#: the kind of the "fix all safe fixes" action: ``source.fixAll`` asks for it too
FIX_ALL = f"{types.CodeActionKind.SourceFixAll.value}.skillsmith"

#: the command a code action runs to set the executable bit (CON003) on the saved file
MAKE_EXECUTABLE = "skillsmith.makeExecutable"

SEVERITY = {
    "error": types.DiagnosticSeverity.Error,
    "warning": types.DiagnosticSeverity.Warning,
    "info": types.DiagnosticSeverity.Information,
}

#: one line of a document with its line break, as LSP counts lines (\n, \r\n or \r only)
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")


class SkillsmithServer(LanguageServer):
    """The server, with the last analysis of each open document (by URI, with the document's
    version it was made for)."""

    def __init__(self) -> None:
        super().__init__("skillsmith", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Incremental)
        self.analyses: dict[str, tuple[int | None, Analysis]] = {}
        self.noted: set[str] = set()  # notes (a tool not installed) are logged once a session

    # -- analysis ------------------------------------------------------------------------

    def open_documents(self) -> dict[Path, TextDocument]:
        """Every open document that is a local file, by absolute path."""
        found = {}
        for doc in list(self.workspace.text_documents.values()):
            path = document_path(doc.uri)
            if path is not None:
                found[path] = doc
        return found

    def refresh(self, uri: str) -> Analysis | None:
        """Check the unit of the document at *uri* and publish the findings of its open documents."""
        path = document_path(uri)
        if path is None:
            return None
        docs = self.open_documents()
        try:
            analysis = analyse(path, {p: d.source for p, d in docs.items()})
        except SkillsmithError as error:
            self.window_log_message(types.LogMessageParams(type=types.MessageType.Error, message=f"skillsmith: {error.message}"))
            return None
        for note in analysis.notes:
            if note in self.noted:
                continue
            self.noted.add(note)
            self.window_log_message(types.LogMessageParams(type=types.MessageType.Info, message=f"skillsmith: {note}"))
        for doc_path in analysis.opened:
            doc = docs[doc_path]
            self.analyses[doc.uri] = (doc.version, analysis)
            found = analysis.findings_for(doc_path) if analysis.covers(doc_path) else []
            self.publish(doc, found)
        if path not in analysis.opened and path in docs:
            self.publish(docs[path], [])  # not a file the unit's check reads
        return analysis

    def close(self, uri: str) -> None:
        """Clear a closed document's diagnostics; its unit's other open documents are checked
        again with the file on disk in place of its text."""
        known = self.analyses.pop(uri, None)
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))
        if known is None:
            return
        others = [other for other, (_, analysis) in self.analyses.items() if analysis is known[1]]
        if others:
            self.refresh(others[0])

    def analysis_for(self, uri: str) -> Analysis | None:
        """The analysis of the document's current version (made now when there is none)."""
        doc = self.workspace.get_text_document(uri)
        known = self.analyses.get(uri)
        if known is not None and known[0] == doc.version:
            return known[1]
        return self.refresh(uri)

    def publish(self, doc: TextDocument, findings: list[Finding]) -> None:
        diagnostics = [diagnostic(doc, f) for f in findings]
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=doc.uri, diagnostics=diagnostics, version=doc.version)
        )

    # -- code actions ----------------------------------------------------------------------

    def code_actions(self, params: types.CodeActionParams) -> list[types.CodeAction]:
        doc = self.workspace.get_text_document(params.text_document.uri)
        analysis = self.analysis_for(doc.uri)
        path = document_path(doc.uri)
        if analysis is None or path is None or not analysis.covers(path):
            return []
        only = params.context.only
        findings = [f for f in analysis.findings_for(path) if f.fix in ("safe", "unsafe")]
        actions: list[types.CodeAction] = []
        if wanted(only, types.CodeActionKind.QuickFix):
            asked = params.range
            seen = set()
            for f in findings:
                if f.rule in seen or not overlaps(finding_range(doc, f), asked):
                    continue
                seen.add(f.rule)
                rule = get_rule(f.rule)
                name = f" {rule.name}" if rule is not None else ""
                unsafe = f.fix == "unsafe"
                title = f"Fix {f.rule}{name}" + (" (unsafe)" if unsafe else "")
                same = [g for g in findings if g.rule == f.rule]
                action = self.fix_action(doc, analysis, path, {f.rule}, unsafe, title,
                                         types.CodeActionKind.QuickFix, same)
                if action is not None:
                    action.is_preferred = not unsafe
                    actions.append(action)
        safe = [f for f in findings if f.fix == "safe"]
        if safe and wanted(only, FIX_ALL):
            action = self.fix_action(doc, analysis, path, {f.rule for f in safe}, False,
                                     "Fix all safe fixes (skillsmith)", FIX_ALL, safe)
            if action is not None:
                actions.append(action)
        return actions

    def fix_action(self, doc: TextDocument, analysis: Analysis, path: Path, rules: set[str], unsafe: bool,
                   title: str, kind: str, findings: list[Finding]) -> types.CodeAction | None:
        """A code action holding the fix engine's edit of *doc* for *rules*, or None when it changes nothing."""
        result = analysis.fix(path, rules, unsafe)
        if result is None or result.skipped:
            return None
        edit = command = None
        if result.new_data is not None:
            new_text = result.new_data.decode(result.file.encoding, "replace")
            edit = self.workspace_edit(doc, text_edits(doc, new_text))
        if result.new_mode is not None and os.path.isfile(path):
            command = types.Command(title="Make the script executable", command=MAKE_EXECUTABLE, arguments=[doc.uri])
        if edit is None and command is None:
            return None
        return types.CodeAction(title=title, kind=kind, diagnostics=[diagnostic(doc, f) for f in findings],
                                edit=edit, command=command)

    def workspace_edit(self, doc: TextDocument, edits: list[types.TextEdit]) -> types.WorkspaceEdit:
        """*edits* to *doc*, tied to its version when the client takes versioned edits."""
        caps = self.client_capabilities.workspace
        versioned = caps is not None and caps.workspace_edit is not None and caps.workspace_edit.document_changes
        if versioned:
            ident = types.OptionalVersionedTextDocumentIdentifier(uri=doc.uri, version=doc.version)
            return types.WorkspaceEdit(document_changes=[types.TextDocumentEdit(text_document=ident, edits=edits)])
        return types.WorkspaceEdit(changes={doc.uri: edits})

    def make_executable(self, uri: str) -> bool:
        """Set the executable bit of the saved file at *uri* as ``skillsmith fix`` would (CON003)."""
        from skillsmith.fix.engine import MODE_RULES, unwritable

        path = document_path(uri)
        analysis = self.analysis_for(uri) if path is not None else None
        result = analysis.fix(path, set(MODE_RULES), False) if analysis is not None else None
        if result is None or result.new_mode is None:
            return False
        why = unwritable(result.file, analysis.prepared.model.root)
        if why:
            self.window_show_message(types.ShowMessageParams(type=types.MessageType.Error, message=f"skillsmith: {path}: {why}"))
            return False
        os.chmod(path, result.new_mode)
        self.refresh(uri)
        return True

    # -- hover and completion --------------------------------------------------------------

    def hover(self, params: types.HoverParams) -> types.Hover | None:
        doc = self.workspace.get_text_document(params.text_document.uri)
        analysis = self.analysis_for(doc.uri)
        path = document_path(doc.uri)
        if analysis is None or path is None or not analysis.covers(path):
            return None
        at = params.position
        parts, where = [], None
        for f in analysis.findings_for(path):
            span = finding_range(doc, f)
            if not contains(span, at):
                continue
            rule = get_rule(f.rule)
            text = rule_markdown(rule) if rule is not None else f"{f.rule}: {f.message}\n"
            if text not in parts:
                parts.append(text)
                where = where or span
        if not parts:
            return None
        return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value="\n---\n\n".join(parts)), range=where)

    def completion(self, params: types.CompletionParams) -> types.CompletionList | None:
        doc = self.workspace.get_text_document(params.text_document.uri)
        path = document_path(doc.uri)
        if path is None or path.name != "SKILL.md":
            return None
        analysis = self.analysis_for(doc.uri)
        target = analysis.target if analysis is not None else targets.DEFAULT
        at = doc.position_from_client_units(params.position)
        found = completion.completions(doc.source, at.line, at.character, target)
        if found is None:
            return None
        prefix, fields = found
        start = doc.position_to_client_units(types.Position(line=at.line, character=at.character - len(prefix)))
        span = types.Range(start=start, end=params.position)
        items = [
            types.CompletionItem(
                label=f.name, kind=types.CompletionItemKind.Property, detail=f.detail, sort_text=f"{f.order:03d}",
                filter_text=f.name, text_edit=types.TextEdit(range=span, new_text=f"{f.name}: "),
            )
            for f in fields
        ]
        return types.CompletionList(is_incomplete=False, items=items)


def document_path(uri: str) -> Path | None:
    """The absolute path of a ``file:`` URI, else None (an unsaved buffer has no unit)."""
    if not uri.startswith("file:"):
        return None
    path = to_fs_path(uri)
    return Path(path).absolute() if path else None


def diagnostic(doc: TextDocument, f: Finding) -> types.Diagnostic:
    return types.Diagnostic(
        range=finding_range(doc, f), message=f.message, severity=SEVERITY.get(f.severity, types.DiagnosticSeverity.Error),
        code=f.rule, source="skillsmith", data={"fix": f.fix},
    )


def finding_range(doc: TextDocument, f: Finding) -> types.Range:
    """The range of *f* in *doc*, in the client's units, clamped to the document."""
    lines = [ln.rstrip("\r\n") for ln in _LINE.findall(doc.source)] or [""]
    last = len(lines) - 1
    line = min(max(f.line - 1, 0), last)
    start = (line, min(max(f.column - 1, 0), len(lines[line])))
    if f.end_line is None:
        end = (line, len(lines[line]))
    else:
        end_line = min(max(f.end_line - 1, 0), last)
        end_text = lines[end_line]
        end = (end_line, len(end_text) if f.end_column is None else min(max(f.end_column - 1, 0), len(end_text)))
        end = max(end, start)
    return doc.range_to_client_units(types.Range(start=types.Position(*start), end=types.Position(*end)))


def before(a: types.Position, b: types.Position) -> bool:
    return (a.line, a.character) <= (b.line, b.character)


def contains(span: types.Range, at: types.Position) -> bool:
    return before(span.start, at) and before(at, span.end)


def overlaps(span: types.Range, other: types.Range) -> bool:
    return before(span.start, other.end) and before(other.start, span.end)


def wanted(only: list[str] | None, kind: str) -> bool:
    """Whether a request limited to the kinds *only* asks for actions of *kind* (``source`` asks for ``source.fixAll``)."""
    return only is None or any(kind == k or kind.startswith(k + ".") for k in only)


def text_edits(doc: TextDocument, new_text: str) -> list[types.TextEdit]:
    """Line-wise edits that turn *doc*'s text into *new_text* (unchanged lines are not touched)."""
    old, new = _LINE.findall(doc.source), _LINE.findall(new_text)
    edits = []
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "equal":
            edits.append(types.TextEdit(range=types.Range(start=line_start(doc, old, i1), end=line_start(doc, old, i2)),
                                        new_text="".join(new[j1:j2])))
    return edits


def line_start(doc: TextDocument, lines: list[str], index: int) -> types.Position:
    """Where line *index* of *lines* starts; past the last line, the end of the document."""
    if index < len(lines) or not lines or lines[-1].endswith(("\n", "\r")):
        return types.Position(line=index, character=0)
    last = lines[-1]
    return types.Position(line=len(lines) - 1, character=doc.position_codec.client_num_units(last))


def build_server() -> SkillsmithServer:
    """The server with its features registered."""
    server = SkillsmithServer()

    @server.feature(types.INITIALIZED)
    def initialized(ls: SkillsmithServer, params: types.InitializedParams) -> None:
        # the workspace the editor opened is the folder skillsmith runs in: its configuration is
        # the user's own and its repository decides what git ignores (see skillsmith.config)
        root = ls.workspace.root_path
        if root and os.path.isdir(root):
            os.chdir(root)

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: SkillsmithServer, params: types.DidOpenTextDocumentParams) -> None:
        ls.refresh(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: SkillsmithServer, params: types.DidChangeTextDocumentParams) -> None:
        ls.refresh(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: SkillsmithServer, params: types.DidSaveTextDocumentParams) -> None:
        ls.refresh(params.text_document.uri)  # the editor's text; the saved file is not read

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: SkillsmithServer, params: types.DidCloseTextDocumentParams) -> None:
        ls.close(params.text_document.uri)

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix, FIX_ALL]),
    )
    def code_action(ls: SkillsmithServer, params: types.CodeActionParams) -> list[types.CodeAction]:
        return ls.code_actions(params)

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def hover(ls: SkillsmithServer, params: types.HoverParams) -> types.Hover | None:
        return ls.hover(params)

    @server.feature(types.TEXT_DOCUMENT_COMPLETION, types.CompletionOptions())
    def complete(ls: SkillsmithServer, params: types.CompletionParams) -> types.CompletionList | None:
        return ls.completion(params)

    @server.command(MAKE_EXECUTABLE)
    def make_executable(ls: SkillsmithServer, uri: str) -> bool:
        return ls.make_executable(uri)

    return server


def serve() -> ExitCode:
    """Run the server on stdin/stdout until the client ends it. Anything else that writes to
    stdout goes to stderr, so the protocol stream stays clean."""
    protocol_out = sys.stdout.buffer
    sys.stdout = sys.stderr
    build_server().start_io(sys.stdin.buffer, protocol_out)
    return ExitCode.SUCCESS
