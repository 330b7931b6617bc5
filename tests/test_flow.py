"""cut_off: the weights a learner's result is no longer computed from (issue 29's "computing
through .data" mistake class), found in their graph alone."""
from __future__ import annotations

from linebyline.runtime import cut_counts, cut_message, cut_off, cut_words, matrix_leaves


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


def _two_matrices():
    """wq read through its plain numbers (cut), wo read as Values (intact), over two outputs."""
    wq = [[Value(0.5), Value(-1.0)], [Value(2.0), Value(0.25)]]
    wo = [[Value(1.5), Value(0.5)], [Value(-0.5), Value(1.0)]]
    x = [Value(1.0), Value(2.0)]
    q = [Value(sum(w.data * xi.data for w, xi in zip(row, x))) for row in wq]  # the .data mistake
    outputs = [sum(w * qi for w, qi in zip(row, q)) for row in wo]
    return wq, wo, outputs


def test_cut_counts_counts_a_cut_matrix_and_leaves_an_intact_one_out():
    wq, wo, outputs = _two_matrices()
    assert cut_counts(outputs, {"wq": wq, "wo": wo}) == {"wq": (4, 4)}
    assert cut_counts(outputs[0], {"wo": wo}) == {"wo": (2, 4)}  # one output reads one row of wo
    assert cut_counts(outputs, {"wo": wo}) == {}


def test_cut_counts_counts_only_the_rows_asked_for():
    wq, wo, outputs = _two_matrices()
    assert cut_counts(outputs, {"wo": wo, "wq": wq}, rows={"wq": [1]}) == {"wq": (2, 2)}
    assert cut_counts(outputs[0], {"wo": wo}, rows={"wo": range(1)}) == {}  # row 0 is reached
    assert list(cut_counts(outputs[0], {"wq": wq, "wo": wo})) == ["wq", "wo"]  # in the given order


def test_cut_words_says_all_or_how_many_of_each_matrix():
    assert cut_words({"attn_wq": (256, 256)}) == "all 256 numbers of attn_wq"
    assert cut_words({"attn_wq": (256, 256), "wpe": (3, 16)}) == (
        "all 256 numbers of attn_wq and 3 of the 16 numbers of wpe")
    assert cut_words({"a": (1, 2), "b": (2, 2), "c": (5, 9)}) == (
        "1 of the 2 numbers of a, all 2 numbers of b and 5 of the 9 numbers of c")
    assert cut_words({}) == ""
