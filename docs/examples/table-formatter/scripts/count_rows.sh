#!/usr/bin/env bash
# Count the data rows of a CSV file (lines after the header).
#
# Usage:   count_rows.sh [--json] FILE
# Input:   FILE, a CSV file with a header row
# Output:  the row count; with --json the table-formatter.count_rows/v1 envelope
# Stderr:  errors only
# Exit:    0 ok, 2 usage, 3 file not found
#
# Examples:
#   count_rows.sh data.csv
#   count_rows.sh --json data.csv | jq '.data[0].rows'
set -uo pipefail

readonly EXIT_OK=0
readonly EXIT_USAGE=2
readonly EXIT_NOT_FOUND=3

usage() {
  # print the header block above, up to its last comment line
  awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
}

json=0
file=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    -h|--help) usage; exit "$EXIT_OK" ;;
    --json) json=1; shift ;;
    -*) echo "count_rows.sh: unknown option: $1" >&2; exit "$EXIT_USAGE" ;;
    *) file="$1"; shift ;;
  esac
done

if [[ -z "$file" ]]; then
  echo "count_rows.sh: missing FILE (try --help)" >&2
  exit "$EXIT_USAGE"
fi
if [[ ! -f "$file" ]]; then
  echo "count_rows.sh: $file: no such file" >&2
  if [[ "$json" -eq 1 ]]; then
    printf '{"error": {"code": "NOT_FOUND", "message": "%s: no such file", "details": {}}}\n' "$file"
  fi
  exit "$EXIT_NOT_FOUND"
fi

rows=$(($(wc -l < "$file") - 1))
if [[ "$rows" -lt 0 ]]; then rows=0; fi
if [[ "$json" -eq 1 ]]; then
  printf '{"data": [{"rows": %d}], "meta": {"count": 1, "schema": "table-formatter.count_rows/v1"}}\n' "$rows"
else
  echo "$rows"
fi
exit "$EXIT_OK"
