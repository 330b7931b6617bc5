"""Checks for lesson 3.4: with a visited set, each Value is listed once and gone through once.

The graphs here reuse Values. To see what the learner's visit() does, not how it is spelt, the
checks watch it run: `_Spy` children count how often visit goes down through each node, and
while topological_sort runs, Value's `__hash__` and `__eq__` are swapped for counting ones. A set
(or dict) hashes a Value to find it; a list compares it with each element in turn. So the counts
(and whether a hash came from an `in` test, read from the calling instruction) tell the classic
mistakes apart: no visited set at all, a set that is checked but never added to or added to but
never checked, one made afresh in every call, the old lines left outside the if, and a list.
"""
import dis
import sys

from linebyline.runtime import calling, check, fail, listing

NO_SEEN = ("visit() goes through x each time it reaches it, and y reaches it twice: nothing "
           "remembers which Values were visited already. Make seen, an empty set, next to "
           "order, and in visit do the work only if node is not in seen.")
NEVER_ADDED = ("visit() asks whether node is in seen, but never puts anything into seen, so the "
               "answer is always no. Put node into seen (seen.add(node)) as soon as the check "
               "lets it through, before visiting its children.")
RESET = ("seen is made afresh inside visit(), so every call starts with an empty set and forgets "
         "the Values visited before. Make seen once, in topological_sort, next to order; visit "
         "only reads it and adds to it.")
ADD_ONLY = ("visit() puts every node into seen, but never asks whether it is there already, so "
            "nothing is skipped. Check first, `if node not in seen:`, and do the rest, adding "
            "node to seen included, under that if.")
NOT_MOVED = ("visit() checks seen, but the loop over the children and the append run anyway, "
             "because they are not inside the if. Indent them one level deeper, under the if, so "
             "that a Value already in seen is skipped entirely.")
INVERTED = ("The list stays empty: visit() skips every Value. The condition is the wrong way "
            "round: do the work only if node is NOT in seen yet.")
LIST = ("The order is right, but visit() looks a Value up in a list: `node not in ...` compares "
        "node with the Values in the list one by one, {compared} times here for {n} Values. "
        "microgpt's graph for one name has 60,000 to 95,000 Values, and that would be billions "
        "of comparisons on every training step. A set finds a Value at once, however many it "
        "holds: make seen a set(), and ask it.")
REPEAT = ("visit() lists each Value once, but still goes down through a Value every time it "
          "reaches it: {expanded} times for the {n} Values of this {what}. Check seen first, "
          "before the loop, so that a Value already visited is skipped at once.")


class _Spy(tuple):
    """A node's children that count how often visit goes down through them."""

    def __new__(cls, items, counter):
        spy = super().__new__(cls, items)
        spy.counter = counter
        return spy

    def __iter__(self):
        self.counter[0] += 1
        return super().__iter__()

    def __getitem__(self, index):
        if index == 0 or index == -len(self):
            self.counter[0] += 1
        return super().__getitem__(index)


def _nodes(root):
    """Every Value under root, root included, each once (found without the learner's code)."""
    found, todo, ids = [], [root], set()
    while todo:
        node = todo.pop()
        if id(node) not in ids:
            ids.add(id(node))
            found.append(node)
            todo.extend(node._children)
    return found


def _watched(code, root, call):
    """Run topological_sort(root) and count what it did.

    Returns (order, how often children were gone through, (hashes for `in`, other hashes), how
    often two Values were compared with ==).
    """
    Value = code.Value
    expanded, hashes, compares = [0], [0, 0], [0]
    for node in _nodes(root):
        node._children = _Spy(node._children, expanded)
    had_hash, had_eq = "__hash__" in Value.__dict__, "__eq__" in Value.__dict__
    old_hash, old_eq = Value.__dict__.get("__hash__"), Value.__dict__.get("__eq__")

    def counted_hash(self):
        # Was this a membership test (`node in seen`) or something else (`seen.add(node)`)?
        caller = sys._getframe(1)
        asked = dis.opname[caller.f_code.co_code[caller.f_lasti]] == "CONTAINS_OP"
        hashes[0 if asked else 1] += 1
        return object.__hash__(self)

    def counted_eq(self, other):
        compares[0] += 1
        return self is other

    Value.__hash__, Value.__eq__ = counted_hash, counted_eq
    try:
        with calling(call):
            order = code.topological_sort(root)
    except RecursionError:
        fail(f"`{call}` never finished: it raised RecursionError, because visit keeps calling "
             "itself on the same Value. Visit each child, `visit(child)`, and only the Values "
             "not in seen yet.")
    except UnboundLocalError as error:
        if "seen" not in str(error) and "order" not in str(error):
            raise
        fail(f"`{call}` raised UnboundLocalError: visit assigns to seen or order (with `= ...` or "
             "`+= ...`), and a name assigned inside a function is a new name of that function. "
             "Make both in topological_sort, and in visit only change them: seen.add(node), "
             "order.append(node).")
    finally:
        for name, had, old in (("__hash__", had_hash, old_hash), ("__eq__", had_eq, old_eq)):
            if had:
                setattr(Value, name, old)
            else:
                delattr(Value, name)
    if not isinstance(order, (list, tuple)):
        fail(f"`{call}` should return the list order, but returned {type(order).__name__}. Keep "
             "the given last line, `return order`.")
    return list(order), expanded[0], tuple(hashes), compares[0]


def _diagnose(code):
    """What is wrong, told from what visit() does on y = x * x; or ''."""
    x = code.Value(3.0)
    y = x * x
    order, _, hashes, compares = _watched(code, y, "topological_sort(y)")
    names = ["x" if node is x else "y" if node is y else "?" for node in order]
    if not names:
        return INVERTED if sum(hashes) else ""
    if names == ["x", "x", "y"]:  # (membership tests, other uses) of the hash, on 3 calls
        return {(0, 0): NO_SEEN, (3, 0): NEVER_ADDED, (0, 3): ADD_ONLY, (3, 3): RESET,
                (3, 2): NOT_MOVED}.get(hashes, "")
    return ""


def _judge(code, order, nodes, labels, call):
    """Fail unless order holds each node once, after its children; say what is wrong."""
    name = {id(node): label for node, label in zip(nodes, labels)}
    shown = "[" + ", ".join(name.get(id(node), "?") for node in order) + "]"
    twice = [label for node, label in zip(nodes, labels) if sum(n is node for n in order) > 1]
    missing = [label for node, label in zip(nodes, labels) if not any(n is node for n in order)]
    problem = ""
    if twice:
        problem = f"{listing(twice)} {'is' if len(twice) == 1 else 'are'} listed more than once."
    elif missing:
        problem = f"{listing(missing)} {'is' if len(missing) == 1 else 'are'} missing."
    elif any(id(node) not in name for node in order):
        problem = "It holds something that is not a Value of this graph."
    else:
        position = {id(node): index for index, node in enumerate(order)}
        for node in order:
            late = [c for c in node._children if position[id(c)] > position[id(node)]]
            if late:
                problem = f"{name[id(node)]} comes before its child {name[id(late[0])]}."
                break
    if problem:
        why = _diagnose(code) or ("Each Value must come once, after its children: skip a Value "
                                  "that is in seen already, else add it to seen, visit its "
                                  "children, then append it.")
        fail(f"`{call}` gave {shown}. {problem} {why}")


@check("a Value used twice is listed once")
def _(code):
    x = code.Value(3.0)
    y = x * x
    order, *_ = _watched(code, y, "topological_sort(y)")
    _judge(code, order, [x, y], ["x", "y"], "topological_sort(y)` with `y = x * x")


@check("shared Values in a bigger graph")
def _(code):
    V = code.Value
    a, b, c = V(2.0), V(-3.0), V(10.0)
    e = a * b
    d = e + c
    L = d * e
    order, *_ = _watched(code, L, "topological_sort(L)")
    _judge(code, order, [a, b, c, e, d, L], ["a", "b", "c", "e", "d", "L"],
           "topological_sort(L)` with `e = a * b`, `d = e + c`, `L = d * e")


LADDER = 12


@check("a deep ladder is gone through once")
def _(code):
    V = code.Value
    step = V(1.0)
    rungs = [step]
    for _ in range(LADDER):
        step = step + step
        rungs.append(step)
    call = f"topological_sort(top)` on the ladder `x1 = x0 + x0, ..., top = x{LADDER} = " \
           f"x{LADDER - 1} + x{LADDER - 1}"
    order, expanded, *_ = _watched(code, step, call)
    _judge(code, order, rungs, [f"x{k}" for k in range(LADDER + 1)], call)
    if expanded > 2 * len(rungs):
        fail(REPEAT.format(expanded=f"{expanded:,}", n=len(rungs),
                           what="ladder, a number that doubles at every step"))


@check("seen is a set")
def _(code):
    V = code.Value
    x = V(1.0)
    for k in range(120):
        x = x * 1.01 + k
    n = len(_nodes(x))
    _, _, _, compares = _watched(code, x, f"topological_sort(x)`, with `x` a chain of {n} Values "
                                          "built by `x = x * 1.01 + k")
    if compares > n:
        fail(LIST.format(compared=f"{compares:,}", n=f"{n:,}"))


MESSY = ("u = x * y + z ** 3, v = u * u + x, w = (x - z) * v, out = v * w / (1 + y) + "
         "w * w - 2 / z + u")


@check("a messy graph, each Value once")
def _(code):
    V = code.Value
    with calling(f"building {MESSY}"):
        x, y, z = V(1.5), V(-0.8), V(0.6)
        u = x * y + z ** 3
        v = u * u + x
        w = (x - z) * v
        out = v * w / (1 + y) + w * w - 2 / z + u
    nodes = _nodes(out)
    labels = [{id(x): "x", id(y): "y", id(z): "z", id(u): "u", id(v): "v", id(w): "w",
               id(out): "out"}.get(id(node), f"a node with data {node.data:.4g}") for node in nodes]
    order, expanded, *_ = _watched(code, out, "topological_sort(out)")
    _judge(code, order, nodes, labels, f"topological_sort(out)` with `{MESSY}")
    if expanded > 2 * len(nodes):
        fail(REPEAT.format(expanded=f"{expanded:,}", n=len(nodes), what="graph"))
    return (f"All {len(nodes)} Values of out, each once and after its children; visit went down "
            f"through each of them once.")
