"""Checks for lesson 4.4, The chain rule: backward() hands each child local_grad times node.grad.

Each check builds a graph with the learner's Value, calls backward() and reads the grads. Along a
chain the right grads are the products of the local rates; the classic slips each leave numbers
of their own, worked out here the same way the learner's line would: the counts of 3.5 (the old
line kept), the rates added instead of multiplied, the local rate alone, `=` in place of `+=`.
The line to write is held back in `fix`. Then every grad is compared with nudging, and
backward() with ours on new graphs, each walked twice.
"""
from linebyline.runtime import (
    agrees,
    calling,
    check,
    close,
    differ,
    fail,
    mismatches,
    nudge_grads,
    number,
    require_own,
    value_graphs,
)

FIX = "Multiply the two rates, and add: `child.grad += local_grad * node.grad`."

# What each slip's line does with (child's grad so far, local_grad, node.grad).
SLIPS = {
    "counts": lambda old, local, node: old + node,
    "added": lambda old, local, node: old + local + node,
    "local only": lambda old, local, node: old + local,
    "assigned": lambda old, local, node: local * node,
}
WHY = {
    "counts": ("Your walk hands each child node.grad itself, as 3.5 handed on counts of paths: "
               "every node below self gets 1 here, whatever the rates. A path now carries a rate "
               "that each step scales: the local rate of the step times node.grad."),
    "added": ("Your line adds local_grad and node.grad. Along a chain, rates multiply: if node "
              "moves local_grad times as fast as child, and self moves node.grad times as fast as "
              "node, then self moves local_grad × node.grad times as fast as child."),
    "local only": ("Each child got its own local rate only, the rate of one step: the rest of the "
                   "chain, up to self, is missing. node.grad is how fast self moves with node; "
                   "the child's rate is that times the local rate."),
    "assigned": ("A Value used twice keeps only the share handed over last: the second share "
                 "replaced the first instead of adding to it. In 3.5 the counts of two users "
                 "added up; rates do the same, as lesson 4.5 shows."),
}


def _nodes(root):
    """Every node under root, root included, each once."""
    found, todo, ids = [], [root], set()
    while todo:
        node = todo.pop()
        if id(node) not in ids:
            ids.add(id(node))
            found.append(node)
            todo.extend(node._children)
    return found


def _walk(root, slip):
    """The grads `slip`'s line leaves after root.backward(): the walk of the given code."""
    order, seen = [], set()

    def visit(node):
        if id(node) not in seen:
            seen.add(id(node))
            for child in node._children:
                visit(child)
            order.append(node)

    visit(root)
    grad = {id(node): 0 for node in order}
    grad[id(root)] = 1
    for node in reversed(order):
        for child, local in zip(node._children, node._local_grads):
            grad[id(child)] = SLIPS[slip](grad[id(child)], local, grad[id(node)])
    return grad


def _judge(code, out, names, built):
    """out.backward() must leave every named node its rate; else say which slip it was."""
    with calling(f"{built}, then out.backward()" if built else "out.backward()"):
        out.backward()
    want = {name: _rate(out, node) for name, node in names.items()}
    got = {name: node.grad for name, node in names.items()}
    wrong = mismatches(got, want, label="{}.grad")
    if not wrong:
        return
    seen = f"With {built}, after {_top(names)}.backward(): {wrong}."
    for slip in SLIPS:
        left = _walk(out, slip)
        if all(close(node.grad, left[id(node)]) for node in names.values()):
            fail(f"{seen} {WHY[slip]}", fix=FIX)
    if all(close(node.grad, 0) for name, node in names.items() if node is not out):
        fail(f"{seen} No Value below the output got anything but 0: the line in the walk hands "
             "nothing on, or only something that is still 0 when it is handed on (child.grad "
             "itself is 0 until the child's users have handed it their shares).", fix=FIX)
    fail(f"{seen} Each child must get local_grad times node.grad, added to what it has.",
         fix=FIX)


def _rate(root, target):
    """How fast root moves when target moves: the sum over paths of the products of rates."""
    total = 0.0

    def down(node, rate):
        nonlocal total
        if node is target:
            total += rate
        for child, local in zip(node._children, node._local_grads):
            down(child, rate * local)

    down(root, 1.0)
    return total


def _top(names):
    return next(iter(names))


@check("one step gets its local rate")
def _(code):
    require_own(code.Value, "backward")
    Value = code.Value
    with calling("building x = Value(2.0), y = x * 3"):
        x = Value(2.0)
        y = x * 3
    _judge(code, y, {"y": y, "x": x}, "x = Value(2.0), y = x * 3")
    return "y = x * 3: y moves 3 times as fast as x, the local rate mul recorded for x."


@check("a chain multiplies its rates")
def _(code):
    Value = code.Value
    built = "x = Value(1.0), u = x * 3, v = u + 1, y = v ** 2"
    with calling(f"building {built}"):
        x = Value(1.0)
        u = x * 3
        v = u + 1
        y = v ** 2
    _judge(code, y, {"y": y, "v": v, "u": u, "x": x}, built)
    return "y = (3x + 1)² at x = 1: the rates 8, 1 and 3 multiply to x.grad = 24."


CHAIN = "y = (((x * 2 - 1) ** 3) * 0.25 + 1) ** -1"


@check("a longer chain matches nudging")
def _(code):
    Value = code.Value
    with calling("building x = Value(1.3)"):
        x = Value(1.3)

    def build():
        return (((x * 2 - 1) ** 3) * 0.25 + 1) ** -1

    with calling(f"computing {CHAIN} while nudging x"):
        [slope] = nudge_grads(build, [x])
        y = build()
    with calling("y.backward()"):
        y.backward()
    if not close(x.grad, slope, rel=1e-5, abs_tol=1e-7):
        fail(f"With x = Value(1.3) and {CHAIN}, nudging x up and down by a tiny h measures that y "
             f"moves {number(slope)} times as fast as x, but after y.backward() x.grad is "
             f"{number(x.grad)}. Along a chain every step scales the rate: each child must get "
             "local_grad times node.grad.", fix=FIX)
    return f"{CHAIN} at x = 1.3: x.grad = {number(x.grad)}, as nudging measures."


@check("a Value used twice still adds up its shares")
def _(code):
    Value = code.Value
    built = "a = Value(2), b = Value(-3), c = Value(10), e = a * b, d = e + c, L = d * e"
    with calling(f"building {built}"):
        a, b, c = Value(2), Value(-3), Value(10)
        e = a * b
        d = e + c
        L = d * e
    _judge(code, L, {"L": L, "d": d, "e": e, "c": c, "a": a, "b": b}, built)
    return "e is used by d and by L: its two shares, 4 and -6, add up to -2."


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


agrees("backward()", value_graphs(), call=_input_grads, compare=_grads_differ,
       name="backward() on new graphs, twice each")
