"""Exit codes shared by every command (Skill Resource Protocol §5)."""

OK = 0
ERROR = 1
USAGE = 2
NOT_FOUND = 3
INVALID_INPUT = 4
MISSING_DEPENDENCY = 5
FINDINGS = 10
