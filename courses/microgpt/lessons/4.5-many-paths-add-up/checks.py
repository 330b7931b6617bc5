"""Checks for lesson 4.5, Many paths add up: the local rate pow records, n * x ** (n - 1).

Each check raises a Value to a power with the learner's `__pow__`, calls backward() (given, from
lesson 4.4) and reads x.grad. A whole power n is n paths from x, so x ** n must give what
x * x * ... * x gives through the same backward(); the classic slips each leave a number of their
own (one path only, the output itself, the power not lowered, 2x for every power). Powers that
count no paths, -1 (microgpt's division) and 0.5, follow the same rule: a rule that counts paths
with range(n) breaks there. Then every grad is compared with nudging, and backward() with ours on
new graphs full of powers, each walked twice. The line to write is held back in `fix`.
Before any rate is judged, `_linked` makes sure y holds x ** n and keeps x itself in its graph:
a y made from x's number alone could never hand x a share, whatever rate it recorded.
"""
from linebyline.runtime import (
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
    value_graphs,
)

FIX = ("Give pow its rate, n paths added up: "
       "`return Value(self.data ** n, (self,), (n * self.data ** (n - 1),))`.")


def _slip(got, x, n, recorded):
    """What the learner's pow rate is, told from the number it gave for x ** n; or ''."""
    if not recorded:
        return ("x got no share at all: pow recorded no local rate yet, so the walk had nothing "
                "to hand down to x. The empty () still needs its number.")
    if close(got, 0) and (n < 0 or n != int(n)):
        return (f"Your pow recorded the rate 0 for n = {number(n)}: a rule that counts the paths "
                f"(with range(n), say) finds none here, since {number(n)} copies of x is no "
                "product. The rule the paths give for whole n, n * x ** (n - 1), holds for every "
                "n: nudging confirms it, and microgpt needs it for ** -1 (division) and ** -0.5 "
                "(rmsnorm).")
    if close(got, x ** (n - 1)) and (n < 2 or n != int(n)):
        return (f"That is x ** (n - 1) = {number(x ** (n - 1))}, without the factor n = "
                f"{number(n)}: the rule the paths give for whole n, n * x ** (n - 1), holds for "
                "every n.")
    if close(got, x ** (n - 1)):
        return (f"That is x ** (n - 1) = {number(x ** (n - 1))}, the rate along one path only. "
                f"x ** {number(n)} is {number(n)} copies of x multiplied: {number(n)} paths, each "
                f"with that rate, and the paths add up.")
    if close(got, x ** n):
        return (f"That is x ** {number(n)} itself, the height of the curve, not how fast it "
                "rises.")
    if close(got, n * x ** n):
        return ("That is n * x ** n: the power was not lowered. Along each path the rate is the "
                "other n - 1 copies of x: x ** (n - 1).")
    if close(got, n * x) and n != 2:
        return (f"That is n * x, which is right for x ** 2 only (2x). For n = {number(n)} the rate "
                f"of each path is x ** (n - 1), not x.")
    if close(got, n):
        return "That is n alone: each of the n paths has the rate x ** (n - 1), not 1."
    return ""


def _rate_of_power(code, x, n):
    """x.grad after (Value(x) ** n).backward(); fails plainly on the classic crashes."""
    Value = code.Value
    call = f"x = Value({number(x)}), y = x ** {number(n)}"
    try:
        with calling(call):
            base = Value(float(x))
            y = base ** n
        with calling(f"{call}, then y.backward()"):
            y.backward()
    except TypeError as error:
        text = str(error)
        if "cannot be interpreted as an integer" in text:
            fail(f"`{call}` raised TypeError ({text}): your pow counts its paths with range(n), "
                 f"but n = {number(n)} is not a whole number of paths. The rule the paths give "
                 "for whole n, n * x ** (n - 1), holds for every n: nudging confirms it, and "
                 "microgpt needs it for ** -1 (division) and ** -0.5 (rmsnorm).", fix=FIX)
        if "iterable" in text or "must support iteration" in text:
            fail(f"`{call}`, then `y.backward()`, raised TypeError ({text}): pow recorded its rate as "
                 "a bare number, but backward() zips the children with the local rates, one per "
                 "child, so they have to come in a tuple, even when there is only one: a comma "
                 "after the number makes a tuple of one.", fix=FIX)
        raise
    recorded = getattr(y, "_local_grads", ())
    return call, base, y, recorded


def _linked(call, base, y, want, name):
    """y must be a Value holding `want`, with base in its graph: else no rate could reach base."""
    if not isinstance(y, type(base)):
        fail(f"`{call}` gave {shown(y)}, but should give a new Value, made with its child and "
             "its local rate, so that backward() can walk from it.", fix=FIX)
    if not isinstance(y.data, (int, float)) or not close(y.data, want, rel=1e-9, abs_tol=1e-12):
        fail(f"`{call}` gave y.data = {shown(y.data)}, but {name} is {number(want)}.", fix=FIX)
    if not any(node is base for node in _nodes(y)):
        kids = [getattr(kid, "data", kid) for kid in (getattr(y, "_children", ()) or ())]
        fail(f"`{call}` gave y the right number, {number(want)}, but x is not in y's graph (y's "
             f"children: {shown(kids) if kids else 'none'}): y was made from x's number alone, "
             "so backward() can never hand x its share, whatever rate is recorded. The new "
             "Value has to keep self itself as its child.", fix=FIX)


def _judge(code, x, n, note=""):
    call, base, y, recorded = _rate_of_power(code, x, n)
    _linked(call, base, y, x ** n, f"{number(x)} ** {number(n)}")
    got = base.grad
    want = n * x ** (n - 1)
    if close(got, want, rel=1e-9, abs_tol=1e-12):
        return
    seen = (f"With {call}, after y.backward() x.grad is {number(got)}, but y moves "
            f"{number(want)} times as fast as x: n * x ** (n - 1) = {number(n)} * "
            f"{number(x)} ** {number(n - 1)}{note}.")
    fail(f"{seen} {_slip(got, x, n, recorded)}".rstrip(), fix=FIX)


@check("x ** 2 adds up two paths, like x * x")
def _(code):
    require_own(code.Value, "__pow__")
    _judge(code, 3.0, 2, ", the 3 + 3 that y = x * x gives along its two paths")
    return "x ** 2 at 3: two paths, each with rate 3, add up to 6, as x * x gives."


@check("x ** 3 adds up three paths")
def _(code):
    _judge(code, 2.0, 3, ", the 4 + 4 + 4 of the three paths of x * x * x")
    _judge(code, 1.5, 4)
    return "x ** 3 at 2: three paths of rate 4 add up to 12, as x * x * x gives."


@check("powers that count no paths, -1 and 0.5")
def _(code):
    _judge(code, 4.0, -1, " (division is multiplying by ** -1)")
    _judge(code, 4.0, 0.5)
    Value = code.Value
    with calling("a = Value(6.0), b = Value(2.0), y = a / b, then y.backward()"):
        a, b = Value(6.0), Value(2.0)
        y = a / b
        y.backward()
    if not (close(a.grad, 0.5) and close(b.grad, -1.5)):
        fail(f"With a = Value(6.0), b = Value(2.0), y = a / b, after y.backward() a.grad is "
             f"{number(a.grad)} and b.grad is {number(b.grad)}, but y moves 1 / b = 0.5 times as "
             f"fast as a, and -a / b ** 2 = -1.5 times as fast as b. Division is a * b ** -1, so "
             "b's rate goes through pow with n = -1.", fix=FIX)
    return "x ** -1 at 4 moves at -0.0625 and x ** 0.5 at 0.25: n * x ** (n - 1) for any n."


MESSY = "y = (x * 4) * (x + 5) + x ** 3 / (x + 1) ** 2 + x ** 0.5"


@check("every grad matches nudging")
def _(code):
    Value = code.Value
    with calling("building x = Value(1.7)"):
        x = Value(1.7)

    def build():
        return (x * 4) * (x + 5) + x ** 3 / (x + 1) ** 2 + x ** 0.5

    with calling(f"computing {MESSY} while nudging x"):
        [slope] = nudge_grads(build, [x])
        y = build()
    with calling("y.backward()"):
        y.backward()
    if not close(x.grad, slope, rel=1e-5, abs_tol=1e-7):
        fail(f"With x = Value(1.7) and {MESSY}, nudging x up and down by a tiny h measures that y "
             f"moves {number(slope)} times as fast as x, but after y.backward() x.grad is "
             f"{number(x.grad)}. x reaches y along many paths, several through a power: each "
             "power must record n * x ** (n - 1).", fix=FIX)
    return f"{MESSY} at x = 1.7: all its paths add up to x.grad = {number(x.grad)}, as nudging says."


def _nodes(root):
    found, todo, ids = [], [root], set()
    while todo:
        node = todo.pop()
        if id(node) not in ids:
            ids.add(id(node))
            found.append(node)
            todo.extend(node._children)
    return found


# value_graphs' inputs, told apart from the numbers the operations wrap (1 and -1) by where they
# start: x1 = Value(1.5), x2 = Value(-0.75), x3 = Value(2.25).
INPUTS = {1.5: "x1", -0.75: "x2", 2.25: "x3"}


def _input_grads(space, args):
    """out.backward() on a generated graph, every grad at 0 first; then {"x1.grad": ..., ...}
    for each input the graph is made from, so a message names every number it shows.

    Zeroing first makes both calls on the same graph start alike, so a visited set or list kept
    from one call to the next shows.
    """
    out = args[0]
    nodes = _nodes(out)
    for node in nodes:
        node.grad = 0
    with calling("out.backward() on the generated graph"):
        out.backward()
    named = {INPUTS[node.data]: node.grad for node in nodes
             if not node._children and node.data in INPUTS}
    return {f"{name}.grad": named[name] for name in sorted(named)}


def _grads_differ(got, want):
    """Where two {"x1.grad": ...} answers part: "x1.grad is 1 but should be 110.262", or ""."""
    for key, value in want.items():
        if isinstance(got, dict) and key not in got:
            name = key.split(".")[0]
            return (f"{name} is not in out's graph any more, so backward() never reached it: an "
                    f"operation on the way made its result from numbers alone, without its "
                    "children")
        found = differ(got.get(key) if isinstance(got, dict) else got, value, path=key)
        if found:
            return found
    return ""


agrees("backward()", value_graphs(ops=("**", "*", "+", "/")), call=_input_grads,
       compare=_grads_differ, name="powers in new graphs, twice each")
