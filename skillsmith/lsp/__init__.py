"""The language server of ``skillsmith lsp``: check and fix as the editor holds the files.

:mod:`~skillsmith.lsp.analysis` checks and fixes a document's unit with the editor's texts in
place of the files on disk (no pygls); :mod:`~skillsmith.lsp.completion` knows the frontmatter
fields a target reads; :mod:`~skillsmith.lsp.server` speaks the protocol (pygls, lsprotocol:
the ``lsp`` extra).
"""
