"""Checks for lesson 7.5: the example's gradients, a value used twice, the order, and nudging.

They test what backward() does, not how it is spelled: any topological sort (recursive, with an
explicit stack, by counting users) and any way of pairing children with local grads passes.

To see in which order the nodes pass their grads on, `_watch_order` swaps each inner node's
`_local_grads` for a `_Spy`: a tuple that writes its owner's name into a log whenever it is
iterated or indexed. The backward loop reads a node's local grads exactly when that node passes
its grad on, so the log is the processing order. The probe graph is chosen so that the classic
mistakes (walking forwards, appending before or inside the children loop) each leave a
different order, and so that a breadth-first order is caught too.
"""
from linebyline.runtime import (
    agrees,
    calling,
    check,
    close,
    fail,
    mismatches,
    nudge_grads,
    number,
    replacing,
    value_graphs,
)

# --- the Watch example: a=2, b=-3, c=10, e=a*b, d=e+c, L=d*e --------------------------------
EXAMPLE = "a = Value(2), b = Value(-3), c = Value(10), e = a * b, d = e + c, L = d * e"
EXAMPLE_GRADS = {"L": 1, "d": -6, "e": -2, "c": -6, "a": 6, "b": -4}
# What `child.grad = ...` leaves: e keeps only d's share (-6), and a and b inherit it.
EXAMPLE_ASSIGN = {"L": 1, "d": -6, "e": -6, "c": -6, "a": 18, "b": -12}

# --- the probe graph of the order check ----------------------------------------------------
PROBE = "p = a * b, q = p + c, r = q * a, s = p * r, out = s + q"

# --- what each kind of wrong order means, and what to change ------------------------------
FORWARDS = ("Your loop walks `order` forwards, leaves first, so each node passes its grad on "
            "before the nodes that use it have added their shares to it. The walk has to start "
            "at the output, the last node of `order`.")
FORWARDS_FIX = "Walk the list backwards: `for node in reversed(order):`."
OUTPUT_FIRST = ("Your `order` lists each node ahead of the nodes it was made from, the output "
                "first and the leaves last, so the walk, which reads it from the end with "
                "reversed(order), starts at the leaves: each node passes its grad on before the "
                "nodes that use it have added their shares to it. `order` must end with the "
                "output: each node joins it behind all of its children.")
APPEND_FIX = "After the `for child` loop in visit(): `order.append(node)`."
PREORDER = ("visit() puts each node into `order` before its children, so in reversed(order) a "
            "node can come before the nodes that use it, and it passes on a grad that is not "
            "complete yet. Append the node after the `for child` loop, once all its children "
            "are in `order`: then reversed(order) puts every node after all of its users.")
INSIDE = ("The line that appends the node is inside the `for child` loop, so a node is appended "
          "once for every child it has (and a leaf, which has none, never), and it passes its "
          "grad on once per copy: the gradients pile up. Un-indent that line one level, so each "
          "node is appended once, after the loop.")
NEVER = ("No node passed its grad on: the loop over reversed(order) never read any node's local "
         "grads. Is `order` still empty? visit() must append each node to `order`, after its "
         "`for child` loop.")

# --- what each kind of wrong arithmetic means, once the order is right ----------------------
ASSIGN_EXAMPLE = ("e is used twice, by d (d = e + c) and by L (L = d * e), so it gets two shares "
                  "that must add up: 4 from L and -6 from d make -2. Your e.grad is d's share "
                  "alone: the second share replaced the first instead of adding to it, and a "
                  "and b inherit the wrong e.grad.")
ASSIGN = ("Each of these values gets a share from every node that uses it, and yours kept only "
          "the last share: the chain-rule line replaces what an earlier user put into "
          "child.grad instead of adding to it.")
ADD_FIX = "Add the share instead of replacing: `child.grad += local_grad * node.grad`."
NO_CHAIN = ("The nodes were visited in a right order, but nothing reached the children: every "
            "grad except the output's stayed 0. The innermost loop has to hand each child its "
            "share of node's grad.")
CHAIN_FIX = "In the innermost loop: `child.grad += local_grad * node.grad`."
REPEATS = ("x appears twice among y's children, each time with local grad 3, and each of the "
           "two must add its share. Walk every (child, local grad) pair, for example with "
           "zip(node._children, node._local_grads), without dropping repeated children.")
CHAIN = ("The order is right, so look at the chain-rule line: for every (child, local grad) "
         "pair, the child's grad must grow by that pair's share, its local grad times this "
         "node's grad.")


def _wrong(grads, expected):
    """'e.grad is 4 but should be -2; ...' for each name whose grad is off, or ''."""
    return mismatches(grads, expected, label="{}.grad")


def _fix_for(why):
    """The literal change for an order problem, held back until the learner has tried."""
    return {FORWARDS: FORWARDS_FIX, OUTPUT_FIRST: APPEND_FIX}.get(why, "")


def _matches(grads, expected):
    return all(close(grads[name], want) for name, want in expected.items())


class _Spy(tuple):
    """A node's local grads that note the node's name in `log` whenever they are read."""

    def __new__(cls, items, owner, log):
        spy = super().__new__(cls, items)
        spy.owner, spy.log = owner, log
        return spy

    def __iter__(self):
        self.log.append((self.owner, None))
        return super().__iter__()

    def __getitem__(self, index):
        self.log.append((self.owner, index))
        return super().__getitem__(index)


def _passes(log):
    """The log as one entry per pass: a pass is one iteration, or indexes 0, 1, ... in a row."""
    passes, used = [], None
    for owner, index in log:
        if (used is not None and isinstance(index, int) and passes[-1] == owner
                and index not in used):
            used.add(index)
            continue
        passes.append(owner)
        used = {index} if isinstance(index, int) else None
    return passes


def _build_order(out, where, name_of):
    """The inner nodes' names in the order visit() lists them with the append `where`."""
    order, seen = [], set()

    def visit(node):
        if id(node) in seen:
            return
        seen.add(id(node))
        if where == "before":
            order.append(node)
        for child in node._children:
            visit(child)
            if where == "inside":
                order.append(node)
        if where == "after":
            order.append(node)

    visit(out)
    return [name_of[id(node)] for node in order if id(node) in name_of]


def _watch_order(code):
    """Run backward() on the probe graph and say how its order is wrong.

    Returns None when every node passed its grad on once, after all the nodes that use it;
    else (what the order was, in words; why that is wrong and what to change).
    """
    Value = code.Value
    with calling(f"building the test graph {PROBE}"):
        a, b, c = Value(2.0), Value(3.0), Value(-1.0)
        p = a * b
        q = p + c
        r = q * a
        s = p * r
        out = s + q
    nodes = {"p": p, "q": q, "r": r, "s": s, "out": out}
    name_of = {id(node): name for name, node in nodes.items()}
    users = {name: [] for name in nodes}
    for name, node in nodes.items():
        for child in node._children:
            if id(child) in name_of and name not in users[name_of[id(child)]]:
                users[name_of[id(child)]].append(name)
    right = _build_order(out, "after", name_of)[::-1]
    forwards = _build_order(out, "after", name_of)
    preorder = _build_order(out, "before", name_of)[::-1]
    inside = _build_order(out, "inside", name_of)[::-1]

    log, walked = [], []

    def spy_reversed(sequence):  # the given walk, `for node in reversed(order):`, calls it
        walked.append(sequence)
        return reversed(sequence)

    for name, node in nodes.items():
        node._local_grads = _Spy(node._local_grads, name, log)
    with calling("out.backward()"), replacing(code, "reversed", spy_reversed):
        out.backward()
    got = _passes(log)

    if not got:
        return "out.backward() never got past setting out.grad = 1", NEVER
    seen_order = (f"the nodes passed their grads on in the order {', '.join(got)}, but each node "
                  f"must wait until every node that uses it has passed on, as in "
                  f"{', '.join(right)}")
    if got == inside:
        return seen_order, INSIDE
    # Reading a node's local grads twice in one go is not wrong: judge runs of one node as one.
    runs = [name for index, name in enumerate(got) if index == 0 or got[index - 1] != name]
    position = {name: index for index, name in enumerate(runs)}
    complete = len(runs) == len(set(runs)) == len(nodes)
    if complete and all(position[user] < position[name] for name in runs for user in users[name]):
        return None
    repeated = sorted({name for name in runs if runs.count(name) > 1}, key=right.index)
    if repeated:
        return seen_order, (f"{', '.join(repeated)} passed a grad on more than once. Each node "
                            "must be in `order` exactly once, appended after its children.")
    if got == forwards or (complete and all(position[name] < position[user]
                                             for name in runs for user in users[name])):
        return seen_order, (OUTPUT_FIRST if walked else FORWARDS)
    if got == preorder:
        return seen_order, PREORDER
    for index, name in enumerate(runs):
        late = [user for user in users[name] if position.get(user, -1) > index]
        if late:
            return seen_order, (f"{name} passed its grad on before {late[0]}, which uses {name}, "
                                f"had given it a share. Every node must come after all the "
                                f"nodes that use it: append each node after its children, then "
                                f"walk the order in reverse.")
    missing = [name for name in right if name not in position]
    return seen_order, (f"{', '.join(missing)} never passed a grad on. Every node the output "
                        "was computed from must be in `order`.")


@check("the example's gradients")
def _(code):
    Value = code.Value
    with calling(f"building {EXAMPLE}"):
        a, b, c = Value(2), Value(-3), Value(10)
        e = a * b
        d = e + c
        L = d * e
    with calling("L.backward()"):
        L.backward()
    grads = {"L": L.grad, "d": d.grad, "e": e.grad, "c": c.grad, "a": a.grad, "b": b.grad}
    wrong = _wrong(grads, EXAMPLE_GRADS)
    if not wrong:
        return
    seen = f"With {EXAMPLE}, after L.backward(): {wrong}."
    problem = _watch_order(code)
    if problem is not None:
        fail(f"{seen} {problem[1]}", fix=_fix_for(problem[1]))
    if _matches(grads, EXAMPLE_ASSIGN):
        fail(f"{seen} {ASSIGN_EXAMPLE}", fix=ADD_FIX)
    if all(close(grad, 0) for name, grad in grads.items() if name != "L"):
        fail(f"{seen} {NO_CHAIN}", fix=CHAIN_FIX)
    fail(f"{seen} {CHAIN}", fix=CHAIN_FIX)


@check("a value used twice adds up")
def _(code):
    Value = code.Value
    with calling("building x = Value(3), y = x * x"):
        x = Value(3)
        y = x * x
    with calling("y.backward()"):
        y.backward()
    square = x.grad
    with calling("building x = Value(2), p = x * 4, q = x + 5, out = p * q"):
        x2 = Value(2)
        p = x2 * 4
        q = x2 + 5
        out = p * q
    with calling("out.backward()"):
        out.backward()
    branches = x2.grad
    square_ok, branches_ok = close(square, 6), close(branches, 36)
    if square_ok and branches_ok:
        return
    seen = []
    if not square_ok:
        seen.append(f"y = x * x with x = 3 uses x twice, so y.backward() must give x.grad = "
                    f"3 + 3 = 6, but it gave {number(square)}.")
    if not branches_ok:
        seen.append(f"With x = 2, p = x * 4, q = x + 5, out = p * q, x is used by p and by q, so "
                    f"out.backward() must give x.grad = 4 * 7 (through p) + 1 * 8 (through q) "
                    f"= 36, but it gave {number(branches)}.")
    seen = " ".join(seen)
    problem = _watch_order(code)
    if problem is not None:
        fail(f"{seen} {problem[1]}", fix=_fix_for(problem[1]))
    if not branches_ok and (close(branches, 28) or close(branches, 8)):
        fail(f"{seen} {ASSIGN}", fix=ADD_FIX)
    if branches_ok and close(square, 3):
        fail(f"{seen} {REPEATS}")
    fail(f"{seen} {CHAIN}", fix=CHAIN_FIX)


@check("each node waits for all its users")
def _(code):
    problem = _watch_order(code)
    if problem is not None:
        seen, why = problem
        fail(f"On the test graph {PROBE}, {seen}. {why}", fix=_fix_for(why))


MESSY = ("u = x * y + z ** 3, v = (u * u).log(), w = (x - z).relu(), k = (y * z).relu(), "
         "out = v * w / (1 + y.exp()) + w ** 2 - 2 / z + k + u")
MESSY_AT = {"x": 1.5, "y": -0.8, "z": 0.6}


@check("every gradient matches nudging")
def _(code):
    Value = code.Value
    with calling("building x = Value(1.5), y = Value(-0.8), z = Value(0.6)"):
        x, y, z = (Value(MESSY_AT[name]) for name in "xyz")

    def build():
        u = x * y + z ** 3
        v = (u * u).log()
        w = (x - z).relu()
        k = (y * z).relu()
        return v * w / (1 + y.exp()) + w ** 2 - 2 / z + k + u

    with calling(f"computing {MESSY} while nudging x, y and z"):
        want = nudge_grads(build, [x, y, z])
        out = build()
    with calling("out.backward()"):
        out.backward()
    got = {"x": x.grad, "y": y.grad, "z": z.grad}
    wrong = [f"{name}.grad is {number(got[name])} but nudging measures {number(slope)}"
             for name, slope in zip("xyz", want)
             if not close(got[name], slope, rel=1e-5, abs_tol=1e-6)]
    if wrong:
        fail(f"With x = 1.5, y = -0.8, z = 0.6 and {MESSY}, nudging each input up and down by "
             f"a tiny h measures the true slopes of out, and backward() must agree: "
             f"{'; '.join(wrong)}. Each node has to pass local_grad * node.grad to each child, "
             f"adding to what is there, and only after every node that uses it has done so.")


def _leaf_grads(space, args):
    """out.backward() on a generated graph, then every leaf's grad, leaves in the order made.

    Generated graphs reuse nodes (a value used by several others), so the grads only come out
    right when shares add up and every node waits for its users; called twice on the same
    graph, both backward()s add up the same way (ours and yours), so a set or list kept from
    one call to the next shows.
    """
    out = args[0]
    with calling("out.backward() on the generated graph"):
        out.backward()
    leaves, seen, stack = [], set(), [out]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        stack.extend(node._children)
        if not node._children:
            leaves.append(node)
    return [leaf.grad for leaf in sorted(leaves, key=lambda leaf: leaf.data)]


agrees("backward()", value_graphs(), call=_leaf_grads,
       name="backward() on new graphs, twice each")
