"""Checks for lesson 3.5: backward() sorts the graph below self and walks it in reverse, so that
every Value's grad ends up as the number of paths from it up to self.

The counts are compared with paths counted independently (`_paths`, which follows the children
down from self without any sorting). When they are off, the check works out what the usual
slips would have given and says which one it was, from what it measured: `_Spy` children note,
each time a node's children are gone through, which node it was and whether self.grad was set
yet. Reads after self.grad = 1 are the walk, in the order the learner's loop took the nodes; so
the check can tell "the walk is still the placeholder" from "visit(self) comes after the walk",
a walk that is not a topological order (breadth-first, say) from one that is, and a walk in the
right order whose counts come out as `child.grad = node.grad` would leave them (the given line
edited).

The last check compares backward() with ours on new graphs, each walked twice: a visited set
kept between calls counts nothing the second time.
"""
from linebyline.runtime import (
    agrees,
    calling,
    check,
    differ,
    fail,
    listing,
    mismatches,
    require_own,
    value_graphs,
)

NO_VISIT = ("order stayed empty, so the walk had nothing to walk and no Value got a count. The "
            "graph below self has to be sorted first, with the visit() that is given, so that "
            "order lists every Value below self, each after its children.")
NO_VISIT_FIX = "Call visit on self first: `visit(self)`."
VISIT_LATE = ("The graph is sorted after the walk: the walk went through order while it was still "
              "empty, and only then did visit() fill it. Sorting has to come first, before "
              "self.grad is set and the loop runs.")
VISIT_LATE_FIX = "Move `visit(self)` up, above `self.grad = 1` and the loop."
NOT_WALKED = ("visit(self) sorted the graph, but no Value handed its count on: the loop walks "
              "nothing yet. It has to walk order from its last entry (self) back to its first.")
WALK_FIX = "Walk the sorted list backwards: `for node in reversed(order):`."
SELF_SKIPPED = ("The walk ran, but no Value below self got a count. Does the walk start at self? "
                "self is the last entry of order and the only one with a count at first, so it "
                "must be walked too, and the whole list after it.")
FORWARDS = ("The walk goes through order forwards, leaves first, so each Value hands its count on "
            "before the Values that use it have handed theirs to it: {early} passed on 0. The "
            "walk has to go backwards, from self down.")
REVERSE_NONE = ("`order.reverse()` turns the list around in place and gives back None, so the for "
                "loop had nothing to walk through (TypeError: 'NoneType' object is not "
                "iterable). The loop needs a reversed view of the list, which leaves order as it "
                "is.")
SORTED = ("sorted() puts Values in order by comparing them with <, which Value does not have "
          "(TypeError). There is no need to sort again: order is sorted already, and only has to "
          "be walked backwards.")
NOT_TOPOLOGICAL = ("Your walk handed the counts on in the order {walked}: {first} handed its "
                   "count on before {user}, which uses {first}, had given it a share. That walk "
                   "is not a topological order read backwards (a breadth-first order, level by "
                   "level from self, is not one either): a Value must come after every Value "
                   "that uses it, which is what walking the list visit() made, backwards, "
                   "gives.")
ASSIGNED = ("The two lines you wrote walk the graph in a right order ({walked}), but {who} got "
            "the count handed over last instead of the sum of all of them: that is what "
            "`child.grad = node.grad` does. The counting line given in the starter adds, with "
            "`+=`, so that a Value used by several others keeps every share: it has been changed.")
ASSIGNED_FIX = "Put the given line back as it was: `child.grad += node.grad`."
FIXES = {NO_VISIT: NO_VISIT_FIX, VISIT_LATE: VISIT_LATE_FIX, NOT_WALKED: WALK_FIX,
         SELF_SKIPPED: WALK_FIX, REVERSE_NONE: WALK_FIX, SORTED: WALK_FIX}


class _Spy(tuple):
    """A node's children; notes in `log` (owner, root.grad) whenever they are gone through."""

    def __new__(cls, items, log, root, owner):
        spy = super().__new__(cls, items)
        spy.log, spy.root, spy.owner = log, root, owner
        return spy

    def __iter__(self):
        self.log.append((self.owner, self.root.grad))
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
        node._children = _Spy(node._children, log, root, node)
    try:
        with calling(call):
            root.backward()
    except UnboundLocalError as error:
        if "'node'" not in str(error):
            raise
        fail(f"`{call}` raised UnboundLocalError: backward() uses `node` before the for loop that "
             "gives node its value (Python treats node as a name of backward that is not set "
             "yet). Above the loop, the Value to start from is self.", fix=NO_VISIT_FIX)
    except TypeError as error:
        text = str(error)
        if "'NoneType' object is not iterable" in text:
            fail(REVERSE_NONE, fix=WALK_FIX)
        if "'<' not supported" in text or "'>' not supported" in text:
            fail(SORTED, fix=WALK_FIX)
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
    grads = [grad for _, grad in log]
    if all(node.grad == 0 for node in below):
        if not log:
            fail(f"{seen} {NO_VISIT}", fix=NO_VISIT_FIX)
        if all(grad == 0 for grad in grads):
            fail(f"{seen} {NOT_WALKED}", fix=WALK_FIX)
        if all(grad == 1 for grad in grads):
            fail(f"{seen} {VISIT_LATE}", fix=VISIT_LATE_FIX)
        fail(f"{seen} {SELF_SKIPPED}", fix=WALK_FIX)
    label = {id(node): name for name, node in names.items()}
    forwards, early = _forwards(root)
    if early and all(node.grad == forwards[id(node)] for node in nodes):
        first = next((label[id(node)] for node in early if id(node) in label), "a Value")
        fail(f"{seen} {FORWARDS.format(early=first)}", fix=WALK_FIX)
    walked = _walked(log)
    if _walk_counts(root, walked, nodes, add=False) == [node.grad for node in nodes] and \
            _topological(walked, nodes):
        who = [name for name, node in names.items() if want[id(node)] != node.grad]
        fail(f"{seen} " + ASSIGNED.format(walked=_named(walked, label), who=listing(who)),
             fix=ASSIGNED_FIX)
    late = _late(walked, nodes)
    if late is not None:
        first, user = late
        fail(f"{seen} " + NOT_TOPOLOGICAL.format(walked=_named(walked, label),
                                                first=label.get(id(first), "a Value"),
                                                user=label.get(id(user), "a Value")),
             fix=WALK_FIX)
    fail(f"{seen} Each Value has to add its count to each of its children, walking order "
         "backwards, from self down.", fix=WALK_FIX)


def _walked(log):
    """The nodes the walk handed counts on from, in its order: the nodes with children whose
    children were read once self.grad was set (a leaf has nothing to hand on)."""
    walked, ids = [], set()
    for node, grad in log:
        if grad != 0 and node._children and id(node) not in ids:
            ids.add(id(node))
            walked.append(node)
    return walked


def _walk_counts(root, walked, nodes, add):
    """The counts walking `walked` in its order would leave, adding (+=) or assigning (=)."""
    count = {id(node): 0 for node in nodes}
    count[id(root)] = 1
    for node in walked:
        for child in node._children:
            count[id(child)] = count[id(child)] + count[id(node)] if add else count[id(node)]
    return [count[id(node)] for node in nodes]


def _users(nodes):
    users = {id(node): [] for node in nodes}
    for node in nodes:
        for child in node._children:
            if node not in users[id(child)]:
                users[id(child)].append(node)
    return users


def _late(walked, nodes):
    """The first (node, user) where the walk took node before one of its users, or None."""
    users = _users(nodes)
    place = {id(node): index for index, node in enumerate(walked)}
    for node in walked:
        for user in users[id(node)]:
            if place.get(id(user), -1) > place[id(node)]:
                return node, user
    return None


def _topological(walked, nodes):
    inner = [node for node in nodes if node._children]
    return len(walked) == len(inner) and _late(walked, nodes) is None


def _named(walked, label):
    """The walk as names, the unnamed Values (plain numbers made into Values) left out."""
    return ", ".join(label[id(node)] for node in walked if id(node) in label)


@check("backward() counts from self")
def _(code):
    require_own(code.Value, "backward")
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
