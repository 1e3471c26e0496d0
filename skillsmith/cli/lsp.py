"""``skillsmith lsp``: the language server for editors, over stdio."""

from __future__ import annotations

import argparse

HELP = "run the language server for editors (stdio)"
DESCRIPTION = """\
Run the skillsmith language server on stdin/stdout, for an editor to start. It checks
SKILL.md, scripts and manifest.json as you type (the editor's text, with check's rules),
offers the fixes of `skillsmith fix` as code actions (safe ones, and unsafe ones marked so),
shows a rule's documentation on hover and completes SKILL.md frontmatter field names.

Needs the lsp extra: pip install 'skillsmith[lsp]'
"""
EPILOG = """\
exit codes:
  0 the client ended the session, 5 pygls is not installed

examples:
  skillsmith lsp                           # what an editor runs; it speaks LSP on stdio
  pip install 'skillsmith[lsp]'            # pygls and lsprotocol, which the server needs
"""

INSTALL = "pip install 'skillsmith[lsp]'"


def add_parser(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    from skillsmith.cli.main import formatter

    p = sub.add_parser("lsp", help=HELP, description=DESCRIPTION, epilog=EPILOG, formatter_class=formatter)
    p.add_argument("--stdio", action="store_true", help="talk over stdin/stdout (the default and only transport)")
    return p


def run(args: argparse.Namespace) -> int:
    from skillsmith.errors import MissingDependencyError

    try:
        from skillsmith.lsp.server import serve
    except ImportError as exc:  # not installed, or a pygls too old for the 2.x API
        missing = (exc.name or "").split(".")[0]
        if missing not in ("pygls", "lsprotocol"):
            raise
        raise MissingDependencyError(
            f"skillsmith lsp needs pygls 2 and lsprotocol ({exc}); install them with: {INSTALL}",
            {"dependency": missing, "install": INSTALL},
        ) from None
    return serve()
