"""Checks for lesson 3.1: a class Value whose objects keep their number and their children.

Each check makes Values the way later lessons will, and reads back what they kept. When making a
Value fails, `_make` turns the classic slips (no `self`, no defaults, `__init__` misspelt, `==`
for `=`) into a sentence a beginner can act on. The last check builds d = a * b + c by hand and
walks it down from d, as every later lesson of this module does.
"""
from linebyline.runtime import CheckFailed, calling, check, fail, number, shown

NO_CLASS = ("There is no class called Value yet. TODO 1 starts it: the keyword `class`, the "
            "name Value (capital V), and a colon at the end of the line.")
NO_CLASS_FIX = "Start the class with `class Value:` at the left edge of the file."
NOT_A_CLASS = ("`Value` exists, but it is {what}, not a class. A class starts with the keyword "
               "`class`, and __init__ goes inside it, indented.")
NOT_A_CLASS_FIX = "Start a class, `class Value:`, with `def __init__(...)` indented under it."
OTHER_CASE = ("Your code defines `{name}`, but not `Value`. Python tells capital letters apart, "
              "and the rest of microgpt says `Value`.")
OTHER_CASE_FIX = "Rename it: `class Value:`, with a capital V."
NO_INIT = ("`Value(2.0)` raised TypeError: Value takes no number yet, because Python finds no "
           "method called __init__ in the class. Either it is not written yet (TODO 2), or its "
           "name is spelt differently (two underscores before and two after) or it is not "
           "indented under the class line.")
NO_INIT_FIX = "Indented under the class line: `def __init__(self, data, children=(), local_grads=()):`."
NO_DEFAULTS = ("`Value(2.0)` raised TypeError: __init__ insists on children and local_grads "
               "too. A number typed in directly is made from nothing, so Value(2.0) must work "
               "with just its number: both need a default, the empty tuple (), in the def line.")
NO_DEFAULTS_FIX = "Give both defaults: `def __init__(self, data, children=(), local_grads=()):`."
NO_SELF = ("`Value(2.0)` raised NameError: inside __init__ there is no `self`. Python hands "
           "__init__ the new Value first, before the number, so the first parameter of the def "
           "line must be the name that stands for it.")
NO_SELF_FIX = "Put `self` first: `def __init__(self, data, children=(), local_grads=()):`."
COMPARED = ("`Value(2.0)` raised AttributeError: __init__ reads self.data before anything was "
            "stored there. One `=` stores a value; two, `==`, only compare two values, and the "
            "new Value has no data yet to compare.")
STORE_DATA_FIX = "Store the number with one `=`: `self.data = data`."
NO_DATA = ("`Value(2.0)` made a Value without a `.data`. Inside __init__ the number is in the "
           "parameter `data`, which is gone when __init__ ends; to keep it, it must be stored on "
           "the new Value itself, as self.data. An assignment to the plain name data, without "
           "self in front, only renames it inside __init__.")
UNDERSCORE = ("`Value(2.0)` keeps its children as `.children`, but the rest of microgpt reads "
              "`._children`, with an underscore in front (a habit that says: used by Value's own "
              "code).")
UNDERSCORE_FIX = "Store them as `self._children = children`."
NO_CHILDREN = ("`Value(2.0)` made a Value without `._children`: the children are not stored on "
               "the new Value.")


def _value_class(code):
    """The learner's class Value, or a failure saying what is there instead."""
    try:
        value_class = code.Value
    except CheckFailed:
        for name in ("value", "VALUE", "Values", "values"):
            try:
                getattr(code, name)
            except CheckFailed:
                continue
            fail(OTHER_CASE.format(name=name), fix=OTHER_CASE_FIX)
        fail(NO_CLASS, fix=NO_CLASS_FIX)
    if not isinstance(value_class, type):
        fail(NOT_A_CLASS.format(what="a function" if callable(value_class) else shown(value_class)),
             fix=NOT_A_CLASS_FIX)
    return value_class


def _make(call, make):
    """Make a Value with `make()`; the classic slips in __init__ become plain sentences."""
    try:
        with calling(call):
            return make()
    except TypeError as error:
        text = str(error)
        if "takes no arguments" in text:
            fail(NO_INIT, fix=NO_INIT_FIX)
        if "missing" in text and "required positional argument" in text and call == "Value(2.0)":
            fail(NO_DEFAULTS, fix=NO_DEFAULTS_FIX)
        raise
    except NameError as error:
        if "'self'" in str(error):
            fail(NO_SELF, fix=NO_SELF_FIX)
        raise
    except AttributeError as error:
        if "'data'" in str(error):
            fail(COMPARED, fix=STORE_DATA_FIX)
        raise


@check("Value is a class")
def _(code):
    _value_class(code)


@check("Value(2.0) keeps its number")
def _(code):
    Value = _value_class(code)
    for x in (2.0, -3.5):
        call = f"Value({x!r})"
        v = _make(call, lambda x=x: Value(x))
        if not hasattr(v, "data"):
            fail(NO_DATA if x == 2.0 else NO_DATA.replace("Value(2.0)", call), fix=STORE_DATA_FIX)
        if v.data != x:
            fail(f"`{call}.data` should be {number(x)}, the number the Value was made with, but it "
                 f"is {shown(v.data)}. The parameter data itself has to be stored, as it comes.",
                 fix=STORE_DATA_FIX)


@check("a new Value has no children")
def _(code):
    Value = _value_class(code)
    v = _make("Value(2.0)", lambda: Value(2.0))
    if not hasattr(v, "_children"):
        fail(UNDERSCORE if "children" in getattr(v, "__dict__", {}) else NO_CHILDREN,
             fix=UNDERSCORE_FIX)
    kids = v._children
    if kids is None:
        fail("`Value(2.0)._children` is None, but should be an empty tuple (). Later lessons loop "
             "over the children of every Value, and a loop over None fails: the default in the "
             "def line has to be the empty tuple.", fix=NO_DEFAULTS_FIX)
    if not isinstance(kids, (tuple, list)) or len(kids) != 0:
        fail(f"`Value(2.0)._children` is {shown(kids)}, but should be an empty tuple (): a number "
             "typed in directly is made from no other Values. The parameter children, whose "
             "default is (), has to be stored as it comes.", fix=UNDERSCORE_FIX)


@check("e = Value(-6.0, (a, b)) remembers a and b")
def _(code):
    Value = _value_class(code)
    a = _make("Value(2.0)", lambda: Value(2.0))
    b = _make("Value(-3.0)", lambda: Value(-3.0))
    e = _make("Value(-6.0, (a, b))", lambda: Value(-6.0, (a, b)))
    if e.data != -6.0:
        fail(f"`e = Value(-6.0, (a, b))` should keep data -6, but e.data is {shown(e.data)}. The "
             "number comes first, the children second: each is stored on self under its own "
             "name.", fix=STORE_DATA_FIX)
    if not hasattr(e, "_children"):
        fail(NO_CHILDREN.replace("Value(2.0)", "e = Value(-6.0, (a, b))"), fix=UNDERSCORE_FIX)
    kids = e._children
    if not isinstance(kids, (tuple, list)) or len(kids) != 2:
        fail(f"`e = Value(-6.0, (a, b))` should keep its two children, but e._children is "
             f"{shown(kids)}. The parameter children has to be stored as it comes.",
             fix=UNDERSCORE_FIX)
    if kids[0] is b and kids[1] is a:
        fail("`e = Value(-6.0, (a, b))` should keep a and b as its children in that order, but "
             "e._children holds b first, then a: they were swapped. The order matters: lesson 4.4 "
             "pairs each child with the local grad at the same place.", fix=UNDERSCORE_FIX)
    if kids[0] is not a or kids[1] is not b:
        held = [getattr(k, "data", k) for k in kids]
        copies = held == [2.0, -3.0]
        fail("`e = Value(-6.0, (a, b))` should keep a and b themselves as its children, in that "
             f"order, but e._children holds {shown(held)} in other objects"
             + (": new ones with the same numbers, so the link from e to a and b is lost, and "
                "nothing made from e can reach them any more." if copies else ".")
             + " The very tuple it was given has to be stored.", fix=UNDERSCORE_FIX)


@check("d = a * b + c, made by hand and walked from d")
def _(code):
    Value = _value_class(code)
    a, b, c = (_make(f"Value({x!r})", lambda x=x: Value(x)) for x in (2.0, -3.0, 10.0))
    e = _make("e = Value(a.data * b.data, (a, b), (b.data, a.data))",
              lambda: Value(a.data * b.data, (a, b), (b.data, a.data)))
    d = _make("d = Value(e.data + c.data, (e, c), (1, 1))",
              lambda: Value(e.data + c.data, (e, c), (1, 1)))
    if not hasattr(d, "_local_grads"):
        fail("`d = Value(e.data + c.data, (e, c), (1, 1))` made a Value without "
             "`._local_grads`. The third thing has to be kept too: later lessons use it.",
             fix="Store it: `self._local_grads = local_grads`.")
    kept, fresh = d._local_grads, Value(2.0)._local_grads
    if not isinstance(kept, (tuple, list)) or tuple(kept) != (1, 1) or \
            not isinstance(fresh, (tuple, list)) or tuple(fresh) != ():
        fail(f"`d = Value(e.data + c.data, (e, c), (1, 1))` should keep local_grads (1, 1), and "
             f"a new Value (), but they are {shown(kept)} and {shown(fresh)}. The parameter has "
             "to be stored as it comes, and its default in the def line is the empty tuple ().",
             fix="Store it: `self._local_grads = local_grads`.")

    found = []

    def walk(node):  # down from d: every Value d was made from, children first
        for child in getattr(node, "_children", ()) or ():  # None was told by an earlier check
            walk(child)
        found.append(node)

    walk(d)
    leaves = [node.data for node in found if not getattr(node, "_children", ())]
    if [node.data for node in found] != [2.0, -3.0, -6.0, 10.0, 4.0] or leaves != [2.0, -3.0, 10.0]:
        fail(f"Walking down from d should meet 2, -3, -6, 10 and 4, but met "
             f"{shown([node.data for node in found])}.")
    return "From d, every number it was made from can be reached: 2, -3, 10, then -6 and 4."
