"""Checks for lesson 8.1: wpe, drawn second, and x = the token's row plus the position's row.

What gpt() does with x is read, not guessed: the first thing gpt() does with x is hand it to
rmsnorm, so a stand-in rmsnorm (the learner's own, with a note of what it was given) shows x
exactly as the learner's line made it, whatever its spelling. The probe is the letter 'n' at
positions 2 and 3 (as in 'anna'), each with an empty cache, so nothing but the position differs
between the two calls. The last check compares the whole of gpt() with ours on new names, up to
position block_size - 1, each name run twice with fresh caches.
"""
import random

from linebyline.runtime import (
    Case,
    agrees,
    calling,
    check,
    close,
    cut_counts,
    cut_words,
    fail,
    learner_line,
    number,
    reference,
    replacing,
)

LETTER = "n"
POSITIONS = (2, 3)


def _data(row):
    return [v.data if hasattr(v, "data") else v for v in row]


def _short(values, count=3):
    """The first numbers of a row, as a learner reads them: [0.0123, -0.1, ...]."""
    shown = ", ".join(number(round(v, 4)) for v in values[:count])
    return f"[{shown}, ...]" if len(values) > count else f"[{shown}]"


def _same(got, want):
    return len(got) == len(want) and all(close(a, b, 1e-9, 1e-12) for a, b in zip(got, want))


def _letter(code):
    return LETTER if LETTER in code.chars else code.chars[0]


@check("wpe: one row per position")
def _(code):
    weights = code.weights
    if not isinstance(weights, dict) or "wpe" not in weights:
        names = ", ".join(repr(name) for name in weights) if isinstance(weights, dict) else ""
        fail(f"weights has no 'wpe' (it holds {names}). gpt() reads weights['wpe'][pos], the "
             f"row of position pos, so weights needs a matrix named 'wpe' with one row for "
             f"each of the block_size = {code.block_size} positions.")
    wpe = weights["wpe"]
    rows = len(wpe)
    widths = {len(row) for row in wpe}
    if rows != code.block_size:
        per = " one per token (vocab_size)," if rows == code.vocab_size else ""
        fail(f"weights['wpe'] has {rows} rows,{per} but it needs one per position a name can "
             f"reach: block_size = {code.block_size} (positions 0 to {code.block_size - 1}). "
             f"gpt() picks its row by pos, never by token.")
    if widths != {code.n_embd}:
        fail(f"The rows of weights['wpe'] hold {', '.join(str(w) for w in sorted(widths))} "
             f"numbers, but each must hold n_embd = {code.n_embd}, as many as a row of wte: "
             f"the two rows are added number by number.")


@check("the weights are drawn in train3's order")
def _(code):
    ours = reference(code).weights
    theirs = code.weights
    order = [name for name in theirs if name in ("wte", "wpe", "lm_head")]
    if order != ["wte", "wpe", "lm_head"] and sorted(order) == ["lm_head", "wpe", "wte"]:
        first_wrong = next(a for a, b in zip(order, ["wte", "wpe", "lm_head"]) if a != b)
        fail(f"weights draws its first matrices in the order {', '.join(order)}. A dict is "
             f"built in the order it is written, and each matrix takes the next numbers "
             f"random.gauss hands out, so {first_wrong} took the numbers train3 draws for "
             f"{['wte', 'wpe', 'lm_head'][order.index(first_wrong)]}, and every matrix after it "
             f"shifted too. train3 draws wte, then wpe, then lm_head.")
    by_numbers = {tuple(tuple(_data(row)) for row in mat): name for name, mat in ours.items()}
    for name in ("wte", "wpe", "lm_head"):
        if name not in theirs:
            fail(f"weights has no {name!r}: train3 draws wte, then wpe, then lm_head.")
        numbers = tuple(tuple(_data(row)) for row in theirs[name])
        if numbers == tuple(tuple(_data(row)) for row in ours[name]):
            continue
        other = by_numbers.get(numbers)
        first = _short(_data(theirs[name][0]))
        if other is not None:
            fail(f"weights[{name!r}] starts {first}: those are the numbers train3 draws for "
                 f"{other!r}. random.gauss hands out its numbers in the order the matrices are "
                 f"drawn, so the order in the dict decides which matrix gets which: wte first, "
                 f"then wpe, then lm_head, then the attention matrices.")
        fail(f"weights[{name!r}] starts {first}, but train3's starts "
             f"{_short(_data(ours[name][0]))}: the draws before it differ. Draw wte (vocab_size "
             f"rows), then wpe (block_size rows), then lm_head (vocab_size rows), each with "
             f"n_embd numbers per row.")


def _x_of(code, token, pos):
    """The x the learner's gpt(token, pos, [], []) hands to rmsnorm first, as plain numbers."""
    seen = []
    real = code.rmsnorm

    def note(x):
        seen.append(list(x))
        return real(x)

    with replacing(code, "rmsnorm", note), calling(f"gpt({token}, {pos}, [], [])"):
        code.gpt(token, pos, [], [])
    if not seen:
        fail(f"gpt({token}, {pos}, [], []) never called rmsnorm, so x was never normalized: "
             "the line `x = rmsnorm(x)` right after x is made is given; put it back.")
    return _data(seen[0])


@check("x adds the token's row and the position's row")
def _(code):
    letter = _letter(code)
    token = code.chars.index(letter)
    wte, wpe = code.weights["wte"], code.weights["wpe"]
    before = {"wte": _data(wte[token]), **{f"wpe{p}": _data(wpe[p]) for p in POSITIONS}}
    xs = {pos: _x_of(code, token, pos) for pos in POSITIONS}
    after = {"wte": _data(wte[token]), **{f"wpe{p}": _data(wpe[p]) for p in POSITIONS}}
    if after["wte"] != before["wte"]:
        fail(f"After two calls of gpt() for {letter!r}, weights['wte'][{token}] (the row of "
             f"{letter!r}) has changed: it started {_short(before['wte'])} and is now "
             f"{_short(after['wte'])}. x was that row itself, not a new list, and adding the "
             f"position's row into x wrote into the weights. Build x as a new list, one sum per "
             f"pair of numbers.")
    for pos in POSITIONS:
        if after[f"wpe{pos}"] != before[f"wpe{pos}"]:
            fail(f"After gpt() for {letter!r}, weights['wpe'][{pos}] has changed: x was that "
                 f"row itself, and the token's row was added into the weights. Build x as a new "
                 f"list, one sum per pair of numbers.")
    token_row = before["wte"]
    for pos in POSITIONS:
        got = xs[pos]
        position_row = before[f"wpe{pos}"]
        want = [t + p for t, p in zip(token_row, position_row)]
        if _same(got, want):
            continue
        seen = (f"For {letter!r} (token {token}) at position {pos}, x starts {_short(got)}, "
                f"{len(got)} numbers")
        should = f"it should be wte[{token}] + wpe[{pos}], which starts {_short(want)}"
        if len(got) == 2 * len(want) and _same(got, token_row + position_row):
            fail(f"{seen}: the row of {letter!r} followed by the row of position {pos}. `+` "
                 f"between two lists joins them end to end; x needs n_embd = {len(want)} "
                 f"numbers, each the sum of a pair. (linear() pairs x with each row of weights "
                 f"by zip, which stops after {len(want)}, so the position's half would be "
                 f"silently dropped.)", fix="x = [t + p for t, p in zip(weights['wte'][token], "
                 "weights['wpe'][pos])]")
        if _same(got, token_row):
            other = POSITIONS[1] if pos == POSITIONS[0] else POSITIONS[0]
            fail(f"{seen}: that is the row of {letter!r} alone, and at position {other} x is "
                 f"the very same. Without the position's row, gpt() cannot tell where in the name "
                 f"a letter is: {should}.")
        if _same(got, position_row):
            fail(f"{seen}: that is the row of position {pos} alone, the same for every letter: "
                 f"{should}.")
        if token < len(wpe) and _same(got, [t + p for t, p in zip(token_row, _data(wpe[token]))]):
            fail(f"{seen}: the row of {letter!r} plus row {token} of wpe, read at the token "
                 f"({token}) instead of the position ({pos}). wpe has a row per position: "
                 f"{should}. (For letters after the first {len(wpe)} tokens, wpe has no such "
                 f"row at all.)")
        if pos < len(wte) and token < len(wpe) and _same(
                got, [t + p for t, p in zip(_data(wte[pos]), _data(wpe[token]))]):
            fail(f"{seen}: row {pos} of wte plus row {token} of wpe, the token and the position "
                 f"swapped. wte is read at the token, wpe at the position: {should}.")
        if _same(got, [t * p for t, p in zip(token_row, position_row)]):
            fail(f"{seen}: each number of the token's row times its partner in the position's "
                 f"row. The two rows are added, not multiplied: {should}.")
        fail(f"{seen}, but {should}.")
    _at_other_width(code, token, letter)
    return (f"{letter!r} at positions {POSITIONS[0]} and {POSITIONS[1]}: the same token row, two "
            f"different position rows, two different x; and x is as wide as the rows at another "
            f"width too.")


def _at_other_width(code, token, letter):
    """x again with weights 8 numbers wide: a width of 16 written into the line shows only here."""
    pos = POSITIONS[0]
    try:
        with _Width(code, OTHER_WIDTH):
            wte, wpe = code.weights["wte"], code.weights["wpe"]
            want = [t.data + p.data for t, p in zip(wte[token], wpe[pos])]
            got = _x_of(code, token, pos)
    except IndexError as error:
        _too_wide(error, code, f"gpt({token}, {pos}, [], [])")
    if not _same(got, want):
        fail(f"{WIDE}, x for {letter!r} (token {token}) at position {pos} holds {len(got)} numbers "
             f"and starts {_short(got)}, but it should be wte[{token}] + wpe[{pos}]: "
             f"{len(want)} numbers, starting {_short(want)}. With n_embd = 16 x was right, so "
             f"its line is written for the width 16 where it should follow the rows it adds.")


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
WIDE = (f"With another width, n_embd = {OTHER_WIDTH} (weights of {OTHER_WIDTH} numbers per row, "
        f"drawn by the check)")


def _too_wide(error, code, what):
    """The message for an IndexError met at the other width: a width of 16 written in."""
    line = learner_line(error, code)
    at = f" at line {line} of your code" if line is not None else ""
    fail(f"{WIDE}, {what} raised IndexError{at}: it read past the end of a vector of "
         f"{OTHER_WIDTH} numbers. With n_embd = 16 it ran, so something there counts to 16, the "
         f"bundled width, where it should count to n_embd (or to the vector's own length).")


_READ = ("wte", "wpe", "attn_wq", "attn_wk", "attn_wv", "attn_wo", "lm_head")  # what gpt() reads


def _graph_gaps(code, word):
    """gpt()'s logits at every position of BOS + word (fresh cache), and the entries of the
    weights they read that are not in their graph, counted per matrix: {name: (cut, total)}."""
    tokens = [code.BOS] + [code.chars.index(ch) for ch in word]
    keys, values, logits = [], [], []
    for pos, token in enumerate(tokens):
        with calling(f"gpt({token}, {pos}, keys, values) for {word!r}"):
            logits.extend(code.gpt(token, pos, keys, values))
    weights = code.weights
    rows = {"wte": sorted(set(tokens)), "wpe": range(len(tokens))}
    gaps = cut_counts(logits, {name: weights[name] for name in _READ}, rows)
    letters = ["BOS" if t == code.BOS else repr(code.chars[t]) for t in rows["wte"]]
    label = {"wte": f"wte's rows for {', '.join(letters[:-1])} and {letters[-1]}",
             "wpe": f"wpe's rows for positions 0 to {len(tokens) - 1}"}
    return {label.get(name, name): counts for name, counts in gaps.items()}


_WHY = [
    ({"wte", "wpe"}, "The two rows reach the logits only through x = wte[token] + wpe[pos]: x "
     "was made from their plain numbers (`.data`), a new Value with no link back to them."),
    ({"wte"}, "The letter's row reaches the logits only through x = wte[token] + wpe[pos]: its "
     "plain numbers (`.data`) were used there instead of the Values."),
    ({"wpe"}, "The place's row reaches the logits only through x = wte[token] + wpe[pos]: its "
     "plain numbers (`.data`) were used there instead of the Values."),
    ({"attn_wq", "attn_wk"}, "q and k reach the logits only through the scores and attention's "
     "weights (attn): one of them was computed from plain numbers (`.data`), so the link back to "
     "q and k is gone, though every number is right."),
    ({"attn_wq", "attn_wk", "attn_wv"}, "q, k and v reach the logits only through the blend of "
     "the values: it was computed from plain numbers (`.data`), so the link back to attention's "
     "weights and to the values is gone, though every number is right."),
    ({"attn_wk"}, "k reaches the logits only through the keys in the cache: what keys holds, or "
     "what the scores read from it, is plain numbers (`.data`), not k's Values."),
    ({"attn_wv"}, "v reaches the logits only through the values in the cache and the blend: what "
     "values holds, or what the blend reads from it, is plain numbers (`.data`), not v's Values."),
    ({"attn_wq"}, "q reaches the logits only through the scores: they were computed from q's "
     "plain numbers (`.data`)."),
    ({"attn_wo"}, "attn_wo reaches the logits only through the output projection and the "
     "residual sum: one of them was computed from plain numbers (`.data`)."),
]


def _gap_message(word, gaps):
    names = {name.split("'")[0] for name in gaps}
    why = next((text for group, text in _WHY if names == group), None)
    if why is None and "lm_head" in names:
        why = ("Not even lm_head, the last matrix before them, is linked: the logits themselves "
               "were made anew from plain numbers (`.data`).")
    if why is None and "lm_head" not in names and len(names) >= 5:
        why = ("Only lm_head is still linked: x was made anew from plain numbers (`.data`) after "
               "attention, where the residual is added back or just before the read-out.")
    why = why or ("Somewhere between these weights and the logits, a Value's plain number "
                  "(`.data`) was used to compute with, where the Value itself must flow.")
    return (f"gpt()'s logits for {word!r} (at all {len(word) + 1} positions) are computed from "
            f"the weights, but {cut_words(gaps)} are not in their graph: backward() from the "
            f"loss can never reach them, so training would never change them. {why}")


@check("a gradient reaches every weight gpt() reads")
def _(code):
    word = "emma" if all(ch in code.chars for ch in "emma") else "".join(code.chars[:4])
    gaps = _graph_gaps(code, word)
    if gaps:
        fail(_gap_message(word, gaps))
    return (f"Every number of attn_wq, attn_wk, attn_wv, attn_wo and lm_head, and of the rows of "
            f"wte and wpe that {word!r} reads, is in the graph of gpt()'s logits.")


LENGTHS = (1, 4, 9, 16, 23)


def _name_cases(rng):
    for length in LENGTHS:
        word = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(length))
        note = f"a {length}-letter name: positions up to block_size - 1" if length >= 16 else ""
        yield Case(f"the name {word!r}", lambda space, word=word: (
            [space.BOS] + [space.chars.index(ch) for ch in word] + [space.BOS], 16), note)
    word = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(6))
    yield Case(f"the name {word!r}, with n_embd = {OTHER_WIDTH}", lambda space, word=word: (
        [space.BOS] + [space.chars.index(ch) for ch in word] + [space.BOS], OTHER_WIDTH),
        f"another width: weights of {OTHER_WIDTH} numbers per row, drawn by the check")


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
