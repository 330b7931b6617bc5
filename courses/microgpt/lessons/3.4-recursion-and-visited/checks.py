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

from linebyline.runtime import Case, agrees, calling, check, fail, listing, plural

NO_SEEN = ("visit() goes through a Value again each time it reaches it, so a Value that two "
           "others use (or one uses twice) is listed twice: nothing remembers which Values were "
           "visited already. seen has to be made next to order, as an empty set, and visit may "
           "do its work only for a Value not in seen yet.")
NO_SEEN_FIX = ("Make the set next to the list, `order, seen = [], set()`, then start visit "
               "with `if node not in seen:` and `seen.add(node)`, with the old three lines "
               "under the if.")
NEVER_ADDED = ("visit() asks whether node is in seen, but never puts anything into seen, so the "
               "answer is always no. A Value has to go into seen as soon as the check lets it "
               "through, before its children are visited.")
NEVER_ADDED_FIX = "Right under the `if`, write `seen.add(node)`."
RESET = ("seen is made afresh inside visit(), so every call starts with an empty set and forgets "
         "the Values visited before. It has to be made once, in topological_sort, next to order; "
         "visit only reads it and adds to it.")
RESET_FIX = "Move the set out of visit: `order, seen = [], set()` in topological_sort."
ADD_ONLY = ("visit() puts every node into seen, but never asks whether it is there already, so "
            "nothing is skipped. The question has to come first, with everything else visit does "
            "(adding node to seen included) under it.")
ADD_ONLY_FIX = "Start visit with `if node not in seen:` and indent the rest under it."
NOT_MOVED = ("visit() checks seen, but the loop over the children and the append run anyway, "
             "because they are not inside the if: a Value already in seen is gone through again.")
NOT_MOVED_FIX = "Indent the `for child` loop and `order.append(node)` one level, under the if."
INVERTED = ("The list stays empty: visit() skips every Value. The condition is the wrong way "
            "round: the work must be done only for a Value that is NOT in seen yet.")
INVERTED_FIX = "Turn the test around: `if node not in seen:`."
NO_APPEND = ("The list stays empty, though visit() went through the Values and put them into "
             "seen: nothing puts a Value into order. After its children are visited, under the "
             "if, node itself has to join the list.")
NO_APPEND_FIX = "After the loop over the children, inside the if: `order.append(node)`."
LIST = ("The order is right, but visit() looks a Value up in a list: asking a list whether it "
        "holds node compares node with the Values in it one by one, {compared} times here for "
        "{n} Values. microgpt's graph for one name has tens of thousands of Values, and that "
        "would be billions of comparisons on every training step. A set finds a Value at once, "
        "however many it holds.")
LIST_FIX = "Make seen a set: `order, seen = [], set()`, and add to it with `seen.add(node)`."
REPEAT = ("visit() lists each Value once, but still goes down through a Value every time it "
          "reaches it: {expanded} times for the {n} Values of this {what}. seen has to be asked "
          "first, before the loop, so that a Value already visited is skipped at once.")
REPEAT_FIX = ("Start visit with `if node not in seen:` and `seen.add(node)`, with the loop and "
              "the append under the if.")
ASSIGNED = ("raised UnboundLocalError: visit assigns to seen or order (with `= ...` or `+= "
            "...`), and a name assigned inside a function is a new name of that function. Both "
            "have to be made in topological_sort; visit only changes them.")
ASSIGNED_FIX = "In visit, change them without assigning: `seen.add(node)`, `order.append(node)`."
SAME_NUMBER = ("Two different Values of this graph both hold {number}, and only one of them is "
               "listed: seen remembers numbers, not Values. Two Values with the same number are "
               "still two nodes of the graph.")
SAME_NUMBER_FIX = "Put the Value itself into seen, `seen.add(node)`, and ask `node not in seen`."
FIXES = {NO_SEEN: NO_SEEN_FIX, NEVER_ADDED: NEVER_ADDED_FIX, RESET: RESET_FIX,
         ADD_ONLY: ADD_ONLY_FIX, NOT_MOVED: NOT_MOVED_FIX, INVERTED: INVERTED_FIX,
         NO_APPEND: NO_APPEND_FIX}


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
             "itself on the same Value. Each call has to be about a child, one step further "
             "down, and only for Values not in seen yet.",
             fix="In the loop, write `visit(child)`, not `visit(node)`.")
    except UnboundLocalError as error:
        if "seen" not in str(error) and "order" not in str(error):
            raise
        fail(f"`{call}` {ASSIGNED}", fix=ASSIGNED_FIX)
    finally:
        for name, had, old in (("__hash__", had_hash, old_hash), ("__eq__", had_eq, old_eq)):
            if had:
                setattr(Value, name, old)
            else:
                delattr(Value, name)
    if not isinstance(order, (list, tuple)):
        fail(f"`{call}` should return the list order, but returned {type(order).__name__}. The "
             "starter's last line gives it back: is it still there?",
             fix="Keep the last line: `return order`.")
    return list(order), expanded[0], tuple(hashes), compares[0]


def _diagnose(code):
    """What is wrong, told from what visit() does on y = x * x; or ''."""
    x = code.Value(3.0)
    y = x * x
    order, _, hashes, compares = _watched(code, y, "topological_sort(y)")
    names = ["x" if node is x else "y" if node is y else "?" for node in order]
    if not names:  # nothing listed: the test skips every Value, or nothing appends
        if hashes[0] and not hashes[1]:
            return INVERTED
        return NO_APPEND if hashes[1] else ""
    if names == ["x", "x", "y"]:  # (membership tests, other uses) of the hash, on 3 calls
        return {(0, 0): NO_SEEN, (3, 0): NEVER_ADDED, (0, 3): ADD_ONLY, (3, 3): RESET,
                (3, 2): NOT_MOVED}.get(hashes, "")
    return ""



def _few(names, most=6):
    """'a, b and c', or 'a, b, c, d, e and 7 more' past `most` names."""
    names = list(names)
    if len(names) > most:
        return listing(names[:most - 1] + [f"{len(names) - most + 1} more"])
    return listing(names)


def _order_text(order, label, most=16):
    """The sorted list by the nodes' names; past `most` entries, cut with its length."""
    items = [label.get(id(node), "?") for node in order[:most]]
    more = f", ... ({len(order)} entries in all)" if len(order) > most else ""
    return "[" + ", ".join(items) + more + "]"


def _judge(code, order, nodes, labels, call):
    """Fail unless order holds each node once, after its children; say what is wrong."""
    name = {id(node): label for node, label in zip(nodes, labels)}
    shown = _order_text(order, name)
    twice = [label for node, label in zip(nodes, labels) if sum(n is node for n in order) > 1]
    missing = [label for node, label in zip(nodes, labels) if not any(n is node for n in order)]
    problem = ""
    if twice:
        problem = f"{_few(twice)} {'is' if len(twice) == 1 else 'are'} listed more than once."
    elif missing:
        problem = f"{_few(missing)} {'is' if len(missing) == 1 else 'are'} missing."
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
        why = _diagnose(code)
        if not why and missing:
            listed = {node.data for node in order}
            twins = [node for node in nodes
                     if not any(n is node for n in order) and node.data in listed]
            if twins:
                fail(f"`{call}` gave {shown}. {problem} "
                     + SAME_NUMBER.format(number=f"{twins[0].data:g}"), fix=SAME_NUMBER_FIX)
        why = why or ("Each Value must come once, after its children: skip a Value that is in "
                      "seen already, else add it to seen, visit its children, then append it.")
        fail(f"`{call}` gave {shown}. {problem} {why}", fix=FIXES.get(why, ""))


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
                           what="ladder, a number that doubles at every step"), fix=REPEAT_FIX)


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
        fail(LIST.format(compared=f"{compares:,}", n=f"{n:,}"), fix=LIST_FIX)


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
        fail(REPEAT.format(expanded=f"{expanded:,}", n=len(nodes), what="graph"), fix=REPEAT_FIX)
    return (f"All {len(nodes)} Values of out, each once and after its children; visit went down "
            f"through each of them once.")


# --- the differential check: new graphs that reuse Values, bigger and deeper than above -----

LEAVES = (2.0, 3.0, -1.0, 0.5, 2.0)  # 2.0 twice: two different leaves often hold the same number
_LABELS = {}  # id of a node of a generated graph -> its name in the case's text (x1, n3, ...)


def _graph_plan(rng, size):
    """A graph of `size` operations that reuses its Values: (the leaves' numbers, [(op, left,
    right), ...]). Each operation takes one of the last few Values made (so the graph is deep)
    and any Value made before, or a new leaf; `a * a` (a Value used twice by one node) comes up
    too. The last Value made is the output; every Value made is below it."""
    leaves, steps, names = [], [], []

    def leaf():
        leaves.append(rng.choice(LEAVES))
        names.append(f"x{len(leaves)}")
        return names[-1]

    leaf()
    leaf()
    while len(steps) < size:
        left = names[rng.randrange(max(0, len(names) - 3), len(names))]
        roll = rng.random()
        right = left if roll < 0.15 else leaf() if roll < 0.45 else rng.choice(names)
        steps.append((rng.choice("+*"), left, right))
        names.append(f"n{len(steps)}")
    used = {name for _, left, right in steps for name in (left, right)}
    for name in names[:-1]:  # a Value nothing uses yet joins the output
        if name not in used:
            steps.append((rng.choice("+*"), f"n{len(steps)}", name))
            used.add(name)
    return leaves, steps


def _graph_text(leaves, steps):
    made = [f"x{i + 1} = Value({leaf:g})" for i, leaf in enumerate(leaves)]
    made += [f"n{i + 1} = {left} {op} {right}" for i, (op, left, right) in enumerate(steps)]
    top = f"n{len(steps)}"
    if len(made) <= 12:
        return f"the graph {top} where {', '.join(made)}"
    return (f"the graph {top} of {len(leaves) + len(steps)} Values, where {', '.join(made[:5])}, "
            f"..., {made[-1]}")


_CASE = {"text": "the graph"}  # the case being tried, for a message told while sorting it


def _build_graph(space, leaves, steps):
    _CASE["text"] = _graph_text(leaves, steps)
    Value = space.Value
    made = {}
    for index, number in enumerate(leaves):
        made[f"x{index + 1}"] = Value(number)
    for index, (op, left, right) in enumerate(steps):
        a, b = made[left], made[right]
        made[f"n{index + 1}"] = a + b if op == "+" else a * b
    for name, node in made.items():
        _LABELS[id(node)] = name
    return (made[f"n{len(steps)}"],)


def _graphs(rng):
    """Graphs of 3 to 100 operations: the last two bigger and deeper than the examples above."""
    for size, note in ((3, ""), (6, ""), (12, ""), (40, "a graph deeper than the examples"),
                       (100, "a graph of more than 100 Values")):
        leaves, steps = _graph_plan(rng, size)
        yield Case(_graph_text(leaves, steps),
                   lambda space, leaves=leaves, steps=steps: _build_graph(space, leaves, steps),
                   note)


def _shape(root):
    """Every node under root, each once, and its children: [(node, (child, ...)), ...]."""
    found, todo, ids = [], [root], set()
    while todo:
        node = todo.pop()
        if id(node) not in ids:
            ids.add(id(node))
            children = tuple(node._children)
            found.append((node, children))
            todo.extend(children)
    return found


class _Sorted:
    """What topological_sort gave for one graph, with the graph's shape before and after the call.

    `data` is what a message shows of it: the names of the listed nodes, in their order.
    """

    def __init__(self, order, root, before, after):
        self.order, self.root, self.before, self.after = order, root, before, after
        self.data = ([_LABELS.get(id(node), "?") for node in order]
                     if isinstance(order, (list, tuple)) else order)


def _sorted(space, args):
    root = args[0]
    before = _shape(root)
    order = space.topological_sort(root)
    robbed = _robbed(before, _shape(root))
    if robbed:  # told here, whatever the order: the two lists may well look alike
        first = min(robbed, key=lambda node: _label_key(_LABELS.get(id(node), "?")))
        had = listing(_LABELS.get(id(child), "?") for child in dict(before)[first])
        fail(f"`topological_sort` on {_CASE['text']} took the children away from "
             f"{_names(robbed)} ({_names([first])} was made from {had}): after the call, "
             f"{_names([first])} has no children any more. topological_sort must leave the graph "
             "as it found it, because whoever called it goes on using the graph: backward() "
             "walks it next.")
    return _Sorted(order, root, before, _shape(root))


def _robbed(before, after):
    """The nodes whose children are not what they were before the call."""
    kept = {id(node): children for node, children in after}
    return [node for node, children in before
            if [id(c) for c in kept.get(id(node), ())] != [id(c) for c in children]]


def _label_key(label):
    """x1, x2, ... (the leaves) first, then n1, n2, ...: the order the case's text makes them."""
    return (label[:1] != "x", int(label[1:]) if label[1:].isdigit() else 0)


def _names(nodes, most=4):
    """The nodes' names in the order the case's text makes them; at most `most` of them."""
    labels = sorted((_LABELS.get(id(node), "?") for node in nodes), key=_label_key)
    if len(labels) > most:
        return f"{', '.join(labels[:most - 1])} and {len(labels) - most + 1} more"
    return listing(labels)


def _sort_problem(got, want):
    """Where got stops being a topological order of its graph (any right order passes), or ''."""
    order = got.order
    if not isinstance(order, (list, tuple)):
        return "it should be a list of the graph's Values"
    nodes = [node for node, _ in got.before]
    position = {}
    for index, node in enumerate(order):
        position.setdefault(id(node), index)
    listed = {id(node) for node in nodes}
    missing = [node for node in nodes if id(node) not in position]
    twice = [node for node in nodes if sum(item is node for item in order) > 1]
    if not order:
        return f"the list is empty, but the graph has {plural(len(nodes), 'Value')}"
    if missing:
        return (f"{_names(missing)} {'is' if len(missing) == 1 else 'are'} missing: the graph "
                f"has {plural(len(nodes), 'Value')}, the list {len(order)}")
    if twice:
        return f"{_names(twice)} {'is' if len(twice) == 1 else 'are'} listed more than once"
    if any(id(node) not in listed for node in order):
        return "it holds something that is not a Value of this graph"
    for node in order:
        late = [child for child in node._children if position[id(child)] > position[id(node)]]
        if late:
            return (f"{_names([node])} comes before its child {_names(late[:1])}, but a node can "
                    "only be worked out once its children are")
    return ""


agrees("topological_sort", _graphs, call=_sorted, compare=_sort_problem,
       name="topological_sort on new graphs, twice each")
