"""value-graph (7.3): type an expression over a few Values; see the graph microgpt's Value builds,
each arrow labelled with the local grad its node records for that child, and each given Value's
slope twice: through the graph (the chain rule over the local grads) and by nudging its number.

The expression may use the given names, numbers, + - * / **, brackets, the methods .exp(),
.log() and .relu(), and .data (a Value's plain number). The "try the mistake" toggle (its words
are ``mistake``) turns exp, log and relu into math on the plain number, as `math.exp(v.data)`
would be: the result is no Value, and the path to what it was made from is cut.

Every number is worked out in the browser from what the learner types. The expressions the
lesson offers (``start``, ``examples``) are built here too, with a small model of Value, so a
lesson cannot offer one that fails or draws too many nodes.
"""
from __future__ import annotations

import ast
import math
import re

from ..fields import Fields
from . import _common

KIND = "value-graph"
NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
MAX_VARIABLES = 4
MAX_NODES = 18  # what the widget draws (value-graph.ts MAX_NODES)
METHODS = ("exp", "log", "relu")


class _Node:
    """One Value of the model: only its number and its children matter here."""

    def __init__(self, data: float, children: tuple[_Node, ...] = ()) -> None:
        self.data, self.children = data, children


class _Problem(Exception):
    pass


def _wrap(x: _Node | float) -> _Node:
    return x if isinstance(x, _Node) else _Node(float(x))


def _binary(op: ast.operator, a: _Node | float, b: _Node | float) -> _Node | float:
    """What Value does for a op b: plain numbers wrapped, - and / built from + * and **."""
    if not isinstance(op, (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Pow)):
        raise _Problem("only + - * / ** are allowed")
    if isinstance(op, ast.Pow):
        if isinstance(b, _Node):
            raise _Problem("** takes a plain number as the power")
        base = a.data if isinstance(a, _Node) else a
        if base == 0 and b < 0 or base < 0 and not float(b).is_integer():
            raise _Problem(f"{base} ** {b} is not a real number")
        return _Node(base ** b, (a,)) if isinstance(a, _Node) else base ** b
    if not isinstance(a, _Node) and not isinstance(b, _Node):
        if isinstance(op, ast.Div):
            if b == 0:
                raise _Problem("a division by 0")
            return a / b
        return {ast.Add: a + b, ast.Sub: a - b, ast.Mult: a * b}[type(op)]
    if isinstance(op, ast.Add):
        x, y = _wrap(a), _wrap(b)
        return _Node(x.data + y.data, (x, y))
    if isinstance(op, ast.Mult):
        x, y = _wrap(a), _wrap(b)
        return _Node(x.data * y.data, (x, y))
    if isinstance(op, ast.Sub):
        return _binary(ast.Add(), a, _binary(ast.Mult(), b, -1))
    return _binary(ast.Mult(), a, _binary(ast.Pow(), b, -1))  # a / b


def _evaluate(node: ast.AST, names: dict[str, _Node]) -> _Node | float:
    if isinstance(node, ast.Expression):
        return _evaluate(node.body, names)
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) \
            and not isinstance(node.value, bool):
        return float(node.value)
    if isinstance(node, ast.Name):
        if node.id not in names:
            raise _Problem(f"{node.id} is not one of the given Values")
        return names[node.id]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        value = _evaluate(node.operand, names)
        return _binary(ast.Mult(), value, -1) if isinstance(value, _Node) else -value
    if isinstance(node, ast.BinOp):
        return _binary(node.op, _evaluate(node.left, names), _evaluate(node.right, names))
    if isinstance(node, ast.Attribute) and node.attr == "data":
        value = _evaluate(node.value, names)
        if not isinstance(value, _Node):
            raise _Problem(".data belongs to a Value, not to a plain number")
        return value.data
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
            and node.func.attr in METHODS and not node.args and not node.keywords:
        value = _evaluate(node.func.value, names)
        if not isinstance(value, _Node):
            raise _Problem(f".{node.func.attr}() belongs to a Value, not to a plain number")
        x = value.data
        if node.func.attr == "log" and x <= 0:
            raise _Problem(f"log of {x}, which is not above 0")
        if node.func.attr == "exp" and x > 700:
            raise _Problem(f"exp of {x} overflows")
        data = {"exp": lambda: math.exp(x), "log": lambda: math.log(x),
                "relu": lambda: max(0.0, x)}[node.func.attr]()
        return _Node(data, (value,))
    raise _Problem("use the given names, numbers, + - * / **, brackets, .exp(), .log(), "
                   ".relu() and .data")


def _count(out: _Node) -> int:
    seen: set[int] = set()
    stack = [out]
    while stack:
        node = stack.pop()
        if id(node) not in seen:
            seen.add(id(node))
            stack.extend(node.children)
    return len(seen)


def expression_problem(text: str, variables: dict[str, float]) -> str | None:
    """Why the widget could not draw ``text`` over ``variables`` (None when it can)."""
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError as error:
        return f"Python cannot read it ({error.msg})"
    names = {name: _Node(float(value)) for name, value in variables.items()}
    try:
        out = _evaluate(tree, names)
    except (_Problem, OverflowError, ZeroDivisionError) as problem:
        return str(problem) or type(problem).__name__
    if not isinstance(out, _Node):
        return "it is plain-number arithmetic: no Value, so no graph"
    if _count(out) > MAX_NODES:
        return f"it makes {_count(out)} nodes; the widget draws at most {MAX_NODES}"
    return None


def validate(params: Fields) -> None:
    params.only("variables", "start", "examples", "mistake", "h")
    errors_before = len(params.errors)
    variables = params.get("variables", dict) or {}
    if not 1 <= len(variables) <= MAX_VARIABLES:
        params.error(f"`variables` must give 1 to {MAX_VARIABLES} names and their numbers",
                     "variables")
    for name, value in variables.items():
        line = variables.line_of(name)
        if not NAME.match(str(name)) or name in METHODS or name == "data":
            params.error(f"variable name {name!r} must be a Python name such as a or x1 (not "
                         "a method's name)", line=line)
        if not _common.finite(value):
            params.error(f"variable {name!r} must be a number", line=line)
    if len(params.errors) > errors_before:
        return  # the expressions cannot be tried without their variables
    start = params.get("start", str)
    examples = params.get("examples", list, []) or []
    for text, where in [(start, "`start`")] + [(example, f"example {index + 1}")
                                               for index, example in enumerate(examples)]:
        if text is None:
            continue
        if not isinstance(text, str) or not text.strip():
            params.error(f"{where} must be an expression", "examples")
            continue
        problem = expression_problem(text, dict(variables))
        if problem:
            params.error(f"{where} ({text!r}) cannot be drawn: {problem}",
                         "start" if where == "`start`" else "examples")
    _common.texts(params, "mistake")
    h = params.get("h", float, None)
    if h is not None and not 0 < h < 0.01:
        params.error("`h` must be a small positive number such as 1e-6", "h")
