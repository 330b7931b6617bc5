"""Checks for lesson 4.6, The table of local gradients: the rates log, exp and relu record.

Each check applies one operation to a Value of its own, calls backward() (given, from lessons 4.4
and 4.5) and reads x.grad: the rate the operation recorded. The classic slips each leave a number
of their own (log x or x for log's 1 / x, x for exp's exp x, relu's output or `>=` for its gate),
and a bare number instead of a tuple makes backward() fail in a way of its own. Then every grad
of a graph using all six rows is compared with nudging, and backward() with ours on new graphs
of log, exp and relu, each walked twice. The lines to write are held back in `fix`.
Before any rate is judged, `_linked` makes sure y holds the right number and keeps x itself in
its graph wherever x should get a share: a y made from x's number alone could never hand x one.
"""
import math

from linebyline.runtime import (
    Case,
    agrees,
    calling,
    check,
    close,
    differ,
    fail,
    nudge_grads,
    number,
    require_own,
    shown,
)

FIXES = {
    "log": "log's rate is 1 / x: `return Value(math.log(self.data), (self,), (1 / self.data,))`.",
    "exp": ("exp's rate is its own height: "
            "`return Value(math.exp(self.data), (self,), (math.exp(self.data),))`."),
    "relu": ("relu's rate is 1.0 above 0, else 0.0: "
             "`return Value(max(0, self.data), (self,), (float(self.data > 0),))`."),
}
RULE = {"log": lambda x: 1 / x, "exp": math.exp, "relu": lambda x: float(x > 0)}
RULE_TEXT = {"log": "1 / x", "exp": "exp x, its own height", "relu": "1 above 0 and 0 elsewhere"}


def _slip(op, got, x, recorded):
    """What the learner's rate is, told from the number it gave at x; or ''."""
    if not recorded:
        return (f"x got no share at all: {op} recorded no local rate yet, so the walk had nothing "
                "to hand down to x. The empty () still needs its number.")
    if op == "log":
        if close(got, math.log(x)):
            return (f"That is log x, the height of the curve at {number(x)}, not how fast it "
                    "rises: log climbs at 1 / x, steep for small x, gentle for large x.")
        if close(got, x):
            return "That is x itself. log climbs at 1 / x: the larger x, the gentler."
        if close(got, -1 / x):
            return "That is -1 / x, the rate of the surprise -log x; log itself rises at +1 / x."
        if close(got, 1 / x ** 2):
            return "That is 1 / x², a power too many: log's rate is 1 / x."
    if op == "exp":
        if close(got, x):
            return (f"That is x itself. exp is its own slope: at {number(x)} it rises at "
                    f"exp {number(x)}, the height of the curve there.")
        if close(got, 1):
            return "That is 1, the rate of add. exp rises at exp x, its own height."
    if op == "relu":
        if x > 0 and close(got, x):
            return ("That is relu's output, x itself. relu's rate is its slope: 1 where it lets "
                    "x through, not x.")
        if x == 0 and close(got, 1):
            return ("Your test counts 0 as above it. Only a number strictly above 0 is on the "
                    "rising side; at exactly 0 relu sits on its flat side.")
        if x < 0 and close(got, 1):
            return ("relu at a number below 0 got the rate 1, but there relu gives 0 whatever x "
                    "does: its rate there is 0.")
        if x < 0 and close(got, x):
            return ("That is x itself. Below 0, relu's output stays at 0 however x moves: its "
                    "rate there is 0.")
    return ""


def _rate_of(code, op, x):
    """x.grad after (Value(x).op()).backward(); fails plainly on a rate that is no tuple."""
    Value = code.Value
    call = f"x = Value({number(x)}), y = x.{op}()"
    try:
        with calling(call):
            base = Value(float(x))
            y = getattr(base, op)()
        with calling(f"{call}, then y.backward()"):
            y.backward()
    except TypeError as error:
        text = str(error)
        if "iterable" in text or "must support iteration" in text:
            fail(f"`{call}`, then `y.backward()`, raised TypeError ({text}): {op} recorded its "
                 "rate as a bare number, but backward() zips the children with the local rates, "
                 "one per child, so they have to come in a tuple, even when there is only one: a "
                 "comma after the number makes a tuple of one.", fix=FIXES[op])
        raise
    return call, base, y, getattr(y, "_local_grads", ())


PLAIN = {"log": math.log, "exp": math.exp, "relu": lambda x: max(0.0, x)}


def _linked(call, op, base, y, x, rate):
    """y must be a Value holding op(x), with base in its graph wherever base should get a share
    (a relu at or below 0 may leave it out: its rate there is 0 anyway)."""
    want = PLAIN[op](x)
    if not isinstance(y, type(base)):
        fail(f"`{call}` gave {shown(y)}, but should give a new Value, made with its child and "
             "its local rate, so that backward() can walk from it.", fix=FIXES[op])
    if not isinstance(y.data, (int, float)) or not close(y.data, want, rel=1e-9, abs_tol=1e-12):
        fail(f"`{call}` gave y.data = {shown(y.data)}, but {op}({number(x)}) is {number(want)}.",
             fix=FIXES[op])
    if rate != 0 and not any(node is base for node in _nodes(y)):
        kids = [getattr(kid, "data", kid) for kid in (getattr(y, "_children", ()) or ())]
        fail(f"`{call}` gave y the right number, {number(want)}, but x is not in y's graph (y's "
             f"children: {shown(kids) if kids else 'none'}): y was made from x's number alone, "
             "so backward() can never hand x its share, whatever rate is recorded. The new "
             "Value has to keep self itself as its child.", fix=FIXES[op])


def _judge(code, op, x):
    call, base, y, recorded = _rate_of(code, op, x)
    want = RULE[op](x)
    _linked(call, op, base, y, x, want)
    got = base.grad
    if isinstance(got, (int, float)) and close(got, want, rel=1e-9, abs_tol=1e-12):
        return
    if op == "relu" and x == 0:
        seen = (f"With {call}, after y.backward() x.grad is {number(got)}, but relu's rate at "
                "exactly 0 must be 0: at its corner microgpt takes the flat side.")
    else:
        seen = (f"With {call}, after y.backward() x.grad is {number(got)}, but y moves "
                f"{number(want)} times as fast as x: {op}'s rate is {RULE_TEXT[op]}.")
    fail(f"{seen} {_slip(op, got, x, recorded)}".rstrip(), fix=FIXES[op])


@check("log rises at 1 / x")
def _(code):
    require_own(code.Value, "log", "exp", "relu")
    for x in (2.0, 0.25):
        _judge(code, "log", x)
    return "log at 2 rises at 0.5, at 0.25 at 4: steep for small x, gentle for large x."


@check("exp rises at its own height")
def _(code):
    for x in (1.0, -1.0):
        _judge(code, "exp", x)
    return "exp at 1 rises at 2.718, at -1 at 0.368: each time the height of the curve."


@check("relu passes on 1 above 0, and 0 at 0 and below")
def _(code):
    for x in (1.5, -0.5, 0.0):
        _judge(code, "relu", x)
    return "relu at 1.5 passes on 1; at -0.5, and at the corner 0, it passes on nothing."


MESSY = "L = -(w / (w + 26)).log() + (x * x).exp() * (x - 0.5).relu() + (x ** 3 / w).log()"


@check("every grad matches nudging")
def _(code):
    Value = code.Value
    with calling("building w = Value(1.0), x = Value(0.8)"):
        w, x = Value(1.0), Value(0.8)

    def build():
        return -(w / (w + 26)).log() + (x * x).exp() * (x - 0.5).relu() + (x ** 3 / w).log()

    with calling(f"computing {MESSY} while nudging w and x"):
        want = nudge_grads(build, [w, x])
        L = build()
    with calling("L.backward()"):
        L.backward()
    wrong = [f"{name}.grad is {number(got)} but nudging measures {number(slope)}"
             for name, got, slope in (("w", w.grad, want[0]), ("x", x.grad, want[1]))
             if not close(got, slope, rel=1e-5, abs_tol=1e-7)]
    if wrong:
        op, at = _culprit(code, {"log": (1 / 27, 0.512), "exp": (0.64,), "relu": (0.3,)})
        which = (f" Your {op} is the row that is off: at {number(at)}, it hands x a rate other "
                 f"than {RULE_TEXT[op]}." if op else "")
        fail(f"With w = Value(1.0), x = Value(0.8) and {MESSY}, nudging each up and down by a "
             f"tiny h measures how fast L moves, and backward() must agree: {'; '.join(wrong)}. "
             f"Every row of the table is at work here: log's 1 / x, exp's exp x, relu's 1 or 0."
             f"{which}", fix=FIXES.get(op, ""))
    return (f"{MESSY}: w.grad = {number(w.grad)} and x.grad = {number(x.grad)}, as nudging "
            "measures. All six rows of the table, and the paths, add up.")


def _culprit(code, points):
    """(op, x): the first of log, exp and relu whose rate at x (one of `points`, the numbers a
    graph feeds it) is not its row of the table; (None, None) when all three agree with it."""
    for op, xs in points.items():
        for x in xs:
            base = code.Value(float(x))
            y = getattr(base, op)()
            y.backward()
            if not isinstance(base.grad, (int, float)) or not close(base.grad, RULE[op](x)):
                return op, x
    return None, None


# --- the differential check: new graphs of log, exp and relu ---------------------------------

def _plan(rng, size):
    """A chain of `size` steps on x1 and x2, each step one of log, exp, relu, + or *."""
    steps = []
    for _ in range(size):
        op = rng.choice(("log", "exp", "relu", "+", "*"))
        other = rng.choice(("x1", "x2"))
        shift = rng.choice((0.3, -0.7, 1.2))
        steps.append((op, other, shift))
    return steps


def _step_text(op, other, shift):
    if op == "log":
        return "(v * v + 1).log()"
    if op == "exp":
        return "(v * 0.5).exp()"
    if op == "relu":
        return f"(v + {other} + {shift:g}).relu() + v * 0.1"
    return f"v {op} {other}"


def _build(space, leaves, steps):
    Value = space.Value
    x1, x2 = Value(leaves[0]), Value(leaves[1])
    named = {"x1": x1, "x2": x2}
    v = x1
    for op, other, shift in steps:
        if op == "log":
            v = (v * v + 1).log()
        elif op == "exp":
            v = (v * 0.5).exp()
        elif op == "relu":
            v = (v + named[other] + shift).relu() + v * 0.1
        elif op == "+":
            v = v + named[other]
        else:
            v = v * named[other]
    return (_Graph(v, named),)


class _Graph:
    """A generated graph: its output and its inputs by name. It has no `data`, so the check
    compares what backward() leaves in x1 and x2, not the shape of the graph: a relu that
    returns self above 0 builds a graph of another shape with the very same gradients."""

    def __init__(self, out, named):
        self.out, self.named = out, named


def _graphs(rng):
    for size, note in ((2, ""), (4, ""), (8, ""), (20, "a graph longer than the examples")):
        leaves = (round(rng.uniform(0.2, 1.5), 2), round(rng.uniform(-1.5, 1.5), 2))
        steps = _plan(rng, size)
        text = (f"x1 = Value({leaves[0]:g}), x2 = Value({leaves[1]:g}), then v = x1 and, "
                f"{len(steps)} times over, v = " + "; v = ".join(_step_text(*s) for s in steps))
        yield Case(text, lambda space, leaves=leaves, steps=steps: _build(space, leaves, steps),
                   note)


def _nodes(root):
    found, todo, ids = [], [root], set()
    while todo:
        node = todo.pop()
        if id(node) not in ids:
            ids.add(id(node))
            found.append(node)
            todo.extend(node._children)
    return found


def _input_grads(space, args):
    """out.backward() on a generated graph, every grad at 0 first; then {"x1.grad": ...,
    "x2.grad": ...}, so a message names every number it shows."""
    graph = args[0]
    for node in _nodes(graph.out):
        node.grad = 0
    with calling("v.backward() on the generated graph"):
        graph.out.backward()
    return {f"{name}.grad": leaf.grad for name, leaf in graph.named.items()}


def _grads_differ(got, want):
    """Where two {"x1.grad": ...} answers part: "x1.grad is 1 but should be 0.25", or ""."""
    for key, value in want.items():
        found = differ(got.get(key) if isinstance(got, dict) else got, value, path=key)
        if found:
            return found
    return ""


agrees("backward()", _graphs, call=_input_grads, compare=_grads_differ,
       name="log, exp and relu in new graphs, twice each")
