"""local-gradient (7.4): pick an operation of Value, drag x, compare the rule's rate with nudging."""
from __future__ import annotations

from ..fields import Fields

KIND = "local-gradient"
# Each operation takes x and, for some, one constant.
OPERATIONS = {
    "add": "x + c", "mul": "x * c", "pow": "x ** n", "log": "log(x)", "exp": "exp(x)",
    "relu": "relu(x)",
}


def validate(params: Fields) -> None:
    params.only("operations", "x", "h")
    operations = params.items("operations", "operation") if "operations" in params.data else []
    if not operations:
        params.error("`operations` must list at least one operation")
    for operation in operations:
        operation.only("op", "c", "n", "label")
        op = operation.get("op", str)
        if op is not None and op not in OPERATIONS:
            operation.error(f"unknown op {op!r} (known: {', '.join(OPERATIONS)})", "op")
        if op in ("add", "mul"):
            operation.get("c", float)
        if op == "pow":
            operation.get("n", float)
    x = params.mapping("x", "x: ")
    if x is not None:
        x.only("min", "max", "step", "start")
        low, high, step, start = (x.get(key, float) for key in ("min", "max", "step", "start"))
        if None not in (low, high, step, start):
            if not low < high:
                x.error("`min` must be below `max`")
            elif not low <= start <= high:
                x.error("`start` must lie between `min` and `max`", "start")
            if step <= 0:
                x.error("`step` must be above 0", "step")
    h = params.get("h", float)
    if h is not None and not 0 < h < 1:
        params.error("`h` must be a small positive number such as 0.001", "h")
