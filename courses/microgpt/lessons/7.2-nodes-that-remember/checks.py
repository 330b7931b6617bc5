"""Checks for lesson 7.2, Nodes that remember: what every Value holds, and nothing else.

`__slots__` is read off the class (a tuple, a list or a single name are all accepted); the rest
is tried on fresh Values: a leaf, and nodes made by the given operations. Sizes quoted in
messages are measured here, in this Python, with sys.getsizeof: never typed in.
"""
import sys

from linebyline.runtime import Case, agrees, calling, check, fail, number, shown

FOUR = ("data", "grad", "_children", "_local_grads")
SLOTS_FIX = "First line of the class: `__slots__ = ('data', 'grad', '_children', '_local_grads')`."
GRAD_FIX = "In __init__: `self.grad = 0`."
LOCAL_FIX = "In __init__: `self._local_grads = local_grads`."


class _Slotted:
    """A Value-shaped class with the four slots: what one Value should take, measured."""

    __slots__ = FOUR

    def __init__(self, data):
        self.data, self.grad, self._children, self._local_grads = data, 0, (), ()


def _bytes_each(make, count=5_000):
    """Bytes of memory one object takes, measured over `count` of them (None if this Python
    cannot measure memory)."""
    try:
        import tracemalloc
    except ImportError:
        return None
    number = 2.0  # one float for all, so only the objects themselves are measured
    tracemalloc.start()
    try:
        made = [make(number) for _ in range(count)]
        size = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    return round((size - sys.getsizeof(made)) / count)


def _slots_of(value_class):
    """The class's own __slots__ as a tuple of names, or None when it has none."""
    slots = value_class.__dict__.get("__slots__")
    if slots is None:
        return None
    return (slots,) if isinstance(slots, str) else tuple(slots)


def _quoted(names):
    """('a', 'b') as Python writes a tuple of names; one name alone as 'a'."""
    if len(names) == 1:
        return repr(names[0])
    return "(" + ", ".join(repr(name) for name in names) + ")"


@check("__slots__ names the four things a Value holds")
def _(code):
    V = code.Value
    slots = _slots_of(V)
    if slots is None:
        with calling("Value(2.0)"):
            v = V(2.0)
            loose = _bytes_each(V)
        tight = _bytes_each(_Slotted)
        try:
            v.grda = 5.0  # a typo for grad
            typo = ("A typo goes unnoticed too: `v.grda = 5.0` (meant: grad) was accepted, and "
                    f"v.grad is still {shown(getattr(v, 'grad', None))}.")
        except AttributeError:
            typo = ""
        size = (f" Measured here, each of your Values takes {loose} bytes, and a Value with "
                f"__slots__ {tight}; a training step makes tens of thousands of them."
                if loose and tight else "")
        fail(f"Value has no __slots__, so every Value keeps room for a dict of attributes and "
             f"takes any attribute at all.{size} {typo}".rstrip(), fix=SLOTS_FIX)
    missing = [name for name in FOUR if name not in slots]
    unused = [name for name in slots if name not in FOUR]
    if not missing and not unused:
        return
    seen = f"__slots__ is {_quoted(slots)}"
    if missing:
        try:
            with calling("Value(2.0)"):
                V(2.0)
            made = "Value(2.0) was made all the same"
        except AttributeError as error:
            made = f"so Value(2.0) raises AttributeError: {error}"
        pairs = [(u, m) for u in unused for m in missing if u.lstrip("_") == m.lstrip("_")]
        if pairs:
            named = ", ".join(f"{u!r} where __init__ sets self.{m}" for u, m in pairs)
            fail(f"{seen}: it names {named}, {made}. A Value can hold only the names in "
                 "__slots__, spelled exactly as __init__ writes them, underscore included.",
                 fix=SLOTS_FIX)
        fail(f"{seen}: it leaves out {_quoted(missing)}, {made}. A Value with __slots__ can "
             "hold only the names listed there, and __init__ sets all four.", fix=SLOTS_FIX)
    fail(f"{seen}: {_quoted(unused)} is more than a Value holds. Every Value holds its number, "
         "its grad, its children and its local grads, and nothing else: a name listed "
         "but never set is room every Value carries for nothing.", fix=SLOTS_FIX)


def _made(code, call, make):
    """make() builds Values; an AttributeError there comes from __slots__ and __init__ not
    agreeing, which the first check explains."""
    try:
        with calling(call):
            return make()
    except AttributeError as error:
        fail(f"`{call}` raised AttributeError: {error}. A Value cannot even be made yet: the "
             "first check, on __slots__, says why.", fix=SLOTS_FIX)


def _grad_of(v, call):
    try:
        return v.grad
    except AttributeError:
        fail(f"`{call}` has no grad: `{call}.grad` raises AttributeError. backward() adds each "
             "Value's gradient into its grad, so every Value needs one from the moment it is "
             "made.", fix=GRAD_FIX)
    return None


@check("a new Value: grad 0, no children, no local grads")
def _(code):
    V = code.Value
    call = "Value(3.0)"
    v = _made(code, call, lambda: V(3.0))
    grad = _grad_of(v, call)
    if grad is None:
        try:
            v.grad += 0.5
            after = "it even took `+= 0.5`"
        except TypeError as error:
            after = f"and `v.grad += 0.5` raises TypeError: {error}"
        fail(f"`{call}.grad` is None but should be 0. backward() adds every share of the "
             f"gradient into grad with +=, {after}. 0 is the number that means 'nothing "
             "added yet'.", fix=GRAD_FIX)
    if isinstance(grad, bool) or not isinstance(grad, (int, float)):
        fail(f"`{call}.grad` is {shown(grad)} but should be the number 0: backward() adds "
             "numbers into it.", fix=GRAD_FIX)
    if grad != 0 and grad == 3.0:
        fail(f"`{call}.grad` is {number(grad)}, the Value's own number, but should be 0. grad "
             "is not the number: it is how much the loss moves when the number moves, and "
             "nothing is known about that when a Value is made.", fix=GRAD_FIX)
    if grad != 0:
        fail(f"`{call}.grad` is {number(grad)} but should be 0: a Value made just now has "
             "received no share of any gradient yet, and every share backward() adds would "
             f"land on top of this {number(grad)}. backward() gives the output its 1 itself, "
             "when it starts.", fix=GRAD_FIX)
    with calling(f"v = {call}, then v.grad += 0.5"):
        v.grad += 0.5
    if v.grad != 0.5:
        fail(f"After v = {call} and `v.grad += 0.5`, v.grad is {shown(v.grad)} but should be "
             "0.5.", fix=GRAD_FIX)
    with calling("Value(1.0), after another Value's grad was changed"):
        other = V(1.0)
    if other.grad != 0:
        fail(f"After one Value's grad went to 0.5, a new Value(1.0) starts with grad "
             f"{shown(other.grad)} instead of 0: every Value needs a grad of its own.",
             fix=GRAD_FIX)
    if v.data != 3.0 or v._children != ():
        fail(f"`{call}` should hold data 3.0 and children (), but holds data {shown(v.data)} "
             f"and children {shown(v._children)}: the given lines of __init__ were changed.")
    try:
        local = v._local_grads
    except AttributeError:
        fail(f"`{call}` has no _local_grads: `{call}._local_grads` raises AttributeError. "
             "Every Value keeps the local grads it was given (none, for a Value made from a "
             "plain number), so that backward() can read them.", fix=LOCAL_FIX)
    if tuple(local) != ():
        fail(f"`{call}._local_grads` is {shown(local)} but should be (): a Value made from a "
             "plain number has no children, so no local grads.", fix=LOCAL_FIX)


@check("a computed Value keeps its children and local grads")
def _(code):
    V = code.Value
    a, b = _made(code, "Value(2.0) and Value(-4.0)", lambda: (V(2.0), V(-4.0)))
    c = _made(code, "a * b, with a = Value(2.0) and b = Value(-4.0)", lambda: a * b)
    seen = "c = a * b, with a = Value(2.0) and b = Value(-4.0)"
    if len(c._children) != 2 or c._children[0] is not a or c._children[1] is not b:
        fail(f"{seen}, should keep a and b themselves as its children, but keeps "
             f"{shown([getattr(x, 'data', x) for x in c._children])}: the given lines of "
             "__init__ or __mul__ were changed.")
    local = c._local_grads
    if any(x is a or x is b for x in (local if isinstance(local, (tuple, list)) else ())):
        fail(f"{seen}: __mul__ hands __init__ the local grads (-4.0, 2.0), but "
             f"c._local_grads holds the children a and b themselves: the line keeps "
             "children where the local grads belong.", fix=LOCAL_FIX)
    if list(local) != [-4.0, 2.0]:
        fail(f"{seen}: __mul__ hands __init__ the local grads (-4.0, 2.0), one per child, "
             f"but c._local_grads is {shown(local)}: __init__ must keep what it is given, as "
             "it keeps the children.", fix=LOCAL_FIX)
    if c.grad != 0:
        fail(f"{seen}: c.grad is {shown(c.grad)} but should be 0, as for every new Value.",
             fix=GRAD_FIX)
    d = _made(code, "a + 3, with a = Value(2.0)", lambda: a + 3)
    if list(d._local_grads) != [1, 1] or d._children[0] is not a:
        fail(f"d = a + 3 should keep the children (a, Value(3)) and the local grads (1, 1), "
             f"but keeps local grads {shown(d._local_grads)}.", fix=LOCAL_FIX)


# --- every kind of node against ours, on numbers beyond the examples above ---------------

def _held(space, args):
    """What a node holds, as plain numbers: its number, its grad, its children's numbers and
    its local grads."""
    kind, x, y = args
    V = space.Value
    node = _made(space, _written(kind, x, y),
                 {"leaf": lambda: V(x), "*": lambda: V(x) * V(y), "+": lambda: V(x) + y,
                  "**": lambda: V(x) ** y}[kind])
    return {"data": node.data, "grad": node.grad,
            "children": [child.data for child in node._children],
            "local grads": list(node._local_grads)}


def _written(kind, x, y):
    if kind == "leaf":
        return f"Value({number(x)})"
    if kind == "+":
        return f"Value({number(x)}) + {number(y)}"
    if kind == "**":
        return f"Value({number(x)}) ** {number(y)}"
    return f"Value({number(x)}) * Value({number(y)})"


def _nodes(rng):
    """A leaf, a product, a sum with a plain number and a power, on ordinary numbers; then 0,
    a whole number, and numbers far beyond anything the names data makes (inf included)."""
    x, y = (round(rng.uniform(-5.0, 5.0), 3) for _ in range(2))
    cases = [("leaf", x, None), ("*", x, y), ("+", y, 3), ("**", x, 2),
             ("leaf", 0.0, None, "zero"), ("leaf", 7, None, "a whole number"),
             ("*", -1e300, 1e-300, "a huge and a tiny number"),
             ("leaf", float("inf"), None, "inf, the float that exp() of a huge number gives")]
    for kind, a, b, *note in cases:
        yield Case(_written(kind, a, b), lambda space, k=kind, a=a, b=b: (k, a, b),
                   note[0] if note else "")


agrees("making", _nodes, call=_held, name="every kind of node on new numbers, twice each")
