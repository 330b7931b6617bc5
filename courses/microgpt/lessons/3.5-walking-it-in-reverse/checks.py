"""Checks for lesson 3.5: backward() sorts the graph below self and walks it in reverse, so that
every Value's grad ends up as the number of paths from it up to self.

The counts are compared with paths counted independently (`_paths`, which follows the children
down from self without any sorting). When they are off, the check works out what the usual
slips would have given (walking forwards; no sort at all) and says which one it was. `_Spy`
children note whether visit() ran before self.grad was set, to tell "the walk is still the
placeholder" from "visit(self) comes after the walk".
"""
from linebyline.runtime import calling, check, fail, mismatches

NO_VISIT = ("order stayed empty, so the walk had nothing to walk and no Value got a count. Call "
            "visit on self first, `visit(self)`, so that order lists every Value below self, each "
            "after its children.")
VISIT_LATE = ("visit(self) runs after the walk: the walk went through order while it was still "
              "empty, and only then was the graph sorted. Sort first: put visit(self) before "
              "`self.grad = 1` and the loop.")
NOT_WALKED = ("visit(self) sorted the graph, but no Value handed its count on: the loop walks "
              "nothing yet. Walk order from its last entry (self) back to its first: "
              "`for node in reversed(order):`.")
SELF_SKIPPED = ("The walk ran, but no Value below self got a count. Does the walk start at self? "
                "self is the last entry of order and the only one with a count at first, so it "
                "must be walked too: `for node in reversed(order):`, all of it.")
FORWARDS = ("The walk goes through order forwards, leaves first, so each Value hands its count on "
            "before the Values that use it have handed theirs to it: {early} passed on 0. Walk it "
            "backwards, from self down: `for node in reversed(order):`.")
REVERSE_NONE = ("`order.reverse()` turns the list around in place and gives back None, so the for "
                "loop had nothing to walk through (TypeError: 'NoneType' object is not "
                "iterable). Walk a reversed view instead: `for node in reversed(order):`, or "
                "`order[::-1]`.")
SORTED = ("sorted() puts Values in order by comparing them with <, which Value does not have "
          "(TypeError). You do not need to sort again: order is sorted already. Walk it "
          "backwards with `for node in reversed(order):`.")


class _Spy(tuple):
    """A node's children; notes in `log` whether the output's grad was still 0 when read."""

    def __new__(cls, items, log, root):
        spy = super().__new__(cls, items)
        spy.log, spy.root = log, root
        return spy

    def __iter__(self):
        self.log.append(self.root.grad)
        return super().__iter__()


def _nodes(root):
    found, todo, ids = [], [root], set()
    while todo:
        node = todo.pop()
        if id(node) not in ids:
            ids.add(id(node))
            found.append(node)
            todo.extend(node._children)
    return found


def _paths(root):
    """How many paths lead from each node up to root: counted down from root, one path at a time."""
    count = {}

    def down(node):  # one more path reaches node; follow it on to every child
        count[id(node)] = count.get(id(node), 0) + 1
        for child in node._children:
            down(child)

    down(root)
    return count


def _forwards(root):
    """The counts a forwards walk (leaves first) would leave: what `for node in order:` gives."""
    order, seen = [], set()

    def visit(node):
        if id(node) not in seen:
            seen.add(id(node))
            for child in node._children:
                visit(child)
            order.append(node)

    visit(root)
    count = {id(node): 0 for node in order}
    count[id(root)] = 1
    early = []
    for node in order:
        if node._children and count[id(node)] == 0:
            early.append(node)
        for child in node._children:
            count[id(child)] += count[id(node)]
    return count, early


def _backward(code, root, call, nodes):
    """Run root.backward() with spied children; returns what visit saw of root.grad."""
    log, kept = [], [node._children for node in nodes]
    for node in nodes:
        node._children = _Spy(node._children, log, root)
    try:
        with calling(call):
            root.backward()
    except UnboundLocalError as error:
        if "'node'" not in str(error):
            raise
        fail(f"`{call}` raised UnboundLocalError: backward() uses `node` before the for loop that "
             "gives node its value (Python treats node as a name of backward that is not set "
             "yet). Above the loop, the Value to start from is self: `visit(self)`.")
    except TypeError as error:
        text = str(error)
        if "'NoneType' object is not iterable" in text:
            fail(REVERSE_NONE)
        if "'<' not supported" in text or "'>' not supported" in text:
            fail(SORTED)
        raise
    finally:
        for node, children in zip(nodes, kept):
            node._children = children
    return log


def _judge(code, root, names, call):
    """backward() on root must give every named node its number of paths up to root."""
    nodes = _nodes(root)
    log = _backward(code, root, f"{call}.backward()", nodes)
    want = _paths(root)
    got = {name: node.grad for name, node in names.items()}
    wrong = mismatches(got, {name: want[id(node)] for name, node in names.items()},
                       label="{}.grad")
    if not wrong:
        return
    seen = f"After {call}.backward(), {wrong} (the number of paths from each up to {call})."
    below = [node for node in nodes if node is not root]
    if all(node.grad == 0 for node in below):
        if not log:
            fail(f"{seen} {NO_VISIT}")
        if all(value == 0 for value in log):
            fail(f"{seen} {NOT_WALKED}")
        if all(value == 1 for value in log):
            fail(f"{seen} {VISIT_LATE}")
        fail(f"{seen} {SELF_SKIPPED}")
    forwards, early = _forwards(root)
    if early and all(node.grad == forwards[id(node)] for node in nodes):
        label = {id(node): name for name, node in names.items()}
        first = next((label[id(node)] for node in early if id(node) in label), "a Value")
        fail(f"{seen} {FORWARDS.format(early=first)}")
    fail(f"{seen} Walk order backwards, from self down, and let each Value add its count to each "
         "of its children: `child.grad += node.grad` is given, so check the two lines you wrote.")


@check("backward() counts from self")
def _(code):
    V = code.Value
    with calling("building a = Value(2.0), b = Value(-3.0), e = a * b"):
        a, b = V(2.0), V(-3.0)
        e = a * b
    _judge(code, e, {"e": e, "a": a, "b": b}, "e")


@check("a Value used twice counts two paths")
def _(code):
    V = code.Value
    with calling("building x = Value(3.0), y = x * x"):
        x = V(3.0)
        y = x * x
    _judge(code, y, {"y": y, "x": x}, "y")
    with calling("building a = Value(2), b = Value(-3), c = Value(10), e = a * b, d = e + c, "
                 "L = d * e"):
        a, b, c = V(2), V(-3), V(10)
        e = a * b
        d = e + c
        L = d * e
    _judge(code, L, {"L": L, "d": d, "e": e, "c": c, "a": a, "b": b}, "L")


MESSY = ("u = x * y + z, v = u * u + x, w = (x - z) * v, out = v * w + w * u - 2 * x")


@check("every count matches the paths, counted one by one")
def _(code):
    V = code.Value
    with calling(f"building x = Value(1.5), y = Value(-0.8), z = Value(0.6), {MESSY}"):
        x, y, z = V(1.5), V(-0.8), V(0.6)
        u = x * y + z
        v = u * u + x
        w = (x - z) * v
        out = v * w + w * u - 2 * x
    names = {"out": out, "w": w, "v": v, "u": u, "x": x, "y": y, "z": z}
    _judge(code, out, names, "out")
    total = _paths(out)
    return (f"Every count agrees with the paths counted one by one: x is reached by "
            f"{total[id(x)]} paths, y by {total[id(y)]}, z by {total[id(z)]}.")
