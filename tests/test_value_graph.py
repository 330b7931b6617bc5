"""runtime/graph.py and backward_replay.py in CPython: the graph read from a learner's own Values,
their backward() replayed write by write, and each kind of wrong step marked.

Files are the lessons' solutions and small learner-style edits of them; expected numbers are
worked out here by hand (y = x*x + x at x = 3: dy/dx = 2x + 1 = 7)."""
from __future__ import annotations

import contextlib
import io
import math

import pytest

from linebyline.course import default_course_path
from linebyline.runtime.backward_replay import STEP_LIMIT
from linebyline.runtime.graph import LIMIT, describe, walk

COURSE = default_course_path()


def run(number: str, edit=lambda source: source, monkeypatch=None) -> dict:
    """The namespace the lesson's solution leaves, as Run leaves it in the browser."""
    folder = next((COURSE / "lessons").glob(f"{number}-*"))
    source = edit((folder / "solution.py").read_text(encoding="utf-8"))
    namespace = {"__name__": "__main__", "__file__": "mine.py"}
    with contextlib.redirect_stdout(io.StringIO()):
        exec(compile(source, "mine.py", "exec"), namespace)
    return namespace


@pytest.fixture(autouse=True)
def course_library(monkeypatch):
    monkeypatch.syspath_prepend(str(COURSE / "library"))
    monkeypatch.chdir(COURSE.parent.parent / "src" / "linebyline" / "data")  # input.txt is not needed here


def replaced(source: str) -> str:
    return source.replace("child.grad +=", "child.grad =")


def by_name(result: dict) -> dict:
    return {node["name"]: node for node in result["graph"]["nodes"] if node["name"]}


def test_the_graph_of_7_5s_demo_is_the_learners_own_with_ops_data_and_grads():
    result = describe(run("7.5"), filename="mine.py")
    assert result["name"] == "y"
    nodes = result["graph"]["nodes"]
    assert [(n["op"], n["data"], n["grad"]) for n in nodes] == [
        ("", 3.0, 7.0), ("*", 9.0, 1.0), ("+", 12.0, 1.0)]
    assert nodes[1]["children"] == [0, 0] and nodes[1]["local"] == [3.0, 3.0]  # x * x: x twice
    assert nodes[2]["children"] == [1, 0] and nodes[2]["local"] == [1.0, 1.0]
    assert result["graph"]["root"] == 2 and result["graph"]["total"] == 3


def test_a_correct_backward_replays_with_every_step_agreeing():
    backward = describe(run("7.5"), filename="mine.py")["backward"]
    assert backward["available"] and backward["error"] == "" and backward["wrong"] == []
    assert [s["mark"] for s in backward["steps"]] == [""] * 5
    assert [s["after"] for s in backward["steps"] if s["to"] == 0] == [1.0, 4.0, 7.0]  # 1 from y, 3 and 3
    assert all(s["line"] for s in backward["steps"])  # each write points at the learner's line
    assert backward["order"] == [0, 1, 2]  # their topological sort, read from their frame
    # x * x hands x its grad twice, once along each arrow.
    assert [s["slot"] for s in backward["steps"] if s["from"] == 1] == [0, 1]
    assert backward["reference"] == {"0": 7.0, "1": 1.0, "2": 1.0}


def test_a_replaced_grad_is_marked_with_what_it_should_have_added():
    backward = describe(run("7.5", replaced), filename="mine.py")["backward"]
    marked = [s for s in backward["steps"] if s["mark"]]
    assert [s["mark"] for s in marked] == ["replaced", "replaced"]
    assert "x.grad already held 1 from another path" in marked[0]["words"]
    assert "It should add: 1 + 3 = 4" in marked[0]["words"] and "Write +=" in marked[0]["words"]
    assert backward["wrong"] == [{"id": 0, "got": 3.0, "want": 7.0}]


def test_a_node_that_hands_on_before_its_users_is_marked_early():
    forwards = run("7.5", lambda s: s.replace("for node in reversed(order):", "for node in order:"))
    backward = describe(forwards, filename="mine.py")["backward"]
    early = [s for s in backward["steps"] if s["mark"] == "early"]
    assert early and "handed its grad on before y, which uses it" in early[0]["words"]
    assert backward["wrong"]  # walking forwards leaves x short


def test_a_wrong_amount_and_a_wrong_start_are_marked():
    halved = describe(run("7.5", lambda s: s.replace("local_grad * node.grad", "local_grad * node.grad / 2")))
    assert {s["mark"] for s in halved["backward"]["steps"]} == {"", "amount"}
    assert any("but its share is local grad" in s["words"] for s in halved["backward"]["steps"])
    started = describe(run("7.5", lambda s: s.replace("self.grad = 1\n", "self.grad = 2\n")))
    assert started["backward"]["steps"][0]["mark"] == "start"


def test_module_3_counts_paths():
    result = describe(run("3.5"), rule="paths", filename="mine.py")
    assert result["name"] == "L"  # not `node`, the demo's loop variable left on a leaf
    grads = {name: node["grad"] for name, node in by_name(result).items()}
    assert grads == {"L": 1.0, "d": 1.0, "e": 2.0, "c": 1.0, "a": 2.0, "b": 2.0}
    assert not [s for s in result["backward"]["steps"] if s["mark"]]
    wrong = describe(run("3.5", replaced), rule="paths", filename="mine.py")["backward"]
    assert "replaced" in [s["mark"] for s in wrong["steps"]]


def test_replay_puts_the_class_and_every_grad_back():
    namespace = run("7.5")
    cls = namespace["Value"]
    slot = cls.__dict__["grad"]
    before = [(n.grad, n.data) for n in walk(namespace["y"])]
    describe(namespace, filename="mine.py")
    assert cls.__dict__["grad"] is slot
    assert [(n.grad, n.data) for n in walk(namespace["y"])] == before


def test_a_class_without_slots_and_a_backward_that_raises():
    class Plain:
        def __init__(self, data, children=(), local_grads=()):
            self.data, self.grad, self._children, self._local_grads = data, 0, children, local_grads

        def __mul__(self, other):
            return Plain(self.data * other.data, (self, other), (other.data, self.data))

        def backward(self):
            self.grad = 1
            self._children[0].grad += self._local_grads[0]
            raise ValueError("half done")

    a, b = Plain(2.0), Plain(5.0)
    out = a * b
    result = describe({"a": a, "b": b, "out": out})
    assert result["name"] == "out"
    backward = result["backward"]
    assert backward["error"] == "ValueError: half done"
    assert len(backward["steps"]) == 2 and "grad" not in Plain.__dict__
    assert (a.grad, b.grad, out.grad) == (0, 0, 0)  # as the learner's run left them


def test_micrograd_style_values_are_read_too():
    class V:
        def __init__(self, data, prev=(), op=""):
            self.data, self.grad, self._prev, self._op = data, 0.0, set(prev), op

    a = V(2.0)
    b = V(a.data.__mul__(3), (a,), "*3")
    result = describe({"a": a, "b": b})
    assert [n["op"] for n in result["graph"]["nodes"]] == ["", "*3"]
    assert result["backward"]["available"] is False and "no backward()" in result["backward"]["why"]


def test_operations_are_read_from_microgpts_numbers():
    namespace = run("7.5")
    Value = namespace["Value"]
    x = Value(2.0)
    parts = {"exp": x.exp(), "log": x.log(), "relu": x.relu(), "**-1": x ** -1, "**2": x ** 2, "/": x / 4}
    namespace = {**parts, "x": x}
    ops = {name: by_name(describe(namespace, name))[name]["op"] for name in parts}
    assert {k: ops[k] for k in ("exp", "log", "relu", "**-1", "**2")} == {
        "exp": "exp", "log": "log", "relu": "relu", "**-1": "**-1", "**2": "**2"}
    assert ops["/"] == "*"  # x / 4 is x * 4**-1: a mul node, as microgpt builds it


def test_a_big_graph_is_drawn_near_its_root_with_the_rest_counted():
    namespace = run("7.5")
    Value = namespace["Value"]
    total = Value(0.0)
    for i in range(400):
        total = total + Value(float(i)) * 2
    result = describe({"total": total})
    graph = result["graph"]
    assert len(graph["nodes"]) == LIMIT < graph["total"]
    assert sum(n["folded"] for n in graph["nodes"]) > 0
    assert graph["nodes"][graph["root"]]["data"] == 2 * sum(range(400))
    steps = result["backward"]["steps"]
    assert len(steps) <= STEP_LIMIT and not [s for s in steps if s["mark"]]
    assert result["backward"]["writes"] == 1 + 2 * 400 + 2 * 400  # the start, each + and each *


def test_lists_are_pictures_and_names_are_explained():
    softmax = [math.exp(v) for v in (1.0, 2.0, 3.0)]
    shares = [v / sum(softmax) for v in softmax]
    namespace = {"scores": [1.0, -2.0], "shares": shares, "table": [[1, 2], [3, 4]], "word": "emma"}
    result = describe(namespace)
    assert result["names"] == ["scores", "shares", "table"]
    assert result["picture"]["kind"] == "grid" and result["picture"]["rows"] == [[1.0, 2.0], [3.0, 4.0]]
    assert describe(namespace, "shares")["picture"]["shares"] is True
    assert describe(namespace, "scores")["picture"]["shares"] is False
    assert describe(namespace, "word")["error"].startswith("word is a str, not a Value")
    assert "has no name nope" in describe(namespace, "nope")["error"]
    assert "holds no Value" in describe({"n": 3})["error"]


def a_small_model(namespace: dict) -> dict:
    """An embedding row, one layer and a head, with their weights in a dict as microgpt keeps
    them: the loss's graph is far bigger than the limit the test draws with."""
    Value = namespace["Value"]
    weights = {name: [[Value(0.1 * (i + j + 1)) for j in range(4)] for i in range(rows)]
               for name, rows in (("wte", 3), ("mlp", 4), ("head", 2))}
    x = weights["wte"][1]
    hidden = [sum((w * xi for w, xi in zip(row, x)), Value(0.0)).relu() for row in weights["mlp"]]
    logits = [sum((w * h for w, h in zip(row, hidden)), Value(0.0)) for row in weights["head"]]
    loss = -(logits[0].exp() / (logits[0].exp() + logits[1].exp())).log()
    loss.backward()
    return {"Value": Value, "weights": weights, "loss": loss}


def test_a_big_graph_folds_into_blocks_named_by_their_weights():
    namespace = a_small_model(run("7.5"))
    whole = describe(namespace, limit=20)
    assert [b["name"] for b in whole["blocks"]] == ["numbers", "wte", "mlp", "head"]
    assert sum(b["count"] for b in whole["blocks"]) == whole["graph"]["total"]
    mlp = describe(namespace, limit=20, block="mlp")
    assert mlp["block"] == "mlp" and mlp["graph"]["total"] == whole["blocks"][2]["count"]
    ops = {n["op"] for n in mlp["graph"]["nodes"]}
    assert "relu" in ops and "exp" not in ops and "log" not in ops  # the loss is head's
    head = describe(namespace, limit=200, block="head")
    assert {"exp", "log"} <= {n["op"] for n in head["graph"]["nodes"]}
    top = head["graph"]["nodes"][head["graph"]["root"]]
    assert top["data"] == namespace["loss"].data
    assert not [s for s in head["backward"]["steps"] if s["mark"]] and head["backward"]["marked"] == 0
    unknown = describe(namespace, limit=20, block="attn")
    assert unknown["error"] == "loss's graph has no block attn: it has numbers, wte, mlp, head."


def test_values_no_float_can_hold_a_class_without_grad_and_a_cycle_are_drawn_not_crashed():
    class Big:
        def __init__(self, data, children=()):
            self.data, self.grad, self._children = data, 0, children
            self._local_grads = tuple(1 for _ in children)

        def backward(self):
            self.grad = 1
            for kid in self._children:
                kid.grad += self.grad

    huge, two = Big(10 ** 1000), Big(2.0)
    result = describe({"huge": huge, "two": two, "top": Big(3.0, (huge, two))})
    assert [n["data"] for n in result["graph"]["nodes"]] == [None, 2.0, 3.0]  # shown as no number

    class NoGrad:
        __slots__ = ("data", "_children")

        def __init__(self, data, children=()):
            self.data, self._children = data, children

        def backward(self):
            pass

    result = describe({"x": NoGrad(1.0, (NoGrad(0.5),))})
    assert result["backward"]["writes"] == 0 and "grad" not in NoGrad.__dict__

    class Loop:  # a node that is its own child, and a backward() that never ends
        def __init__(self):
            self.data, self._children = 1.0, (self,)

        def backward(self):
            self.backward()

    result = describe({"loop": Loop()})
    assert result["graph"]["total"] == 1 and result["backward"]["error"].startswith("RecursionError")
