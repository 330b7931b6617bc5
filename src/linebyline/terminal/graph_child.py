"""`linebyline graph`'s child process: run the learner's file as Run does, then describe a Value it
made (runtime/graph.py) into a results file. The learner's output goes to the terminal as it
comes; only the results file is read back.

    python -m linebyline.terminal.graph_child FILE NAME RULE BLOCK RESULTS_JSON
"""
from __future__ import annotations

import json
import sys

from ..runtime.graph import describe
from ..runtime.program import run_program


def main(argv: list[str]) -> int:
    file, name, rule, block, results = argv
    with open(file, encoding="utf-8") as handle:
        source = handle.read()
    namespace: dict[str, object] = {}
    outcome = run_program(source, file, namespace=namespace)
    sys.stdout.flush()
    try:
        described = describe(namespace, name, rule, file, block=block)
    except Exception as error:  # the learner's objects answer attribute reads with their own code
        described = {"error": f"Your Values could not be read: {type(error).__name__}: {error}",
                     "names": []}
    described["run"] = outcome.status
    with open(results, "w", encoding="utf-8") as handle:
        json.dump(described, handle, allow_nan=False)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
