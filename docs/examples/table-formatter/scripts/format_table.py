#!/usr/bin/env python3
"""Format a CSV file as an aligned Markdown table.

Usage:   format_table.py [--json] FILE
Input:   FILE, a CSV file with a header row
Output:  the Markdown table; with --json the skill.format_table/v1 envelope
Stderr:  errors only
Exit:    0 ok, 2 usage, 3 file not found, 4 invalid CSV

Examples:
  format_table.py data.csv
  format_table.py --json data.csv | jq '.data[0]'
"""

import argparse
import csv
import json
import sys

EXIT_OK = 0
EXIT_USAGE = 2
EXIT_NOT_FOUND = 3
EXIT_INVALID = 4

SCHEMA = "table-formatter.format_table/v1"

EXAMPLES = """\
examples:
  format_table.py data.csv
  format_table.py --json data.csv | jq '.data[0]'
"""


def emit_error(as_json, code, message, exit_code):
    print(f"format_table.py: {message}", file=sys.stderr)
    if as_json:
        print(json.dumps({"error": {"code": code, "message": message, "details": {}}}))
    return exit_code


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="format_table.py",
        description="Format a CSV file as an aligned Markdown table.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("file", help="CSV file with a header row")
    parser.add_argument("--json", action="store_true", help="print the JSON envelope")
    args = parser.parse_args(argv)
    try:
        with open(args.file, newline="", encoding="utf-8") as fh:
            rows = list(csv.reader(fh))
    except FileNotFoundError:
        return emit_error(args.json, "NOT_FOUND", f"{args.file}: no such file", EXIT_NOT_FOUND)
    except (UnicodeDecodeError, csv.Error) as exc:
        return emit_error(args.json, "VALIDATION", f"{args.file}: {exc}", EXIT_INVALID)
    if not rows:
        return emit_error(args.json, "VALIDATION", f"{args.file}: empty file", EXIT_INVALID)
    header, body = rows[0], rows[1:]
    if args.json:
        data = [dict(zip(header, row)) for row in body]
        print(json.dumps({"data": data, "meta": {"count": len(data), "schema": SCHEMA}}))
        return EXIT_OK
    widths = [max(len(r[i]) if i < len(r) else 0 for r in rows) for i in range(len(header))]
    for index, row in enumerate(rows):
        cells = [(row[i] if i < len(row) else "").ljust(widths[i]) for i in range(len(header))]
        print("| " + " | ".join(cells) + " |")
        if index == 0:
            print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
