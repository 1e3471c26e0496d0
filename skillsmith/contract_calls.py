"""Call a kvist skill's tools with its ``tests/contract.json`` samples, offline: ``python contract_calls.py SKILL``.

``skillsmith test`` passes this file's text with ``python -I -c``, so the sandbox need not
show skillsmith's own folder.

What ``skillsmith test`` runs (in the same sandbox as a skill's other suites) for a kvist
skill that has a ``tests/contract.json``. It imports the manifest's ``entrypoint``
(``plugin.py`` by default) from SKILL and calls ``execute(tool, sample, context)`` once per
entry of the contract, with a context that offers nothing: kvist is not here, so a tool that
asks its context for a capability (``context.files``, ``context.http``, ...) cannot run
offline and its call is *skipped*, not failed.

A call passes when it returns a JSON-serializable object (a dict). It fails when it raises,
returns anything else, or the contract or manifest cannot be read. One line per call on
stdout (``pass run``, ``skip digest: needs the context's files``, ``FAIL run: ValueError: ...``),
then the count; exit 0 when no call failed, 1 when one did, 2 on a usage error.

Run as a script (``python -I``): the standard library only.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
import traceback

CONTRACT = os.path.join("tests", "contract.json")


class Offline(Exception):
    """The tool asked its context for something only kvist can give."""


class OfflineContext:
    """A kvist context with no capabilities: every attribute a tool asks for raises :class:`Offline`."""

    def __getattr__(self, name: str):
        raise Offline(name)


def load_json(path: str):
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


def load_plugin(skill: str):
    """The skill's entrypoint module, imported from its file (the skill folder first on ``sys.path``)."""
    entrypoint = "plugin.py"
    manifest = os.path.join(skill, "manifest.json")
    if os.path.isfile(manifest):
        data = load_json(manifest)
        if isinstance(data, dict) and isinstance(data.get("entrypoint"), str):
            entrypoint = data["entrypoint"]
    path = os.path.join(skill, entrypoint)
    sys.path.insert(0, skill)
    spec = importlib.util.spec_from_file_location(os.path.splitext(os.path.basename(entrypoint))[0], path)
    if spec is None or spec.loader is None:
        raise ImportError(f"{entrypoint} cannot be imported")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def call(plugin, tool: str, sample) -> tuple[str, str]:
    """("pass" | "skip" | "FAIL", detail) of one contract call."""
    try:
        result = plugin.execute(tool, sample, OfflineContext())
    except Offline as why:
        return "skip", f"needs the context's {why.args[0]} (only kvist gives it)"
    except Exception as exc:  # the tool crashed on its own sample
        last = traceback.format_exception_only(type(exc), exc)[-1].strip()
        return "FAIL", last
    if not isinstance(result, dict):
        return "FAIL", f"returned {type(result).__name__}, not an object"
    try:
        json.dumps(result)
    except (TypeError, ValueError) as exc:
        return "FAIL", f"the result is not JSON: {exc}"
    return "pass", ""


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: contract_calls.py SKILL", file=sys.stderr)
        return 2
    skill = os.path.abspath(argv[0])
    try:
        contract = load_json(os.path.join(skill, CONTRACT))
        if not isinstance(contract, dict):
            raise ValueError("tests/contract.json is not an object of tool -> sample arguments")
        plugin = load_plugin(skill)
        if not callable(getattr(plugin, "execute", None)):
            raise AttributeError("the entrypoint has no execute(tool, arguments, context)")
    except Exception as exc:
        print(f"FAIL contract: {type(exc).__name__}: {exc}")
        return 1
    counts = {"pass": 0, "skip": 0, "FAIL": 0}
    for tool, sample in contract.items():
        verdict, detail = call(plugin, tool, sample)
        counts[verdict] += 1
        print(f"{verdict} {tool}" + (f": {detail}" if detail else ""))
    print(f"{counts['pass']} passed, {counts['FAIL']} failed, {counts['skip']} skipped")
    return 1 if counts["FAIL"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
