"""Checks for lesson 3.3: topological_sort(root) lists every node after its children.

Every graph here is a tree (no Value is used twice): the visited set that handles shared Values
comes in 3.4. Any right order passes, not only the depth-first one: each node exactly once,
after all its children. When an order is wrong, `_diagnose` sorts a probe tree and recognises
the classic mistakes by the order they leave (before the children, inside the loop, no
recursion, back to front), so the message says what to change.
"""
from linebyline.runtime import calling, check, fail, listing

PROBE = "out = (a * b + c) * f"
RIGHT = ["a", "b", "p", "c", "q", "f", "out"]  # p = a * b, q = p + c

PREORDER = ("visit() adds node to order before its children, so each node lands before the "
            "Values it was made from: the output comes first. Add it after the `for child` loop, "
            "when all its children (and theirs) are in the list already.")
INSIDE = ("`order.append(node)` is inside the `for child` loop, so a node is added once per "
          "child, and a leaf, which has no children, is never added. Un-indent it one level, so "
          "it runs once, after the loop.")
NO_RECURSION = ("Only the children of out are in the list, not their own children: the loop adds "
                "each child itself instead of visiting it. Call visit(child) in the loop, so visit "
                "goes down to the children's children, and theirs.")
FRONT = ("The list is back to front: every node comes before its children, and the output "
         "first. Add each node at the end of order, with order.append(node), not at the front.")
NEVER = ("The list stays empty: visit() never adds anything to order. After the `for child` "
         "loop, add node at the end of order.")
SAME_NODE = ("topological_sort never finished: it raised RecursionError, because visit keeps "
             "calling itself on the same node. In the loop, visit the child, `visit(child)`, not "
             "`visit(node)`: each call goes one step further down, until the leaves.")


def _sort(code, root, call):
    """The learner's topological_sort(root), as a list; the classic crashes become sentences."""
    try:
        with calling(call):
            order = code.topological_sort(root)
    except RecursionError:
        fail(SAME_NODE)
    except UnboundLocalError as error:
        if "order" not in str(error):
            raise
        fail(f"`{call}` raised UnboundLocalError: visit assigns to order (with `order = ...` or "
             "`order += ...`), and a name assigned inside a function is a new name of that "
             "function, not the list of topological_sort. Change the list instead of assigning "
             "to it: `order.append(node)`.")
    if order is None:
        fail(f"`{call}` returned None. Keep the given last line, `return order`, so the sorted "
             "list comes back.")
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


def _judge(code, order, nodes, call, names):
    """Fail unless `order` holds every node of `nodes` once, each after its children."""
    label = {id(node): name for node, name in zip(nodes, names)}
    shown = "[" + ", ".join(label.get(id(node), "?") for node in order) + "]"
    problem = ""
    missing = [name for node, name in zip(nodes, names) if not any(n is node for n in order)]
    twice = [name for node, name in zip(nodes, names) if sum(n is node for n in order) > 1]
    strangers = [node for node in order if id(node) not in label]
    if missing:
        problem = f"{listing(missing)} {'is' if len(missing) == 1 else 'are'} missing."
    elif twice:
        problem = f"{listing(twice)} {'appears' if len(twice) == 1 else 'appear'} more than once."
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
        fail(f"`{call}` gave {shown}. {problem} {why}")


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
