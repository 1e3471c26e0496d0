"""Scaffolding: new skills, new scripts and template updates, rendered with Copier.

The answers are collected and validated (with the validators ``check`` uses) before Copier
sees them; Copier then renders with ``data=`` and ``defaults=True``, an explicit answers file
and explicit settings, so nothing is asked twice and a user's own Copier settings never leak
in. Copier is imported only inside the functions that render.

The public surface is :func:`new`, :func:`add_script` and :func:`update`.
"""

from skillsmith.scaffold.add import add_script
from skillsmith.scaffold.answers import Answers, Created
from skillsmith.scaffold.render import new
from skillsmith.scaffold.update import Updated, update

__all__ = ["Answers", "Created", "Updated", "add_script", "new", "update"]
