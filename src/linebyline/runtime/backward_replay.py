"""The learner's own backward() replayed one grad write at a time, each write judged.

While it runs again, ``grad`` on the learner's class is a property that records every write: which
node received it, what it held before and after, and which node was handing its grad on (the
Value in the writing frame that has the receiver among its children). Each write is then held
against the rule the lesson teaches ("chain": the child gains local grad × the node's grad;
"paths": it gains the node's count of paths), so a replaced grad, a wrong amount or a node
that hands on before its users have finished with it is marked in words a beginner reads.
Afterwards the class and every grad are put back exactly as the learner's run left them.
"""
from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from typing import Any

from .value_nodes import children_of, close, number

STEP_LIMIT = 2000  # writes kept for the step-through; the rest are only counted
_MISSING = object()
Words = Callable[[], str]


def _children(node: Any) -> tuple[Any, ...]:
    return children_of(node) or ()


def _fmt(x: float | None) -> str:
    return "something that is not a number" if x is None else f"{x:.6g}"


def _grad_of(name: str) -> str:
    """x.grad for a node the file names, "the grad of the * node #4" for one it does not."""
    return f"{name}.grad" if name.isidentifier() else f"the grad of {name}"


class _GradSlot:
    """How a class stores grad before it is patched: a descriptor (a slot, a property) or the
    instance's __dict__, with a class-level default behind it."""

    def __init__(self, cls: type) -> None:
        self.cls = cls
        self.own = cls.__dict__.get("grad", _MISSING)
        self.descriptor = None
        self.default = _MISSING
        for base in cls.__mro__:
            found = base.__dict__.get("grad", _MISSING)
            if found is _MISSING:
                continue
            if hasattr(type(found), "__set__"):
                self.descriptor = found
            else:
                self.default = found
            break

    def get(self, obj: Any) -> Any:
        if self.descriptor is not None:
            return self.descriptor.__get__(obj, self.cls)
        stored = getattr(obj, "__dict__", {}).get("grad", self.default)
        if stored is _MISSING:
            raise AttributeError(f"'{type(obj).__name__}' object has no attribute 'grad'")
        return stored

    def set(self, obj: Any, value: Any) -> None:
        if self.descriptor is not None:
            self.descriptor.__set__(obj, value)
        else:
            obj.__dict__["grad"] = value

    def peek(self, obj: Any) -> Any:
        try:
            return self.get(obj)
        except AttributeError:
            return _MISSING

    def restore(self) -> None:
        if self.own is _MISSING:
            delattr(self.cls, "grad")
        else:
            self.cls.grad = self.own


class _Recorder:
    def __init__(self, root: Any, order: list[Any], index: Mapping[int, int], labels: Mapping[int, str],
                 rule: str, filename: str) -> None:
        self.root, self.index, self.labels, self.rule, self.filename = root, index, labels, rule, filename
        self.members = {id(node): node for node in order}
        self.users: dict[int, list[Any]] = {id(node): [] for node in order}
        for node in order:
            for kid in _children(node):
                if id(kid) in self.users and node not in self.users[id(kid)]:
                    self.users[id(kid)].append(node)
        self.slots: dict[type, _GradSlot] = {}
        self.steps: list[dict[str, Any]] = []
        self.writes = 0
        self.handed: dict[tuple[int, int], int] = {}
        self.received: dict[int, set[int]] = {}
        self.started: set[int] = set()
        self.order: list[int] | None = None
        self.marked = 0  # writes marked wrong, drawn or not
        self.slot: int | None = None

    def label(self, node: Any) -> str:
        return self.labels.get(id(node), "a node not drawn here")

    def grad(self, node: Any) -> float | None:
        slot = self.slots.get(type(node))
        return number(slot.peek(node)) if slot else None

    def wrote(self, obj: Any, before: Any, after: Any, frame: Any) -> None:
        if id(obj) not in self.members:
            return
        self.writes += 1
        if self.order is None:
            self.order = self._learners_order(frame)
        giver = self._giver(obj, frame)
        self.slot = None
        mark, words, add = self._judge(obj, number(before), number(after), giver)
        self.marked += bool(mark)
        if giver is not None:
            self.received.setdefault(id(obj), set()).add(id(giver))
        if len(self.steps) < STEP_LIMIT and (id(obj) in self.index or mark):
            code = frame.f_code
            self.steps.append({
                "to": self.index.get(id(obj)), "from": None if giver is None else self.index.get(id(giver)),
                "before": number(before), "after": number(after), "add": add,
                "line": frame.f_lineno if code.co_filename == self.filename else None,
                "mark": mark, "words": words(),  # put in words only for a step that is kept
                "slot": self.slot,
            })

    def _giver(self, obj: Any, frame: Any) -> Any:
        """The Value handing its grad on: in the writing frame, one that has obj as a child. The
        last such local wins: the loop's node comes after backward()'s own self, which (as the
        root) has many children too."""
        for value in reversed(list(frame.f_locals.values())):
            if value is not obj and id(value) in self.members and any(k is obj for k in _children(value)):
                return value
        return None

    def _learners_order(self, frame: Any) -> list[int]:
        """The learner's topological sort, when a frame of their backward() holds it as a list."""
        best: list[Any] = []
        for _ in range(3):
            if frame is None:
                break
            for value in list(frame.f_locals.values()):
                if (isinstance(value, list) and len(value) > len(best)
                        and all(id(item) in self.members for item in value)):
                    best = value
            frame = frame.f_back
        return [self.index[id(node)] for node in best if id(node) in self.index]

    def _judge(self, obj: Any, before: float | None, after: float | None, giver: Any
               ) -> tuple[str, Words, float | None]:
        """The step's mark, its words (a function: most writes of a big graph are never shown,
        and formatting their numbers was most of a replay's time) and what it should add."""
        name = self.label(obj)
        if giver is None:
            if obj is self.root:
                if close(after, 1.0):
                    return "", lambda: f"backward() starts at {name}: its grad is 1.", 1.0
                return "start", lambda: (f"backward() set {_grad_of(name)} to {_fmt(after)}, but the Value "
                                         f"it is called on must start at 1 (it moves exactly as fast as "
                                         f"itself)."), 1.0
            if after == 0:
                return "", lambda: f"{_grad_of(name)} is set to 0 before the walk.", None
            return "outside", lambda: (f"{_grad_of(name)} was set to {_fmt(after)} by no node made from "
                                       f"it: only the nodes that use {name} should hand it a grad."), None
        share, add = self._share(obj, giver)
        mark, text = self._amount(name, self.label(giver), before, after, add, share)
        early = self._early(giver)
        if early and not mark:
            return "early", early, add
        return mark, (lambda: text() + (f" {early()}" if early else "")), add

    def _share(self, obj: Any, giver: Any) -> tuple[Words, float | None]:
        """What the giver should hand obj now, and that sum in words."""
        kids = _children(giver)
        places = [i for i, kid in enumerate(kids) if kid is obj]
        turn = self.handed.get((id(giver), id(obj)), 0)
        self.handed[(id(giver), id(obj))] = turn + 1
        # Which of the giver's arrows this write travels (x * x hands x its grad twice).
        self.slot = places[turn % len(places)] if places else None
        grad = self.grad(giver)
        giver_name = self.label(giver)
        if self.rule == "paths":
            return (lambda: f"its count of paths, {_fmt(grad)}"), grad
        local_grads = getattr(giver, "_local_grads", None)
        if not places or not isinstance(local_grads, (tuple, list)) or len(local_grads) != len(kids):
            return (lambda: ""), None
        local = number(local_grads[places[turn % len(places)]])
        if local is None or grad is None:
            return (lambda: ""), None
        return (lambda: f"local grad {_fmt(local)} × {_grad_of(giver_name)} {_fmt(grad)} = "
                        f"{_fmt(local * grad)}"), local * grad

    @staticmethod
    def _amount(name: str, giver: str, before: float | None, after: float | None, add: float | None,
                share: Words) -> tuple[str, Words]:
        grad = _grad_of(name)
        if add is None or before is None:
            return "", lambda: f"{giver} hands {name} a grad: it is now {_fmt(after)}."
        if close(after, before + add):
            return "", lambda: (f"{giver} adds {share()} to {grad}: {_fmt(before)} + {_fmt(add)} = "
                                f"{_fmt(after)}.")
        if before != 0 and close(after, add):
            return "replaced", lambda: (f"{grad} already held {_fmt(before)} from another path, and this "
                                        f"step replaced it with {_fmt(after)}. It should add: "
                                        f"{_fmt(before)} + {_fmt(add)} = {_fmt(before + add)}. Write += so "
                                        f"that every path's share adds up.")
        return "amount", lambda: (f"{giver} handed {name} {_fmt((after or 0) - before)}, but its share is "
                                  f"{share()}: {grad} should have become {_fmt(before + add)}, not "
                                  f"{_fmt(after)}.")

    def _early(self, giver: Any) -> Words | None:
        if id(giver) in self.started:
            return None
        self.started.add(id(giver))
        waiting = [user for user in self.users.get(id(giver), [])
                   if id(user) not in self.received.get(id(giver), set())]
        if not waiting:
            return None
        return lambda: (f"{self.label(giver)} handed its grad on before {self.label(waiting[0])}, which "
                        f"uses it, had handed it its share: its grad was not finished yet. Walk the nodes "
                        f"so that each comes after every node made from it (the reversed topological "
                        f"order).")


def _reference(root: Any, order: list[Any], rule: str) -> dict[int, float] | None:
    ref = {id(node): 0.0 for node in order}
    ref[id(root)] = 1.0
    for node in reversed(order):
        kids = _children(node)
        local_grads = getattr(node, "_local_grads", None)
        if rule != "paths" and (not isinstance(local_grads, (tuple, list)) or len(local_grads) != len(kids)):
            if kids:
                return None
            continue
        for i, kid in enumerate(kids):
            local = 1.0 if rule == "paths" else number(local_grads[i])  # type: ignore[index]
            if local is None:
                return None
            if id(kid) in ref:
                ref[id(kid)] += local * ref[id(node)]
    return ref


def replay(root: Any, order: list[Any], index: Mapping[int, int], labels: Mapping[int, str],
           rule: str = "chain", filename: str = "") -> dict[str, Any]:
    """Run ``root.backward()`` again from zero grads, recording and judging every grad write."""
    backward = getattr(root, "backward", None)
    if not callable(backward):
        return {"available": False,
                "why": "This Value has no backward() yet, so there is no walk to step through."}
    recorder = _Recorder(root, order, index, labels, rule, filename)
    classes = {type(node) for node in order}
    slots = {cls: _GradSlot(cls) for cls in classes}
    saved = {id(node): slots[type(node)].peek(node) for node in order}
    error = ""
    try:
        for cls, slot in slots.items():
            cls.grad = _recording(slot, recorder)
        recorder.slots = slots
        for node in order:
            if saved[id(node)] is not _MISSING:
                slots[type(node)].set(node, 0)
        backward()
    except Exception as raised:  # the learner's own backward() failing is something to show
        error = f"{type(raised).__name__}: {raised}".rstrip(": ")
    finally:
        finals = {id(node): number(slots[type(node)].peek(node)) for node in order}
        for slot in slots.values():
            if "grad" in slot.cls.__dict__ and isinstance(slot.cls.__dict__["grad"], property):
                slot.restore()
        for node in order:
            if saved[id(node)] is not _MISSING:
                slots[type(node)].set(node, saved[id(node)])
    return _result(recorder, root, order, index, rule, finals, error)


def _recording(slot: _GradSlot, recorder: _Recorder) -> property:
    def get(obj: Any) -> Any:
        return slot.get(obj)

    def put(obj: Any, value: Any) -> None:
        before = slot.peek(obj)
        slot.set(obj, value)
        recorder.wrote(obj, None if before is _MISSING else before, value, sys._getframe(1))

    return property(get, put)


def _result(recorder: _Recorder, root: Any, order: list[Any], index: Mapping[int, int], rule: str,
            finals: Mapping[int, float | None], error: str) -> dict[str, Any]:
    reference = _reference(root, order, rule)
    wrong = []
    if reference is not None:
        for node in order:
            if id(node) in index and not close(finals[id(node)], reference[id(node)]):
                wrong.append({"id": index[id(node)], "got": finals[id(node)], "want": reference[id(node)]})
    return {
        "available": True, "rule": rule, "steps": recorder.steps, "writes": recorder.writes,
        "marked": recorder.marked,
        "finals": {index[k]: v for k, v in finals.items() if k in index},
        "order": recorder.order or [], "error": error, "wrong": wrong,
        "reference": None if reference is None
        else {str(index[k]): v for k, v in reference.items() if k in index},
    }
