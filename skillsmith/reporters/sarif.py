"""SARIF 2.1.0, for code-scanning dashboards."""

from __future__ import annotations

import json
import sys

from skillsmith import __version__, output
from skillsmith.registry import all_rules
from skillsmith.reporters import summary

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
        results.append(
            {
                "ruleId": f.rule,
                "ruleIndex": index.get(f.rule, 0),
                "level": LEVEL[f.severity],
                "message": {"text": f.message},
                "locations": [
                    {"physicalLocation": {"artifactLocation": {"uri": f.display_path()}, "region": region}}
                ],
            }
        )
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


def report(result) -> None:
    sys.stdout.write(json.dumps(document(result), indent=2, ensure_ascii=False) + "\n")
    output.note(summary(result))
