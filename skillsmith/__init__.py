"""skillsmith: scaffold, check and fix agent skills.

The public Python API is small: ``skillsmith.api.check(paths)`` returns findings.
Everything else is internal and may change.
"""

__version__ = "0.1.0"
