"""local-gradient (7.4): pick an operation of Value, drag x, compare the rule's rate with nudging."""
from __future__ import annotations

from ..fields import Fields
from . import _common

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
        _common.known(operation, "op", op, OPERATIONS)
        if op in ("add", "mul"):
            operation.get("c", float)
        if op == "pow":
            operation.get("n", float)
    _common.slider(params, "x")
    h = params.get("h", float)
    if h is not None and not 0 < h < 1:
        params.error("`h` must be a small positive number such as 0.001", "h")
