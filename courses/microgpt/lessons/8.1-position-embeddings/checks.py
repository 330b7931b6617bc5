"""Checks for lesson 8.1: wpe, drawn second, and x = the token's row plus the position's row.

What gpt() does with x is read, not guessed: the first thing gpt() does with x is hand it to
rmsnorm, so a stand-in rmsnorm (the learner's own, with a note of what it was given) shows x
exactly as the learner's line made it, whatever its spelling. The probe is the letter 'n' at
positions 2 and 3 (as in 'anna'), each with an empty cache, so nothing but the position differs
between the two calls. The last check compares the whole of gpt() with ours on new names, up to
position block_size - 1, each name run twice with fresh caches.
"""
from linebyline.runtime import Case, agrees, calling, check, close, fail, number, reference, replacing

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
    return (f"{letter!r} at positions {POSITIONS[0]} and {POSITIONS[1]}: the same token row, two "
            f"different position rows, two different x.")


def _name_cases(rng):
    """Names of new letters, some longer than block_size: gpt() sees positions up to 15."""
    for length in (1, 4, 9, 16, 23):
        word = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(length))
        note = (f"a {length}-letter name: its positions run to block_size - 1"
                if length >= 16 else "")
        yield Case(f"the name {word!r}", lambda space, word=word: (
            [space.BOS] + [space.chars.index(ch) for ch in word] + [space.BOS],), note)


class _Run:
    """gpt()'s logits at every position of a name. Messages show its ``data``: a short note,
    or, once a comparison has found where two runs part, the logits at that position."""

    def __init__(self, labels, logits):
        self.labels, self.logits = labels, logits
        self.data = f"logits at {len(logits)} positions"


def _run_name(space, args):
    """gpt() at every position of the name (at most block_size), with a fresh cache."""
    tokens = args[0]
    keys, values = [], []
    logits = []
    for pos in range(min(space.block_size, len(tokens) - 1)):
        logits.append([logit.data for logit in space.gpt(tokens[pos], pos, keys, values)])
    labels = ["BOS" if token == space.BOS else space.chars[token] for token in tokens]
    return _Run(labels, logits)


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


agrees("gpt()", _name_cases, call=_run_name, compare=_parts, share=("weights",),
       name="gpt() on new names, twice each")
