#!/usr/bin/env bash
# Offline self-test of the table-formatter skill's scripts: help, usage errors, missing input, output.
#
# Usage:   bash tests/run.sh
# Input:   none; works in a temporary folder
# Output:  "N passed, M failed"
# Stderr:  one line per failed case
# Exit:    0 all passed, 1 a case failed
#
# Examples:
#   bash tests/run.sh
set -uo pipefail

readonly EXIT_SUCCESS=0
readonly EXIT_ERROR=1

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
skill=$(dirname "$here")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf 'name,size\nalpha,1\nbeta,22\n' > "$work/data.csv"
printf 'alpha beta\ngamma\n' > "$work/input.txt"  # the input of the cases `skillsmith add script` writes
passed=0
failed=0

ok() { passed=$((passed + 1)); }
not_ok() { failed=$((failed + 1)); echo "FAIL: $*" >&2; }

expect() {
  # expect NAME CODE COMMAND...: run COMMAND, keep its output, compare its exit code
  local name=$1 want=$2 got
  shift 2
  "$@" > "$work/stdout" 2> "$work/stderr"
  got=$?
  if [[ "$got" -eq "$want" ]]; then ok; else not_ok "$name: exit $got, expected $want"; fi
}

contains() {
  # contains NAME GREP-OPTION TEXT: the last command's stdout contains TEXT
  if grep -q "$2" -- "$3" "$work/stdout"; then ok; else not_ok "$1: stdout lacks '$3'"; fi
}

json_has() {
  # json_has NAME TEXT IS-SUCCESS: the last stdout is one JSON document holding TEXT,
  # a success envelope (data + meta) when IS-SUCCESS is 1, an error envelope otherwise
  if ! command -v python3 > /dev/null 2>&1; then
    echo "skip: $1 (python3 not found)" >&2
    return
  fi
  if python3 - "$2" "$3" "$work/stdout" << 'PY'
import json, sys
text, success, path = sys.argv[1], sys.argv[2] == "1", sys.argv[3]
with open(path, encoding="utf-8") as fh:
    doc = json.load(fh)
if success:
    assert set(doc) == {"data", "meta"} and doc["meta"]["count"] == len(doc["data"]), doc
    assert doc["meta"]["schema"] == text, doc
else:
    assert set(doc) == {"error"} and doc["error"]["code"] == text, doc
PY
  then ok; else not_ok "$1: not the expected JSON envelope"; fi
}

# cases: scripts/format_table.py
expect "format_table.py --help" 0 python3 "$skill/scripts/format_table.py" --help
contains "format_table.py --help lists examples" -i "examples"
expect "format_table.py unknown flag" 2 python3 "$skill/scripts/format_table.py" --no-such-flag
expect "format_table.py missing input" 3 python3 "$skill/scripts/format_table.py" "$work/missing.csv"
expect "format_table.py table" 0 python3 "$skill/scripts/format_table.py" "$work/data.csv"
contains "format_table.py aligns the columns" -F "| beta  | 22   |"
expect "format_table.py --json" 0 python3 "$skill/scripts/format_table.py" --json "$work/data.csv"
json_has "format_table.py --json envelope" "table-formatter.format_table/v1" 1

# cases: scripts/count_rows.sh
expect "count_rows.sh --help" 0 bash "$skill/scripts/count_rows.sh" --help
contains "count_rows.sh --help lists examples" -i "examples"
expect "count_rows.sh unknown flag" 2 bash "$skill/scripts/count_rows.sh" --no-such-flag
expect "count_rows.sh missing input" 3 bash "$skill/scripts/count_rows.sh" "$work/missing.csv"
expect "count_rows.sh rows" 0 bash "$skill/scripts/count_rows.sh" "$work/data.csv"
contains "count_rows.sh counts the data rows" -x "2"
expect "count_rows.sh --json" 0 bash "$skill/scripts/count_rows.sh" --json "$work/data.csv"
json_has "count_rows.sh --json envelope" "table-formatter.count_rows/v1" 1

# skillsmith add script: new cases go above this line

echo "$passed passed, $failed failed"
if [[ "$failed" -gt 0 ]]; then exit "$EXIT_ERROR"; fi
exit "$EXIT_SUCCESS"
