"""SARIF 2.1.0, for code-scanning dashboards."""

from __future__ import annotations

import json
import sys
from pathlib import PurePosixPath
from urllib.parse import quote

from skillsmith import __version__
from skillsmith.rules.registry import all_rules

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
LEVEL = {"error": "error", "warning": "warning", "info": "note"}


def document(result) -> dict:
    rules = all_rules()
    index = {r.id: i for i, r in enumerate(rules)}
    results = []
    for f in result.findings:
        region = {"startLine": f.line, "startColumn": f.column}
        if f.end_line:
            region["endLine"] = f.end_line
        if f.end_column:
            region["endColumn"] = f.end_column
        entry = {
            "ruleId": f.rule,
            "level": LEVEL[f.severity],
            "message": {"text": f.message},
            "locations": [
                {"physicalLocation": {"artifactLocation": {"uri": uri(f.display_path())}, "region": region}}
            ],
        }
        if f.rule in index:  # an external tool's own code (SC2086) has no entry in our rules
            entry["ruleIndex"] = index[f.rule]
        results.append(entry)
    return {
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "skillsmith",
                        "version": __version__,
                        "informationUri": "https://pypi.org/project/skillsmith/",
                        "rules": [
                            {
                                "id": r.id,
                                "name": r.name,
                                "shortDescription": {"text": r.summary},
                                "fullDescription": {"text": r.doc or r.summary},
                                "defaultConfiguration": {"level": LEVEL[r.severity]},
                                "properties": {"family": r.family, "seed": r.seed, "fix": r.fix or "none"},
                            }
                            for r in rules
                        ],
                    }
                },
                "results": results,
            }
        ],
    }


def uri(path: str) -> str:
    """A URI reference for *path*: relative paths percent-encoded, absolute ones as file: URIs."""
    if PurePosixPath(path).is_absolute():
        return "file://" + quote(path)
    return quote(path)


def report(result, view=None) -> None:
    sys.stdout.write(json.dumps(document(result), indent=2, ensure_ascii=False) + "\n")
