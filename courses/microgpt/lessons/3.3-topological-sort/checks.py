"""Checks for lesson 3.3: topological_sort(root) lists every node after its children.

Every graph here is a tree (no Value is used twice): the visited set that handles shared Values
comes in 3.4. Any right order passes, not only the depth-first one: each node exactly once,
after all its children. When an order is wrong, `_diagnose` sorts a probe tree and recognises
the classic mistakes by the order they leave (before the children, inside the loop, no
recursion, back to front), so the message says what was measured; the line to change is held
back in `fix`.

The last check compares topological_sort with ours on new trees, bigger and deeper than the
examples, each sorted twice: a visited set kept outside the function lists nothing the second
time, and a sort that takes the children away changes the tree it was given. A tree has many
right orders, so `_sort_problem` accepts any of them and says exactly what breaks a wrong one.
"""
from linebyline.runtime import Case, agrees, calling, check, fail, listing, plural

PROBE = "out = (a * b + c) * f"
RIGHT = ["a", "b", "p", "c", "q", "f", "out"]  # p = a * b, q = p + c

PREORDER = ("visit() adds node to order before its children, so each node lands before the "
            "Values it was made from: the output comes first. A node may only be added once the "
            "loop over its children has ended, when all of them (and theirs) are in the list.")
PREORDER_FIX = "Move `order.append(node)` below the `for child` loop, at the level of the `for`."
INSIDE = ("The line that adds the node to order runs inside the loop over the children: a node "
          "is added once per child, and a leaf, which has no children, is never added. It has "
          "to run once, after the loop.")
INSIDE_FIX = "Un-indent `order.append(node)` one level, so it runs once, after the loop."
NO_RECURSION = ("Only the Value sorted and its own children are in the list, not their children: "
                "the loop adds each child itself instead of visiting it, so visit never goes "
                "further down than one step.")
NO_RECURSION_FIX = "In the loop, call `visit(child)` instead of adding the child to order."
FRONT = ("The list is back to front: every node comes before its children, and the output "
         "first. Each node goes in at the front of order instead of at its end.")
FRONT_FIX = "Add each node at the end of the list: `order.append(node)`."
NEVER = ("The list stays empty: visit() never adds anything to order. After the loop over the "
         "children, the node itself has to go in.")
NEVER_FIX = "After the `for child` loop, write `order.append(node)`."
SAME_NODE = ("topological_sort never finished: it raised RecursionError, because visit keeps "
             "calling itself on the same node, which never gets any closer to a leaf. Each call "
             "has to be about a child, one step further down.")
SAME_NODE_FIX = "In the loop, write `visit(child)`, not `visit(node)`."
ASSIGNED = ("raised UnboundLocalError: visit assigns to order (with `order = ...` or `order += "
            "...`), and a name assigned inside a function is a new name of that function, not "
            "the list of topological_sort. Change the list instead of assigning to it.")
ASSIGNED_FIX = "Add to the list without assigning to it: `order.append(node)`."
FIXES = {PREORDER: PREORDER_FIX, INSIDE: INSIDE_FIX, NO_RECURSION: NO_RECURSION_FIX,
         FRONT: FRONT_FIX, NEVER: NEVER_FIX}


def _sort(code, root, call):
    """The learner's topological_sort(root), as a list; the classic crashes become sentences."""
    try:
        with calling(call):
            order = code.topological_sort(root)
    except RecursionError:
        fail(SAME_NODE, fix=SAME_NODE_FIX)
    except UnboundLocalError as error:
        if "order" not in str(error):
            raise
        fail(f"`{call}` {ASSIGNED}", fix=ASSIGNED_FIX)
    if order is None:
        fail(f"`{call}` returned None, but should return the sorted list. The starter's last "
             "line gives it back: is it still there?", fix="Keep the last line: `return order`.")
    if not isinstance(order, (list, tuple)):
        fail(f"`{call}` should return a list of Values, but returned a {type(order).__name__}.")
    return list(order)


def _probe(code):
    """The test tree: out, and its nodes with their names."""
    V = code.Value
    with calling(f"building the test tree {PROBE}"):
        a, b, c, f = V(2.0), V(-3.0), V(10.0), V(4.0)
        p = a * b
        q = p + c
        out = q * f
    return out, [a, b, p, c, q, f, out], RIGHT


def _diagnose(code):
    """What is wrong with visit(), told from the order it leaves on the probe tree; or ''."""
    out, nodes, labels = _probe(code)
    names = {id(node): name for node, name in zip(nodes, labels)}
    got = [names.get(id(node), "?") for node in _sort(code, out, "topological_sort(out)")]
    if not got:
        return NEVER
    if got == ["out", "q", "p", "a", "b", "c", "f"]:
        return PREORDER
    if got == ["p", "p", "q", "q", "out", "out"]:
        return INSIDE
    if got == ["q", "f", "out"]:
        return NO_RECURSION
    if got == RIGHT[::-1]:
        return FRONT
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


def _judge(code, order, nodes, call, names):
    """Fail unless `order` holds every node of `nodes` once, each after its children."""
    label = {id(node): name for node, name in zip(nodes, names)}
    shown = _order_text(order, label)
    problem = ""
    missing = [name for node, name in zip(nodes, names) if not any(n is node for n in order)]
    twice = [name for node, name in zip(nodes, names) if sum(n is node for n in order) > 1]
    strangers = [node for node in order if id(node) not in label]
    if missing:
        problem = f"{_few(missing)} {'is' if len(missing) == 1 else 'are'} missing."
    elif twice:
        problem = f"{_few(twice)} {'appears' if len(twice) == 1 else 'appear'} more than once."
    elif strangers:
        problem = "It holds something that is not a node of this graph."
    else:
        position = {id(node): index for index, node in enumerate(order)}
        for node in order:
            late = [child for child in node._children if position[id(child)] > position[id(node)]]
            if late:
                problem = (f"{label[id(node)]} comes before its child {label[id(late[0])]}, but a "
                           "node can only be worked out once its children are.")
                break
    if problem:
        why = _diagnose(code) or ("Each node must come once, after all its children: visit the "
                                  "children first, then add the node.")
        fail(f"`{call}` gave {shown}. {problem} {why}", fix=FIXES.get(why, ""))


@check("a leaf on its own")
def _(code):
    x = code.Value(5.0)
    order = _sort(code, x, "topological_sort(x)")
    if len(order) == 1 and order[0] is x:
        return
    _judge(code, order, [x], "topological_sort(x)` with `x = Value(5.0)", ["x"])


@check("children before their node")
def _(code):
    V = code.Value
    a, b = V(2.0), V(-3.0)
    e = a * b
    order = _sort(code, e, "topological_sort(e)")
    _judge(code, order, [a, b, e], "topological_sort(e)` with `e = a * b", ["a", "b", "e"])


@check("grandchildren too")
def _(code):
    out, nodes, labels = _probe(code)
    order = _sort(code, out, "topological_sort(out)")
    _judge(code, order, nodes, "topological_sort(out)` with `p = a * b`, `q = p + c`, "
           "`out = q * f", labels)


def _all(root):
    """Every node of the tree under root (root included), found without the learner's code."""
    found = [root]
    for child in root._children:
        found.extend(_all(child))
    return found


BIG = "t = ((x1 * x2 + x3) * (x4 - x5)) / (x6 + x7 * x8) - 2 * x9 ** 2"


@check("a bigger tree, node by node")
def _(code):
    V = code.Value
    with calling(f"building {BIG}"):
        x = [V(float(i)) for i in range(1, 10)]
        t = ((x[0] * x[1] + x[2]) * (x[3] - x[4])) / (x[5] + x[6] * x[7]) - 2 * x[8] ** 2
    nodes = _all(t)
    labels = [f"x{x.index(node) + 1}" if any(node is v for v in x) else f"a node with data "
              f"{node.data:g}" for node in nodes]
    order = _sort(code, t, "topological_sort(t)")
    _judge(code, order, nodes, f"topological_sort(t)` with `{BIG}", labels)
    return f"All {len(nodes)} nodes of t, each once and after its children, t last."


# --- the differential check: new trees, bigger and deeper than the examples ------------------

LEAVES = (2.0, 3.0, -1.0, 0.5, 2.0)  # 2.0 twice: two different leaves often hold the same number
_LABELS = {}  # id of a node of a generated tree -> its name in the case's text (x1, n3, ...)


def _tree_plan(rng, size):
    """A tree of `size` operations: (the leaves' numbers, [(op, left, right), ...]).

    Each operation takes a subtree made before (most often the last one, so the tree is deep)
    or a new leaf on each side; no node is used twice. The names are x1, x2, ... for the leaves
    and n1, n2, ... for the operations, in the order they are made.
    """
    leaves, steps, free = [], [], []

    def leaf():
        leaves.append(rng.choice(LEAVES))
        return f"x{len(leaves)}"

    def take(chance):
        if free and rng.random() < chance:
            return free.pop(-1 if rng.random() < 0.7 else rng.randrange(len(free)))
        return leaf()

    while len(steps) < size:
        left = take(0.8)
        right = take(0.25)
        steps.append((rng.choice("+*"), left, right))
        free.append(f"n{len(steps)}")
    while len(free) > 1:  # join what is left into one tree
        right, left = free.pop(), free.pop()
        steps.append((rng.choice("+*"), left, right))
        free.append(f"n{len(steps)}")
    return leaves, steps


def _tree_text(leaves, steps):
    made = [f"x{i + 1} = Value({leaf:g})" for i, leaf in enumerate(leaves)]
    made += [f"n{i + 1} = {left} {op} {right}" for i, (op, left, right) in enumerate(steps)]
    top = f"n{len(steps)}"
    if len(made) <= 12:
        return f"the tree {top} where {', '.join(made)}"
    return (f"the tree {top} of {len(leaves) + len(steps)} Values, where {', '.join(made[:5])}, "
            f"..., {made[-1]}")


_CASE = {"text": "the tree"}  # the case being tried, for a message told while sorting it


def _build_tree(space, leaves, steps):
    _CASE["text"] = _tree_text(leaves, steps)
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


def _trees(rng):
    """Trees of 2 to 61 operations: the last two deeper than any example above."""
    for size, note in ((2, ""), (4, ""), (8, ""), (25, "a tree deeper than the examples"),
                       (60, "a tree of more than 100 Values")):
        leaves, steps = _tree_plan(rng, size)
        yield Case(_tree_text(leaves, steps),
                   lambda space, leaves=leaves, steps=steps: _build_tree(space, leaves, steps),
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
    """What topological_sort gave for one tree, with the tree's shape before and after the call.

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
             f"{_names([first])} has no children any more. topological_sort must leave the tree "
             "as it found it, because whoever called it goes on using the tree: backward() "
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
    """Where got stops being a topological order of its tree (any right order passes), or ''."""
    order = got.order
    if not isinstance(order, (list, tuple)):
        return "it should be a list of the tree's Values"
    nodes = [node for node, _ in got.before]
    position = {}
    for index, node in enumerate(order):
        position.setdefault(id(node), index)
    listed = {id(node) for node in nodes}
    missing = [node for node in nodes if id(node) not in position]
    twice = [node for node in nodes if sum(item is node for item in order) > 1]
    if not order:
        return f"the list is empty, but the tree has {plural(len(nodes), 'Value')}"
    if missing:
        return (f"{_names(missing)} {'is' if len(missing) == 1 else 'are'} missing: the tree "
                f"has {plural(len(nodes), 'Value')}, the list {len(order)}")
    if twice:
        return f"{_names(twice)} {'is' if len(twice) == 1 else 'are'} listed more than once"
    if any(id(node) not in listed for node in order):
        return "it holds something that is not a Value of this tree"
    for node in order:
        late = [child for child in node._children if position[id(child)] > position[id(node)]]
        if late:
            return (f"{_names([node])} comes before its child {_names(late[:1])}, but a node can "
                    "only be worked out once its children are")
    return ""


agrees("topological_sort", _trees, call=_sorted, compare=_sort_problem,
       name="topological_sort on new trees, twice each")
