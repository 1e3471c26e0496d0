"""GitHub Actions workflow commands: ``::error file=...,line=...::message``."""

from __future__ import annotations

from skillsmith.cli import output

LEVEL = {"error": "error", "warning": "warning", "info": "notice"}


def escape_data(value: str) -> str:
    return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(value: str) -> str:
    return escape_data(value).replace(":", "%3A").replace(",", "%2C")


def report(result, view=None) -> None:
    for f in result.findings:
        props = [f"file={escape_property(f.display_path())}", f"line={f.line}", f"col={f.column}"]
        if f.end_line:
            props.append(f"endLine={f.end_line}")
        if f.end_column:
            props.append(f"endColumn={f.end_column}")
        props.append(f"title={escape_property(f.rule)}")
        output.data(f"::{LEVEL[f.severity]} {','.join(props)}::{escape_data(f.rule + ' ' + f.message)}")
