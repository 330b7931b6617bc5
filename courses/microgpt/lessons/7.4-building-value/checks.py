"""Checks for lesson 7.4, Building Value: every operation records the right local grads.

Each operation is called on fresh Values and its recorded local grads are read back. Tuples and
lists are both accepted; numbers are compared with `close`. The last check measures every rate
again by nudging, independently of the rules.
"""
import math

from linebyline.runtime import Case, agrees, calling, check, close, fail, number, slope

H = 1e-6  # how far the last check nudges x


# --- showing what came back, in words a beginner can read (never an object id) ---

def _num(x):
    """A number as Python would show it, but rounded to 6 significant digits."""
    if isinstance(x, float):
        text = f"{x:.6g}"
        if not any(mark in text for mark in ".ein"):  # a whole float still looks like a float
            text += ".0"
        return text
    return repr(x)


def _show(x, value_class):
    if isinstance(x, value_class):
        return f"Value(data={_show(x.data, value_class)})"
    if isinstance(x, tuple):
        inner = ", ".join(_show(item, value_class) for item in x)
        return f"({inner},)" if len(x) == 1 else f"({inner})"
    if isinstance(x, list):
        return "[" + ", ".join(_show(item, value_class) for item in x) + "]"
    if isinstance(x, (int, float)) or x is None or isinstance(x, str):
        return _num(x)
    return f"a {type(x).__name__}"


def _want(numbers):
    inner = ", ".join(_num(number) for number in numbers)
    return f"({inner},)" if len(numbers) == 1 else f"({inner})"


def _count(n, one, many):
    return f"{n} {one if n == 1 else many}"


def _is_number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


# --- reading back what an operation recorded ---

def _new_value(code, call, make):
    """Run `make()` (described by `call`) and insist it returns a Value."""
    with calling(call):
        out = make()
    if not isinstance(out, code.Value):
        fail(f"`{call}` should return a new Value, but returned {_show(out, code.Value)}.")
    return out


def _local_grads(code, call, out, want, fix):
    """The local grads `out` recorded, as a list of plain numbers, one per child; else fail.

    `want` is what they should be, for the messages; `fix` is the literal line, held back.
    """
    value_class = code.Value
    grads, children = out._local_grads, out._children
    shown, wanted = _show(grads, value_class), _want(want)
    items = grads if isinstance(grads, (tuple, list)) else (grads,)
    if any(isinstance(item, value_class) for item in items):
        fail(f"`{call}` recorded local grads {shown}, but expected plain numbers {wanted}. A "
             "local grad must be a plain number, read from a Value's .data: a Value stored there "
             "would be pulled into the graph, and backward() would build new nodes out of it "
             "instead of just multiplying numbers.", fix=fix)
    if isinstance(grads, (int, float)):
        fail(f"`{call}` recorded local grads {shown}, a bare number, but expected the tuple "
             f"{wanted}. Brackets alone do not make a tuple: `(x)` is just x. A tuple with one "
             "element needs a comma: `(x,)`.", fix=fix)
    if not isinstance(grads, (tuple, list)):
        fail(f"`{call}` recorded local grads {shown}, but expected the tuple {wanted}: one plain "
             "number per child.")
    if len(grads) != len(children):
        fail(f"`{call}` recorded local grads {shown}, but expected {wanted}: exactly one plain "
             f"number per child ({_count(len(children), 'child', 'children')} here), in the "
             "same order as the children.")
    for item in grads:
        if isinstance(item, bool):
            fail(f"`{call}` recorded local grads {shown}, but expected {wanted}: True or False is "
                 "not a plain number. float() turns a comparison into one: 1.0 or 0.0.", fix=fix)
        if not _is_number(item):
            fail(f"`{call}` recorded local grads {shown}, but expected plain numbers {wanted}.")
    return list(grads)


def _same(got, want):
    return len(got) == len(want) and all(close(g, w) for g, w in zip(got, want))


def _check_data(code, call, out, want):
    if not close(out.data, want):
        fail(f"`{call}` should give data {_num(want)}, but gave {_show(out.data, code.Value)}. "
             "The first part of the `return Value(...)` line was given: was it changed?")


# --- one check per operation the learner fills in ---
# The literal lines, held back until the learner has tried (see fail(..., fix=...)).
MUL_FIX = "Record `(other.data, self.data)`: other's number for self, self's number for other."
POW_FIX = "Record `(n * self.data ** (n - 1),)`, reading x as self.data."
LOG_FIX = "Record `(1 / self.data,)`, with the comma that makes it a tuple."
EXP_FIX = "Record `(math.exp(self.data),)`: e to the x, the same number as the output."
RELU_FIX = "Record `(float(self.data > 0),)`: 1.0 where x > 0, else 0.0."


@check("mul records (other, self)")
def _(code):
    V = code.Value
    cases = [
        ("Value(3.0) * Value(5.0)", lambda: V(3.0) * V(5.0), 3.0, 5.0),
        ("Value(-2.0) * 4.0", lambda: V(-2.0) * 4.0, -2.0, 4.0),
    ]
    for call, make, a, b in cases:
        out = _new_value(code, call, make)
        _check_data(code, call, out, a * b)
        want = (b, a)
        got = _local_grads(code, call, out, want, MUL_FIX)
        if _same(got, want):
            continue
        shown = _show(out._local_grads, V)
        if _same(got, (a, b)):
            fail(f"`{call}` recorded local grads {shown}, but expected {_want(want)}: the two are "
                 "swapped. Local grads go in the same order as the children (self, other), and "
                 "d(out)/d(self) is other's number, so other's number comes first.", fix=MUL_FIX)
        fail(f"`{call}` recorded local grads {shown}, but expected {_want(want)}. For "
             "out = self * other, d(out)/d(self) is other's number and d(out)/d(other) is "
             "self's number, in that order.", fix=MUL_FIX)


@check("pow records n·xⁿ⁻¹")
def _(code):
    V = code.Value
    for x, n in [(3.0, 2), (2.0, 3), (4.0, -1), (9.0, 0.5)]:
        call = f"Value({x!r}) ** {n!r}"
        try:
            out = _new_value(code, call, lambda x=x, n=n: V(x) ** n)
        except RecursionError:
            fail(f"`{call}` never finished: it raised RecursionError because __pow__ kept calling "
                 "itself. The local grad raises the Value self to a power, which runs __pow__ "
                 "again, which does the same, forever. A local grad is a plain number: raise "
                 "self's number to the power, not self.", fix=POW_FIX)
        _check_data(code, call, out, x ** n)
        want = (n * x ** (n - 1),)
        got = _local_grads(code, call, out, want, POW_FIX)
        if _same(got, want):
            continue
        shown = _show(out._local_grads, V)
        if _same(got, (x ** (n - 1),)):
            fail(f"`{call}` recorded local grads {shown}, but expected {_want(want)}: the factor "
                 "n is missing. The slope of x ** n is n * x ** (n - 1), so multiply by n.",
                 fix=POW_FIX)
        fail(f"`{call}` recorded local grads {shown}, but expected {_want(want)}. The slope of "
             "x ** n is n * x ** (n - 1), with x = self.data.", fix=POW_FIX)


@check("log records 1/x")
def _(code):
    V = code.Value
    for x in (2.0, 0.25, 5.0):
        call = f"Value({x!r}).log()"
        out = _new_value(code, call, lambda x=x: V(x).log())
        _check_data(code, call, out, math.log(x))
        want = (1 / x,)
        got = _local_grads(code, call, out, want, LOG_FIX)
        if not _same(got, want):
            fail(f"`{call}` recorded local grads {_show(out._local_grads, V)}, but expected "
                 f"{_want(want)}. The slope of log(x) is 1 / x, with x = self.data.",
                 fix=LOG_FIX)


@check("exp records eˣ")
def _(code):
    V = code.Value
    for x in (2.0, 0.0, -1.5):
        call = f"Value({x!r}).exp()"
        out = _new_value(code, call, lambda x=x: V(x).exp())
        _check_data(code, call, out, math.exp(x))
        want = (math.exp(x),)
        got = _local_grads(code, call, out, want, EXP_FIX)
        if _same(got, want):
            continue
        shown = _show(out._local_grads, V)
        if _same(got, (x,)):
            fail(f"`{call}` recorded local grads {shown}, which is x itself, but expected "
                 f"{_want(want)}. The slope of e ** x is e ** x, the same number as the "
                 "output, not x.", fix=EXP_FIX)
        fail(f"`{call}` recorded local grads {shown}, but expected {_want(want)}. The slope of "
             "e ** x is e ** x itself.", fix=EXP_FIX)


@check("relu records 1 or 0")
def _(code):
    V = code.Value
    for x in (3.0, -2.0, 0.0):
        call = f"Value({x!r}).relu()"
        out = _new_value(code, call, lambda x=x: V(x).relu())
        _check_data(code, call, out, max(0.0, x))
        want = (1.0 if x > 0 else 0.0,)
        got = _local_grads(code, call, out, want, RELU_FIX)
        if _same(got, want):
            continue
        shown = _show(out._local_grads, V)
        if x > 0 and _same(got, (x,)):
            fail(f"`{call}` recorded local grads {shown}, which is relu's output, but expected "
                 f"{_want(want)}. The local grad is relu's slope, not its value: 1.0 where "
                 "x > 0 (the output rises as fast as x) and 0.0 elsewhere (it stays flat).",
                 fix=RELU_FIX)
        if x == 0:
            fail(f"`{call}` recorded local grads {shown}, but expected {_want(want)}. At exactly "
                 "x = 0 relu takes its flat side, so the local grad is 0.0: the comparison must "
                 "be false at 0, as a strict 'above 0' is.", fix=RELU_FIX)
        fail(f"`{call}` recorded local grads {shown}, but expected {_want(want)}. relu's slope "
             "is 1.0 where x > 0 and 0.0 elsewhere.", fix=RELU_FIX)


# --- what is built from them, and the independent proof ---

class _Malformed(Exception):
    """A node on the way down has local grads that are not one plain number per child."""

    def __init__(self, node):
        super().__init__()
        self.node = node


def _path_grad(out, leaf, value_class):
    """d(out)/d(leaf), by following the recorded children and local grads (the chain rule)."""
    if out is leaf:
        return 1.0
    children, grads = out._children, out._local_grads
    if (not isinstance(grads, (tuple, list)) or len(grads) != len(children)
            or not all(_is_number(g) for g in grads)
            or not all(isinstance(child, value_class) for child in children)):
        raise _Malformed(out)
    return sum(g * _path_grad(child, leaf, value_class) for child, g in zip(children, grads))


@check("subtraction, division and negation build on these")
def _(code):
    V = code.Value
    cases = [  # expression, its inputs, how it is built, what it computes, d(out)/d(each input)
        ("-a", {"a": 3.0}, "`-a` is built as `a * -1`", lambda a: -a, -3.0, {"a": -1.0}),
        ("a - b", {"a": 5.0, "b": 2.0}, "`a - b` is built as `a + (-b)`, and `-b` as `b * -1`",
         lambda a, b: a - b, 3.0, {"a": 1.0, "b": -1.0}),
        ("10.0 - b", {"b": 4.0}, "`10.0 - b` is built as `10.0 + (-b)`",
         lambda b: 10.0 - b, 6.0, {"b": -1.0}),
        ("a / b", {"a": 6.0, "b": 2.0}, "`a / b` is built as `a * b ** -1`",
         lambda a, b: a / b, 3.0, {"a": 0.5, "b": -1.5}),
        ("3.0 / b", {"b": 4.0}, "`3.0 / b` is built as `3.0 * b ** -1`",
         lambda b: 3.0 / b, 0.75, {"b": -0.1875}),
    ]
    for expression, numbers, how, make, data, rates in cases:
        inputs = {name: V(number) for name, number in numbers.items()}
        given = ", ".join(f"{name} = Value({number!r})" for name, number in numbers.items())
        call = f"{expression}` with `{given}"  # shown as `a - b` with `a = Value(5.0), ...`
        with calling(call):
            out = make(*inputs.values())
        if not isinstance(out, V):
            fail(f"`{call}` should return a new Value, but returned {_show(out, V)}.")
        _check_data(code, call, out, data)
        for name, want in rates.items():
            try:
                got = _path_grad(out, inputs[name], V)
            except _Malformed as bad:
                fail(f"`{call}` reuses the operations above ({how}), and one node on the way "
                     f"down to {name} recorded local grads {_show(bad.node._local_grads, V)}: "
                     "not one plain number per child. Fix the checks above first.")
            if not close(got, want):
                fail(f"`{call}` should give d(out)/d({name}) = {_num(want)} when you follow its "
                     f"children and local grads down to {name}, but that gives {_num(got)}. "
                     f"It reuses the operations above ({how}), so fix the checks above first.")


NUDGED = [  # what is computed from x, and at which x (away from relu's kink and log's edge)
    ("x + 2.5", lambda V, x: x + 2.5, (-1.5, 0.5, 2.0)),
    ("x * 2.5", lambda V, x: x * 2.5, (-1.5, 0.5, 2.0)),
    ("Value(-1.5) * x", lambda V, x: V(-1.5) * x, (-1.5, 0.5, 2.0)),
    ("x ** 2", lambda V, x: x ** 2, (-1.5, 0.5, 2.0)),
    ("x ** 3", lambda V, x: x ** 3, (-1.5, 0.5, 2.0)),
    ("x ** -1", lambda V, x: x ** -1, (0.5, 1.3, 2.0)),
    ("x ** 0.5", lambda V, x: x ** 0.5, (0.5, 1.3, 2.0)),
    ("x.log()", lambda V, x: x.log(), (0.5, 1.3, 4.0)),
    ("x.exp()", lambda V, x: x.exp(), (-1.0, 0.3, 2.0)),
    ("x.relu()", lambda V, x: x.relu(), (-1.5, 0.7, 2.0)),
    ("-x", lambda V, x: -x, (-1.5, 0.5, 2.0)),
    ("x - 0.75", lambda V, x: x - 0.75, (-1.5, 0.5, 2.0)),
    ("0.75 - x", lambda V, x: 0.75 - x, (-1.5, 0.5, 2.0)),
    ("x / 4.0", lambda V, x: x / 4.0, (-1.5, 0.5, 2.0)),
    ("4.0 / x", lambda V, x: 4.0 / x, (0.5, 1.3, 2.0)),
]


@check("every local grad matches nudging")
def _(code):
    V = code.Value
    count = 0
    for label, build, xs in NUDGED:
        for x in xs:
            with calling(f"{label}` with `x = Value({x!r})"):
                leaf = V(x)
                out = build(V, leaf)
                measured = slope(lambda t, build=build: build(V, V(t)).data, x, H)
            try:
                got = _path_grad(out, leaf, V)
            except _Malformed as bad:
                fail(f"At x = {x!r}, `{label}` recorded local grads "
                     f"{_show(bad.node._local_grads, V)}: not one plain number per child, so "
                     "its slope cannot be followed. Fix the checks above first.")
            if not close(got, measured, rel=1e-4, abs_tol=1e-6):
                fail(f"At x = {x!r}, `{label}` records d(out)/dx = {_num(got)} through its local "
                     f"grads, but nudging x by ±{H:g} and measuring how the output moves gives "
                     f"a slope of {_num(measured)}. The rule and the measured slope must agree.")
            count += 1
    return f"All {count} recorded slopes agree with nudging."


# --- every operation against ours, on inputs beyond the examples above ----------------------

def _recorded(space, args):
    """What an operation made, as plain data: its number and its local grads (a Value among
    them shown as one, so it never passes for its number). Its children are the arguments,
    which the comparison looks at after the call: an operation that changes them shows."""
    op, *operands = args
    with calling(f"{_written(op, [a.data if hasattr(a, 'data') else a for a in operands])}"):
        out = _OPERATIONS[op](*operands)
    grads = getattr(out, "_local_grads", None)
    items = grads if isinstance(grads, (tuple, list)) else [grads]
    return {"data": getattr(out, "data", out),
            "local grads": [f"a Value ({number(item.data)})" if hasattr(item, "_local_grads")
                            else item for item in items]}


_OPERATIONS = {
    "*": lambda a, b: a * b, "**": lambda a, n: a ** n, "log": lambda a: a.log(),
    "exp": lambda a: a.exp(), "relu": lambda a: a.relu(), "-x": lambda a: -a,
    "-": lambda a, b: a - b, "/": lambda a, b: a / b, "+": lambda a, b: a + b,
}


def _written(op, numbers):
    """How the operation is written in Python, on Values holding these numbers."""
    shown = [f"Value({number(x)})" for x in numbers]
    if op in ("log", "exp", "relu"):
        return f"{shown[0]}.{op}()"
    if op == "-x":
        return f"-{shown[0]}"
    if op == "**":
        return f"{shown[0]} ** {number(numbers[1])}"
    return f"{shown[0]} {op} {shown[1]}"


def _case(op, numbers, note=""):
    def make(space):
        values = [space.Value(float(x)) for x in numbers]
        if op == "**":  # the exponent is a plain number
            values[1] = numbers[1]
        return (op, *values)

    return Case(_written(op, numbers), make, note)


def _operations(rng):
    """Ordinary numbers first, then zero, negatives, tiny and huge numbers, where each
    operation is defined (log only above 0; no 0 to a negative power)."""
    ordinary = [round(rng.uniform(-4.0, 4.0), 3) for _ in range(6)]
    positive = [round(rng.uniform(0.1, 6.0), 3) for _ in range(3)]
    yield _case("*", ordinary[:2])
    yield _case("**", [ordinary[2], 2])
    yield _case("**", [positive[0], 3])
    yield _case("log", [positive[1]])
    yield _case("exp", [ordinary[3]])
    yield _case("relu", [ordinary[4]])
    yield _case("relu", [-abs(ordinary[5]) - 0.5])
    yield _case("-", [ordinary[0], ordinary[1]])
    yield _case("/", [ordinary[2], positive[2]])
    beyond = "beyond the examples above"
    yield _case("*", [0.0, -7.25], f"a zero, {beyond}")
    yield _case("*", [-1e6, -3e-6], f"a huge and a tiny number, {beyond}")
    yield _case("**", [0.0, 2], f"0 squared, {beyond}")
    yield _case("**", [0.0, 3], f"0 cubed, {beyond}")
    yield _case("**", [-2.0, 3], f"a negative number cubed, {beyond}")
    yield _case("**", [-0.5, -2], f"a negative number to a negative power, {beyond}")
    yield _case("**", [7.0, 0], f"the power 0, {beyond}")
    yield _case("**", [1e3, 1], f"the power 1, {beyond}")
    yield _case("log", [1e-8], f"a tiny number, {beyond}")
    yield _case("log", [1e8], f"a huge number, {beyond}")
    yield _case("exp", [-60.0], f"a very negative number, {beyond}")
    yield _case("exp", [40.0], f"a big number, {beyond}")
    yield _case("relu", [-1e-9], f"a number just below 0, {beyond}")
    yield _case("relu", [1e9], f"a huge number, {beyond}")
    yield _case("-x", [0.0], f"minus zero, {beyond}")
    yield _case("/", [-6.0, -0.25], f"a division by a negative number, {beyond}")


agrees("recording", _operations, call=_recorded, label="{text}",
       name="every operation on new numbers, twice each")
