"""The fix engine: findings with a fix, codemods, re-verification and atomic writes."""
