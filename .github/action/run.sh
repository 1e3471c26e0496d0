#!/usr/bin/env bash
# Run skillsmith check for the GitHub Action (action.yml): install it, check, report.
#
# Usage:   run.sh            (configured by the environment, as action.yml sets it)
# Input:   INPUT_PATHS       skills, folders or scripts, separated by spaces or newlines (default: .)
#          INPUT_ARGS        more options for skillsmith check, separated by spaces (not --format)
#          INPUT_SARIF_FILE  also write SARIF 2.1.0 to this file (relative to GITHUB_WORKSPACE)
#          INPUT_INSTALL     true: install skillsmith from GITHUB_ACTION_PATH into a virtualenv
#                            under RUNNER_TEMP; false: use the skillsmith on PATH (default: true)
#          GITHUB_ACTION_PATH, GITHUB_WORKSPACE, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, RUNNER_TEMP
# Output:  workflow-command annotations (::error file=...::...) on stdout; findings, errors,
#          warnings, exit-code and sarif-file in GITHUB_OUTPUT; a summary in GITHUB_STEP_SUMMARY
# Stderr:  progress and skillsmith's summary
# Exit:    skillsmith check's own: 0 no findings, 10 findings (0 with --exit-zero), 2 usage,
#          3 path not found, 4 invalid input; 5 skillsmith could not be installed or found
#
# Examples:
#   INPUT_PATHS=skills INPUT_INSTALL=false GITHUB_OUTPUT=out.txt .github/action/run.sh
set -uo pipefail

readonly EXIT_MISSING_DEP=5

fail_dependency() {
  echo "::error title=skillsmith::$1"
  exit "$EXIT_MISSING_DEP"
}

cd "${GITHUB_WORKSPACE:-.}" || exit 3

if [[ "${INPUT_INSTALL:-true}" == "true" ]]; then
  venv="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/skillsmith-action-venv"
  echo "skillsmith: installing from ${GITHUB_ACTION_PATH:?} into $venv" >&2
  python3 -m venv "$venv" >&2 || fail_dependency "python3 -m venv failed; set up Python first (actions/setup-python)"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "$GITHUB_ACTION_PATH" >&2 \
    || fail_dependency "pip could not install skillsmith from $GITHUB_ACTION_PATH"
  skillsmith="$venv/bin/skillsmith"
else
  skillsmith="$(command -v skillsmith)" || fail_dependency "skillsmith is not on PATH (install: false)"
fi

paths=() args=()
read -r -d '' -a paths <<<"${INPUT_PATHS:-}" || true
read -r -d '' -a args <<<"${INPUT_ARGS:-}" || true
[[ ${#paths[@]} -gt 0 ]] || paths=(.)

annotations="$(mktemp)"
trap 'rm -f "$annotations"' EXIT
"$skillsmith" check "${paths[@]}" --format github "${args[@]}" | tee "$annotations"
status=${PIPESTATUS[0]}

sarif="${INPUT_SARIF_FILE:-}"
if [[ -n "$sarif" ]]; then
  mkdir -p "$(dirname "$sarif")"
  # the same run again, answered from skillsmith's cache
  "$skillsmith" check "${paths[@]}" --format sarif "${args[@]}" >"$sarif" 2>/dev/null
  sarif_status=$?
  if [[ $sarif_status -ne $status ]]; then
    echo "::warning title=skillsmith::the SARIF run exited $sarif_status, the check $status"
  fi
fi

errors=$(grep -c '^::error ' "$annotations")
warnings=$(grep -c '^::warning ' "$annotations")
notices=$(grep -c '^::notice ' "$annotations")
findings=$((errors + warnings + notices))

if [[ -n "${GITHUB_OUTPUT:-}" ]]; then
  {
    echo "findings=$findings"
    echo "errors=$errors"
    echo "warnings=$warnings"
    echo "exit-code=$status"
    echo "sarif-file=$sarif"
  } >>"$GITHUB_OUTPUT"
fi
if [[ -n "${GITHUB_STEP_SUMMARY:-}" ]]; then
  {
    echo "### skillsmith check"
    echo
    if [[ $findings -eq 0 && $status -eq 0 ]]; then
      echo "No findings in ${paths[*]}."
    else
      echo "| findings | errors | warnings | exit code |"
      echo "| ---: | ---: | ---: | ---: |"
      echo "| $findings | $errors | $warnings | $status |"
      echo
      echo "Run \`skillsmith check ${paths[*]}\` locally; \`skillsmith fix\` applies the safe fixes."
    fi
  } >>"$GITHUB_STEP_SUMMARY"
fi
exit "$status"
