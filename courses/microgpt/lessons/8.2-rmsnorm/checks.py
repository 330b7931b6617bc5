"""Checks for lesson 8.2: rmsnorm(x), and gpt() normalizing x = letter + place right away.

The first check works [3, 4] out by hand and names each classic slip from the numbers it gives
(no square root, the root taken the wrong way, a sum for a mean, a width of 16 written in, the
missing 1e-5). The second is the independent proof: backward() through rmsnorm against
nudging, which catches a scale computed from plain numbers (`.data`), right in value but
invisible to backward(). Then gpt() is watched through a stand-in rmsnorm (the learner's own,
with a note of what it was given and gave back), and finally rmsnorm and gpt() are compared with
ours on new inputs: vectors of other lengths, zeros, big numbers, names up to position 15.
"""
import random

from linebyline.runtime import (
    Case,
    agrees,
    calling,
    check,
    close,
    fail,
    nudge_grads,
    number,
    replacing,
    shown,
)

EPS = 1e-5


def _data(values):
    return [v.data if hasattr(v, "data") else v for v in values]


def _list(values, digits=6):
    return "[" + ", ".join(number(round(v, digits)) for v in values) + "]"


def _same(got, want, rel=1e-9):
    return len(got) == len(want) and all(close(a, b, rel, 1e-12) for a, b in zip(got, want))


def _norm(values):
    scale = (sum(v * v for v in values) / len(values) + EPS) ** -0.5
    return [v * scale for v in values]


def _call(code, numbers):
    """rmsnorm of Values made from numbers, as plain numbers; fails if it is not a list."""
    text = f"rmsnorm([{', '.join(f'Value({v})' for v in numbers)}])"
    given = [code.Value(v) for v in numbers]
    kept = list(given)
    with calling(text):
        out = code.rmsnorm(given)
    if given != kept or _data(given) != list(numbers):
        fail(f"`{text}` changed the list it was given: x held {_list(numbers)} before the call "
             f"and {_list(_data(given))} after it. rmsnorm must build a new list and leave x as "
             f"it was: gpt() still uses x afterwards (the residual of lesson 8.5 is that very "
             f"list).")
    if not isinstance(out, (list, tuple)) or not all(hasattr(v, "data") for v in out):
        fail(f"`{text}` returned {shown(out)}, but rmsnorm must return a list of Values, one per "
             f"number of x, so that the rest of gpt() (and backward()) can use them.")
    return text, _data(out)


@check("rmsnorm([3, 4]), by hand")
def _(code):
    numbers = [3.0, 4.0]
    text, got = _call(code, numbers)
    squares = sum(v * v for v in numbers)
    mean_square = squares / len(numbers)
    scale = (mean_square + EPS) ** -0.5
    want = [v * scale for v in numbers]
    if _same(got, want):
        _, again = _call(code, numbers)
        if not _same(again, want):
            fail(f"`{text}` returned {_list(got)}, the right answer, the first time, and "
                 f"{_list(again)} the second time. The same x must always give the same answer: "
                 f"something rmsnorm uses lives on from one call to the next (a number or list "
                 f"made outside the function and added to inside it).")
        return
    seen = f"`{text}` returned {_list(got)}"
    should = (f"The mean of the squares is (9 + 16) / 2 = {number(mean_square)}; the scale is "
              f"one over the square root of that (plus 1e-5), {scale:.10f}; and 3 and 4 times "
              f"the scale give {_list(want)}.")
    if len(got) != len(numbers):
        fail(f"{seen}: {len(got)} numbers for an x of {len(numbers)}. rmsnorm scales each number "
             f"of x, so it returns as many as it is given. {should}")

    def times(factor):
        return _same(got, [v * factor for v in numbers], 1e-6)

    if times(1):
        fail(f"{seen}: x unchanged. {should}")
    if times(1 / (mean_square + EPS)):
        fail(f"{seen}: each number times 1 / ({number(mean_square)} + 1e-5) = "
             f"{number(1 / (mean_square + EPS))}, with no square root. A mean of squares is in "
             f"squared units: only its square root, {number(mean_square ** 0.5)}, is the size of "
             f"a typical number of x. {should}", fix="scale = (mean_square + 1e-5) ** -0.5")
    if times((mean_square + EPS) ** 0.5) or times(mean_square ** 0.5):
        fail(f"{seen}: each number times {number(mean_square ** 0.5)}, the root mean square "
             f"itself, which makes x bigger still: a vector of big numbers has to shrink, so "
             f"the scale is one over the root mean square. {should}",
             fix="scale = (mean_square + 1e-5) ** -0.5")
    if times((squares + EPS) ** -0.5) or times(squares ** -0.5):
        fail(f"{seen}: scaled by one over the square root of {number(squares)}, the sum of the "
             f"squares. rmsnorm needs their mean, the sum divided by len(x) = {len(numbers)}. "
             f"{should}", fix="mean_square = sum(xi * xi for xi in x) / len(x)")
    if times((squares / 16 + EPS) ** -0.5):
        fail(f"{seen}: the sum of the squares was divided by 16, not by len(x) = "
             f"{len(numbers)}. gpt()'s vectors do all hold 16 numbers, but rmsnorm must work for "
             f"a vector of any length. {should}", fix="mean_square = sum(xi * xi for xi in x) / len(x)")
    plain_mean = sum(numbers) / len(numbers)
    if times((plain_mean + EPS) ** -0.5) or times((abs(plain_mean) + EPS) ** -0.5):
        fail(f"{seen}: scaled by the mean of the numbers themselves, {number(plain_mean)}, not of "
             f"their squares. A mean of signed numbers can be 0 for a big vector (think [5, -5]); "
             f"squares are never negative. {should}")
    if times(mean_square ** -0.5):
        fail(f"{seen}. Your scale is {got[0] / numbers[0]:.10f} where it should be {scale:.10f}: "
             f"that is ({number(mean_square)}) ** -0.5, without the 1e-5. The numbers agree to "
             f"six digits here, but for an x of zeros the mean square is 0, and 0 ** -0.5 "
             f"divides by zero. The 1e-5 keeps the scale finite. {should}")
    fail(f"{seen}. {should}")


@check("backward() through rmsnorm matches nudging")
def _(code):
    Value = code.Value
    numbers = [0.3, -1.2, 0.5, 0.9]
    coefficients = [1.0, -2.0, 0.5, 3.0]
    what = ("x = [Value(0.3), Value(-1.2), Value(0.5), Value(0.9)], y = rmsnorm(x), "
            "out = y[0] - 2 * y[1] + 0.5 * y[2] + 3 * y[3]")
    with calling(f"building {what}"):
        x = [Value(v) for v in numbers]

        def build():
            y = code.rmsnorm(x)
            return sum(c * yi for c, yi in zip(coefficients, y))

        want = nudge_grads(build, x)
        out = build()
    with calling("out.backward()"):
        out.backward()
    got = [xi.grad for xi in x]
    if all(close(g, w, 1e-5, 1e-7) for g, w in zip(got, want)):
        return
    seen = "; ".join(f"x[{i}].grad is {number(g)} but nudging measures {number(w)}"
                     for i, (g, w) in enumerate(zip(got, want)) if not close(g, w, 1e-5, 1e-7))
    scale = (sum(v * v for v in numbers) / len(numbers) + EPS) ** -0.5
    constant = [c * scale for c in coefficients]
    if _same(got, constant, 1e-6):
        fail(f"With {what}: {seen}. Each output is xi times scale, and scale depends on every "
             f"number of x too, so nudging x[0] moves every output a little through scale. Your "
             f"grads are exactly what they would be if scale were a constant ({scale:.6f}): "
             f"backward() never reached x through scale. The scale must be computed from the "
             f"Values themselves, not from their .data (plain numbers), so that it stays part "
             f"of the graph.")
    fail(f"With {what}: {seen}. backward() follows the Values rmsnorm made; every step of it "
         "must be made of Values, from x to the list it returns.")


def _calls(code, token, pos):
    """What the learner's gpt(token, pos, [], []) gave rmsnorm, and what it got back."""
    seen = []
    real = code.rmsnorm

    def note(x):
        given = _data(x)
        out = real(x)
        seen.append((given, _data(out)))
        return out

    with replacing(code, "rmsnorm", note), calling(f"gpt({token}, {pos}, [], [])"):
        code.gpt(token, pos, [], [])
    return seen


@check("gpt() normalizes x = letter + place")
def _(code):
    letter = "e" if "e" in code.chars else code.chars[0]
    token, pos = code.chars.index(letter), 1
    x = [t.data + p.data for t, p in zip(code.weights["wte"][token], code.weights["wpe"][pos])]
    seen = _calls(code, token, pos)
    rms = (sum(v * v for v in x) / len(x)) ** 0.5
    where = f"In gpt({token}, {pos}, [], []) ({letter!r} at position {pos})"
    if not seen:
        fail(f"{where}, rmsnorm was never called. x = wte + wpe must be normalized right after "
             f"it is made, and again (given) before attention.")
    first_in, first_out = seen[0]
    if not _same(first_in, x):
        fail(f"{where}, the first thing rmsnorm was given starts {_list(first_in[:3], 4)}, but "
             f"it should be x = wte[{token}] + wpe[{pos}], which starts {_list(x[:3], 4)}: normalize "
             f"x right after the line that makes it.")
    if len(seen) == 1:
        fail(f"{where}, rmsnorm ran once: only before attention. x = wte[{token}] + wpe[{pos}] has "
             f"a root mean square of {rms:.4f}, far from 1, and the residual keeps it that way: "
             f"nothing between the line that makes x and the residual normalizes it, so what "
             f"the block starts from has a different size at every position.",
             fix="x = rmsnorm(x)")
    second_in = seen[1][0]
    if _same(second_in, first_in) and not _same(first_out, first_in):
        fail(f"{where}, rmsnorm was called on x = wte[{token}] + wpe[{pos}] (root mean square "
             f"{rms:.4f}) and gave back numbers of root mean square 1, but the next rmsnorm got "
             f"the old x again: the result was thrown away. rmsnorm returns a new list and "
             f"leaves the one it is given as it was, so x still held the numbers from before.",
             fix="x = rmsnorm(x)")
    if not _same(second_in, first_out):
        fail(f"{where}, what reaches attention's rmsnorm starts {_list(second_in[:3], 4)}, but "
             f"it should be the normalized x, which starts {_list(first_out[:3], 4)}.")
    return (f"x = wte[{token}] + wpe[{pos}] has a root mean square of {rms:.4f}; after rmsnorm, "
            f"{(sum(v * v for v in first_out) / len(first_out)) ** 0.5:.4f}.")


def _vector_cases(rng):
    """Lists of Values: the lengths gpt() uses (16) and others, zeros, and big numbers."""
    for length in (2, 16, 1, 27, 40):
        numbers = [round(rng.uniform(-2, 2), 3) for _ in range(length)]
        note = "" if length == 16 else f"a vector of {length} numbers, not the model's 16"
        yield _values_case(numbers, note)
    yield _values_case([0.0] * 5, "a vector of zeros")
    yield _values_case([round(rng.uniform(-500, 500), 1) for _ in range(6)], "big numbers")


def _values_case(numbers, note):
    text = (f"[{', '.join(f'Value({v})' for v in numbers)}]" if len(numbers) <= 6
            else f"a list of {len(numbers)} Values starting Value({numbers[0]}), Value({numbers[1]})")
    return Case(text, lambda space: ([space.Value(v) for v in numbers],), note)


def _norm_and_grads(space, args):
    """rmsnorm's numbers, then each input's grad after backward() of a weighted sum of them."""
    x = args[0]
    out = space.rmsnorm(x)
    total = sum((i % 3 + 1) * v for i, v in enumerate(out))
    total.backward()
    return [v.data for v in out] + [v.grad for v in x]


agrees("rmsnorm", _vector_cases, call=_norm_and_grads,
       name="rmsnorm on new vectors, twice each (numbers and grads)")


# --- weights drawn here: another width, and gpt() compared with ours without touching weights ---

def _drawn(space, width):
    """train3's seven matrices at the given width, drawn here from a seed of our own, as Values
    of ``space``: the learner's gpt() and ours read the very same numbers, and the weights of
    both programs are left as they are (nothing is shared, nothing moved)."""
    rows = {"wte": space.vocab_size, "wpe": space.block_size, "lm_head": space.vocab_size,
            "attn_wq": width, "attn_wk": width, "attn_wv": width, "attn_wo": width}
    key = (width, tuple(rows.values()))
    if key not in _NUMBERS:
        rng = random.Random(f"train3 weights, width {width}")
        _NUMBERS[key] = {name: [[rng.gauss(0, 0.08) for _ in range(width)] for _ in range(count)]
                         for name, count in rows.items()}
    return {name: [[space.Value(n) for n in row] for row in mat]
            for name, mat in _NUMBERS[key].items()}


_NUMBERS = {}  # the numbers drawn for each width, drawn once: each call makes Values of its own


class _Width:
    """``with _Width(space, 8):`` gpt() reads weights drawn here, 8 numbers wide, and
    n_embd = 8; both are put back when the block ends."""

    def __init__(self, space, width):
        self.parts = [replacing(space, "weights", _drawn(space, width)),
                      replacing(space, "n_embd", width)]

    def __enter__(self):
        for part in self.parts:
            part.__enter__()

    def __exit__(self, *error):
        for part in reversed(self.parts):
            part.__exit__(*error)
        return False


OTHER_WIDTH = 8
LENGTHS = (1, 5, 16, 22)


def _name_cases(rng):
    for length in LENGTHS:
        word = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(length))
        note = f"a {length}-letter name: positions up to block_size - 1" if length >= 16 else ""
        yield Case(f"the name {word!r}", lambda space, word=word: (
            [space.BOS] + [space.chars.index(ch) for ch in word] + [space.BOS], 16), note)


class _Run:
    """gpt()'s logits at every position of a name. Messages show its ``data``: a short note,
    or, once a comparison has found where two runs part, the logits at that position."""

    def __init__(self, labels, logits):
        self.labels, self.logits = labels, logits
        self.data = f"logits at {len(logits)} positions"


def _run_name(space, args):
    """gpt() at every position of the name (at most block_size), with a fresh cache, on weights
    drawn here at the case's width (each program gets its own copy of the same numbers)."""
    tokens, width = args
    keys, values = [], []
    with _Width(space, width):
        logits = [[logit.data for logit in space.gpt(tokens[pos], pos, keys, values)]
                  for pos in range(min(space.block_size, len(tokens) - 1))]
    return _Run(["BOS" if t == space.BOS else space.chars[t] for t in tokens], logits)


def _parts(got, want):
    """Where two runs part: the first position whose logits differ, or ""."""
    if len(got.logits) != len(want.logits):
        return f"{len(got.logits)} positions were read, but there should be {len(want.logits)}"
    for pos, (mine, ours) in enumerate(zip(got.logits, want.logits)):
        if len(mine) != len(ours):
            return f"at position {pos} there are {len(mine)} logits, but there should be {len(ours)}"
        for index, (a, b) in enumerate(zip(mine, ours)):
            if not close(a, b, 1e-9, 1e-12):
                got.data, want.data = mine, ours
                agree = f"; positions 0 to {pos - 1} agree" if pos else ""
                return (f"at position {pos} ({want.labels[pos]!r}), logit {index} is {number(a)} "
                        f"but should be {number(b)}{agree}")
    return ""


agrees("gpt()", _name_cases, call=_run_name, compare=_parts,
       name="gpt() on new names, twice each")
