"""cut_off: the weights a learner's result is no longer computed from (issue 29's "computing
through .data" mistake class), found in their graph alone."""
from __future__ import annotations

from linebyline.runtime import cut_message, cut_off, matrix_leaves


class Value:
    """As a learner writes it in module 7 (only what the graph needs)."""

    def __init__(self, data, children=()):
        self.data, self._children = data, children

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        return Value(self.data + other.data, (self, other))

    __radd__ = __add__

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        return Value(self.data * other.data, (self, other))


def test_every_weight_in_a_value_flow_is_reached():
    w = [[Value(0.5), Value(-1.0)], [Value(2.0), Value(0.25)]]
    x = [Value(1.0), Value(2.0)]
    out = sum(wi * xi for wi, xi in zip(w[0], x)) + sum(wi * xi for wi, xi in zip(w[1], x))
    assert cut_off(out, matrix_leaves("w", w)) == []


def test_a_sum_made_from_plain_numbers_cuts_every_weight_before_it():
    w = [[Value(0.5), Value(-1.0)], [Value(2.0), Value(0.25)]]
    x = [Value(1.0), Value(2.0)]
    row0 = Value(sum(wi.data * xi.data for wi, xi in zip(w[0], x)))  # the .data mistake
    row1 = sum(wi * xi for wi, xi in zip(w[1], x))
    cut = cut_off([row0, row1], matrix_leaves("w", w))
    assert cut == ["w[0][0]", "w[0][1]"]
    message = cut_message("The attention scores", cut, 4)
    assert "2 of the 4 weights" in message and "w[0][0], w[0][1]" in message
    assert "`.data`" in message


def test_a_long_chain_does_not_recurse():
    x = Value(1.0)
    y = x
    for _ in range(50_000):
        y = y * 1.0
    assert cut_off(y, {"x": x}) == []


def test_many_outputs_of_one_graph_are_walked_once():
    """27 logits share one forward pass: the walk of the second reuses what the first reached."""
    asked = []

    class Counted(Value):
        @property
        def _children(self):
            asked.append(1)
            return self.__dict__["children"]

        @_children.setter
        def _children(self, children):
            self.__dict__["children"] = children

    x = Counted(1.0)
    y = x
    for _ in range(1_000):
        y = Counted(y.data, (y,))
    outputs = [Counted(y.data * k, (y,)) for k in range(300)]
    assert cut_off(outputs, {"x": x}) == []
    assert len(asked) == 1_001 + 300  # each node's children read once, not once per output
