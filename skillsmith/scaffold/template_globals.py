"""What the Copier templates render with besides their answers: the protocol's exit-code names.

The templates load :class:`ProtocolGlobals` with ``_jinja_extensions`` in their ``copier.yml``;
it adds ``exit_constant(code, word=None)``, which is :func:`skillsmith.exitcodes.constant_name`,
so a generated script names its exit codes (``{{ exit_constant(3) }}`` is ``EXIT_NOT_FOUND``)
exactly as ``skillsmith fix`` names them in a script it retrofits. A Jinja extension rather
than render data, because ``update`` also renders the version a skill was made from, with
only the answers recorded in the skill. Versions in the template history name this class
by its import path: keep it here.

Copier counts Jinja extensions as an unsafe feature; :func:`skillsmith.scaffold.render.copier_settings`
trusts skillsmith's own templates and nothing else.
"""

from __future__ import annotations

from jinja2.ext import Extension

from skillsmith.exitcodes import constant_name


class ProtocolGlobals(Extension):
    """Adds ``exit_constant`` to the template globals."""

    def __init__(self, environment) -> None:
        super().__init__(environment)
        environment.globals["exit_constant"] = constant_name
