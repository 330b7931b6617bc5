#!/usr/bin/env bash
# Lint, strictly, only the lessons whose files are named (pre-commit passes the changed ones):
# proving one lesson takes seconds, the whole course minutes.
set -euo pipefail
lessons=()
for file in "$@"; do
  if [[ $file =~ courses/[^/]+/lessons/([0-9]+\.[0-9]+)- ]]; then
    lessons+=(--lesson "${BASH_REMATCH[1]}")
  fi
done
if [ ${#lessons[@]} -eq 0 ]; then
  exec .venv/bin/linebyline lint --strict  # course.yaml, a review or the library: the whole course
fi
exec .venv/bin/linebyline lint --strict "${lessons[@]}"
