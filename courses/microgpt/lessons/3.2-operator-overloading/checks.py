"""Checks for lesson 3.2: Python's operators on Values, every one built from +, * and **.

Each check runs a few expressions and judges what came back: the number, and the graph. A node
is recognised by what it recorded (an add node has two children and (1, 1); a mul node two
children and their numbers swapped; a pow node one child and n·xⁿ⁻¹), so any way of building
from __add__, __mul__ and __pow__ passes, and a node made straight from the numbers does not.
The usual slips (a method not written yet, one that calls itself, a number not wrapped) are
turned into sentences by `_run`. The last check builds a messy expression and walks all of it.
"""
from linebyline.runtime import calling, check, close, fail, number, shown

# What Python asks the Value on the right when the thing on the left cannot do the operation.
REFLECTED = {"+": "__radd__", "-": "__rsub__", "*": "__rmul__", "/": "__rtruediv__"}
NAMES = {"+": "__add__", "-": "__sub__", "*": "__mul__", "/": "__truediv__"}
# The line each method is, as microgpt writes it: held back in `fix`, shown only later.
WRAP = "other = other if isinstance(other, Value) else Value(other)"
LINES = {
    "__neg__": "def __neg__(self): return self * -1",
    "__radd__": "def __radd__(self, other): return self + other",
    "__sub__": "def __sub__(self, other): return self + (-other)",
    "__rsub__": "def __rsub__(self, other): return other + (-self)",
    "__rmul__": "def __rmul__(self, other): return self * other",
    "__truediv__": "def __truediv__(self, other): return self * other ** -1",
    "__rtruediv__": "def __rtruediv__(self, other): return other * self ** -1",
}


def _line(method):
    """The fix for one method: its line, as microgpt writes it."""
    if method in LINES:
        return f"As microgpt writes it: `{LINES[method]}`."
    if method in ("__add__", "__mul__"):
        return f"The first line of {method}: `{WRAP}`."
    return ""


def _kind(node, value_class):
    """'leaf', 'add', 'mul' or 'pow' for a node made the way microgpt makes them; else None."""
    kids, grads = node._children, node._local_grads
    if not isinstance(kids, (tuple, list)) or not kids:
        return "leaf" if isinstance(kids, (tuple, list)) else None
    if not all(isinstance(kid, value_class) for kid in kids) or not isinstance(grads, (tuple, list)):
        return None
    data = [kid.data for kid in kids]
    if len(kids) == 2 and len(grads) == 2:
        if tuple(grads) == (1, 1) and close(node.data, data[0] + data[1]):
            return "add"
        if (close(grads[0], data[1]) and close(grads[1], data[0])
                and close(node.data, data[0] * data[1])):
            return "mul"
    if len(kids) == 1 and len(grads) == 1 and data[0] != 0 and node.data != 0:
        n = grads[0] * data[0] / node.data  # pow records n * x ** (n - 1), and its data is x ** n
        if close(abs(data[0]) ** n, abs(node.data)):
            return "pow"
    return None


def _walk(out):
    """Every node `out` was built from, `out` included, each once."""
    found, todo, seen = [], [out], set()
    while todo:
        node = todo.pop()
        if id(node) not in seen:
            seen.add(id(node))
            found.append(node)
            todo.extend(getattr(node, "_children", ()) or ())
    return found


def _graph(call, out, value_class, operands, want, method=None):
    """`out` must be a Value with data `want`, built from `operands` by add, mul and pow only;
    `method` is the one under test, whose line a failure holds back in `fix`."""
    if not isinstance(out, value_class):
        fail(f"`{call}` should give a new Value, but gave {shown(out)}. Return a Value, built with "
             "+, * or ** on Values, so that the graph remembers what it was made from.")
    if not close(out.data, want):
        fail(f"`{call}` should give a Value with data {number(want)}, but its data is "
             f"{shown(out.data)}.")
    nodes = _walk(out)
    if not out._children:
        fail(f"`{call}` gave a Value with the right number, {number(want)}, but with no children: "
             "it was made straight from the numbers, so the graph forgets what it came from. "
             "Build it from the operations above (+, * and **), which record their children.")
    for node in nodes:
        if _kind(node, value_class) is None:
            fail(f"`{call}` gave the right number, {number(want)}, but its graph holds a node "
                 f"with data {number(node.data)} that is not an add, a mul or a pow node: it was "
                 "made by hand from numbers. Build each operation from +, * and ** on Values, "
                 "so every node records its children the same way.")
    for operand in operands:
        if not any(node is operand for node in nodes):
            cutter = _cutter(value_class) or method
            where = (f" This happens already in {cutter}: `Value(2.0) {OPS[cutter]} Value(3.0)` "
                     "does not reach the Value 3 either, and the other operations are built on "
                     "it." if cutter != method else "")
            fail(f"`{call}` gave the right number, {number(want)}, but its graph does not reach "
                 f"the Value {number(operand.data)} it was computed from: a new Value was made "
                 "from its number (`.data`) and used in its place, which cuts the link, so "
                 f"backward() could never hand that Value a gradient.{where} Use the Value "
                 "itself (self or other) wherever it takes part.", fix=_line(cutter))


OPS = {"__add__": "+", "__mul__": "*"}


def _cutter(value_class):
    """'__add__' or '__mul__' when Value(2.0) + (or *) Value(3.0) does not reach both Values."""
    for method, op in OPS.items():
        a, b = value_class(2.0), value_class(3.0)
        try:
            out = a + b if op == "+" else a * b
        except Exception:  # noqa: BLE001 - a crash there is told by its own check
            continue
        nodes = _walk(out)
        if not all(any(node is operand for node in nodes) for operand in (a, b)):
            return method
    return None


def _innermost(error):
    """The name of the function of the learner's file in which `error` happened."""
    name, tb = "your code", error.__traceback__
    while tb is not None:
        if tb.tb_frame.f_globals.get("Value") is not None and tb.tb_frame.f_code.co_name != "<lambda>":
            name = tb.tb_frame.f_code.co_name
        tb = tb.tb_next
    return name


def _run(call, make, method=None):
    """Evaluate `make()` for `call`; the classic slips become sentences that say what to change."""
    try:
        with calling(call):
            return make()
    except AttributeError as error:
        text = str(error)
        if ("'int' object has no attribute 'data'" in text
                or "'float' object has no attribute 'data'" in text):
            where = _innermost(error)
            if where in ("__add__", "__mul__"):
                fail(f"`{call}` raised AttributeError: a plain number has no `.data`. Inside "
                     f"{where}, other is a plain number here, and `other.data` fails. The first "
                     "line of __add__ and of __mul__ must turn a plain number into a Value "
                     "first, and leave a Value as it is.", fix=_line(where))
            fail(f"`{call}` raised AttributeError: a plain number has no `.data`. Inside "
                 f"{where}, other is a plain number here, and `other.data` fails. {where} has to "
                 "be built from +, * and ** on Values: __add__ and __mul__ already wrap plain "
                 "numbers.", fix=_line(where))
        raise
    except RecursionError:
        fail(f"`{call}` never finished: it raised RecursionError, because "
             f"{method or 'one of the methods'} keeps calling itself. {_FOREVER.get(method, '')}",
             fix=_line(method))
    except TypeError as error:
        text = str(error)
        if "bad operand type for unary -" in text:
            fail(f"`{call}` raised TypeError: Python looks for a method __neg__ in the class, and "
                 "Value has none yet. __neg__ is still to write: minus v is v times -1.",
                 fix=_line("__neg__"))
        for op, reflected in REFLECTED.items():
            if f"for {op}: 'int' and " in text or f"for {op}: 'float' and " in text:
                fail(f"`{call}` raised TypeError. The plain number on the left of {op} does not "
                     f"know Values, so Python then asks the Value on the right, through its "
                     f"method {reflected}, and your Value has none yet.", fix=_line(reflected))
            if f"for {op}: 'Value' and " in text:
                fail(f"`{call}` raised TypeError: Python looks for a method {NAMES[op]} in the "
                     f"class for the Value on the left of {op}, and Value has none yet.",
                     fix=_line(NAMES[op]))
        raise


_FOREVER = {
    "__neg__": ("Inside __neg__, `-self` is again the minus of a Value, which runs __neg__ "
                "again, forever. Build it from * instead: v times -1."),
    "__radd__": ("Inside __radd__, the plain number is on the left of + again, so Python calls "
                 "__radd__ again, forever. With the Value on the left, __add__ does the work."),
    "__rmul__": ("Inside __rmul__, the plain number is on the left of * again, so Python calls "
                 "__rmul__ again, forever. With the Value on the left, __mul__ does the work."),
    "__sub__": "Build it from + and unary minus, which do not call __sub__.",
    "__rsub__": "Build it from + and unary minus, which do not call __rsub__.",
    "__truediv__": "Build it from * and **, which do not call __truediv__.",
    "__rtruediv__": "Build it from * and **, which do not call __rtruediv__.",
}


@check("plain numbers become Values")
def _(code):
    V = code.Value
    for op, method, make, want in [("+", "__add__", lambda a, b: a + b, 5.0),
                                   ("*", "__mul__", lambda a, b: a * b, 6.0)]:
        a, b = V(2.0), V(3.0)
        both = _run(f"Value(2.0) {op} Value(3.0)", lambda: make(a, b), method)
        if isinstance(both, V) and isinstance(both.data, V):
            fail(f"`Value(2.0) {op} Value(3.0)` gave a Value whose data is itself a Value, not "
                 f"the number {number(want)}. {method} wrapped other although it already was a "
                 "Value. It may wrap other only when other is not a Value yet, and Python's "
                 "isinstance() tells which.", fix=_line(method))
        _graph(f"Value(2.0) {op} Value(3.0)", both, V, [a, b], want, method)
        a = V(2.0)
        call = f"Value(2.0) {op} 3"
        out = _run(call, lambda: make(a, 3), method)
        _graph(call, out, V, [a], want, method)
        if not isinstance(out._children[1], V) or out._children[1].data != 3:
            fail(f"`{call}` should keep the 3, wrapped into a new Value, as its second child, but "
                 f"its children are {shown([getattr(k, 'data', k) for k in out._children])}.",
                 fix=_line(method))


@check("-v is v times -1")
def _(code):
    V = code.Value
    v = V(2.0)
    out = _run("-Value(2.0)", lambda: -v, "__neg__")
    _graph("-Value(2.0)", out, V, [v], -2.0, "__neg__")


@check("3 + v works")
def _(code):
    V = code.Value
    v = V(2.0)
    out = _run("3 + Value(2.0)", lambda: 3 + v, "__radd__")
    _graph("3 + Value(2.0)", out, V, [v], 5.0, "__radd__")


@check("subtraction both ways")
def _(code):
    V = code.Value
    v = V(2.0)
    out = _run("Value(2.0) - 3", lambda: v - 3, "__sub__")
    if isinstance(out, V) and close(out.data, 1.0):
        fail("`Value(2.0) - 3` should give -1, but gave 1: the sign is flipped. In __sub__, self "
             "is the Value on the left and other the 3 on its right, so v - 3 is self plus the "
             "negative of other.", fix=_line("__sub__"))
    _graph("Value(2.0) - 3", out, V, [v], -1.0, "__sub__")
    v, w = V(5.0), V(2.0)
    _graph("Value(5.0) - Value(2.0)", _run("Value(5.0) - Value(2.0)", lambda: v - w, "__sub__"),
           V, [v, w], 3.0, "__sub__")
    v = V(2.0)
    out = _run("3 - Value(2.0)", lambda: 3 - v, "__rsub__")
    if isinstance(out, V) and close(out.data, -1.0):
        fail("`3 - Value(2.0)` should give 1, but gave -1: the sign is flipped. Python calls "
             "__rsub__ on the Value on the right, so inside it self is Value(2.0) and other is "
             "the 3: the subtraction is other - self, other plus the negative of self. Your "
             "__rsub__ computes self - other.", fix=_line("__rsub__"))
    _graph("3 - Value(2.0)", out, V, [v], 1.0, "__rsub__")


@check("2 * v works")
def _(code):
    V = code.Value
    v = V(3.0)
    out = _run("2 * Value(3.0)", lambda: 2 * v, "__rmul__")
    _graph("2 * Value(3.0)", out, V, [v], 6.0, "__rmul__")


@check("division both ways")
def _(code):
    V = code.Value
    v = V(6.0)
    out = _run("Value(6.0) / 2", lambda: v / 2, "__truediv__")
    if isinstance(out, V) and close(out.data, 12.0):
        fail("`Value(6.0) / 2` should give 3, but gave 12: it multiplied by 2 instead of "
             "dividing. Dividing by other is multiplying by other to the power -1 "
             "(2 ** -1 is 0.5).", fix=_line("__truediv__"))
    _graph("Value(6.0) / 2", out, V, [v], 3.0, "__truediv__")
    v, w = V(6.0), V(2.0)
    _graph("Value(6.0) / Value(2.0)", _run("Value(6.0) / Value(2.0)", lambda: v / w,
                                           "__truediv__"), V, [v, w], 3.0, "__truediv__")
    v = V(2.0)
    out = _run("3 / Value(2.0)", lambda: 3 / v, "__rtruediv__")
    if isinstance(out, V) and close(out.data, 2 / 3):
        fail("`3 / Value(2.0)` should give 1.5, but gave 0.666667, which is 2 / 3: the division "
             "is the wrong way round. In __rtruediv__, other is the 3 on the left and self the "
             "Value on the right, so the result is other times self to the power -1.",
             fix=_line("__rtruediv__"))
    _graph("3 / Value(2.0)", out, V, [v], 1.5, "__rtruediv__")


MESSY = "(2 - x) * y / 4 + 3 / (x - y) - (-y) + 5 * x ** 2 - 1"


@check("only add, mul and pow nodes")
def _(code):
    V = code.Value
    x, y = V(1.5), V(-0.5)
    out = _run(f"{MESSY}` with `x = Value(1.5), y = Value(-0.5)",
               lambda: (2 - x) * y / 4 + 3 / (x - y) - (-y) + 5 * x ** 2 - 1)
    a, b = 1.5, -0.5
    want = (2 - a) * b / 4 + 3 / (a - b) - (-b) + 5 * a ** 2 - 1
    _graph(f"{MESSY}` with `x = Value(1.5), y = Value(-0.5)", out, V, [x, y], want)
    kinds = [_kind(node, V) for node in _walk(out)]
    counts = {kind: kinds.count(kind) for kind in ("add", "mul", "pow", "leaf")}
    return (f"{MESSY} is a graph of {len(kinds)} nodes: {counts['add']} add, {counts['mul']} "
            f"mul, {counts['pow']} pow and {counts['leaf']} leaves.")
