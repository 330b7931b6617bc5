"""Checks for lesson 8.6: gpt() fills the cache it is given, one key and one value per call, and
name_loss() gives each name a fresh cache and passes it from position to position.

The cache is watched directly: the checks pass lists of their own to gpt() and look at them
afterwards, and a stand-in linear (the learner's own, noting its outputs) shows which k and v
were made. name_loss() is watched through a stand-in gpt (the learner's own, noting how full the
cache was at each call), so a cache made once for all names, or anew at every position, is
named from what the positions saw. The last checks compare name_loss() and gpt() with ours on
new names, longer than block_size too, each called twice: a cache that outlives a call fails.
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
    number,
    reference,
    replacing,
)

WORD = "emma"


def _data(values):
    return [v.data if hasattr(v, "data") else v for v in values]


def _start(values):
    return "[" + ", ".join(number(round(v, 4)) for v in values[:3]) + ", ...]"


def _same(got, want):
    return len(got) == len(want) and all(close(a, b, 1e-9, 1e-12) for a, b in zip(got, want))


def _label(code, token):
    return "BOS" if token == code.BOS else repr(code.chars[token])


def _word(code):
    return WORD if all(ch in code.chars for ch in WORD) else "".join(code.chars[:4])


def _made(code, token, pos, keys, values):
    """gpt(token, pos, keys, values) run on our lists; returns the k and v linear() made, as
    numbers, and whether softmax was handed an empty list of scores (the call may raise)."""
    made, empty = {}, []
    real_linear, real_softmax = code.linear, code.softmax

    def linear(x, w):
        out = real_linear(x, w)
        for name in ("attn_wq", "attn_wk", "attn_wv"):
            if w is code.weights[name]:
                made[name] = _data(out)
        return out

    def softmax(logits):
        if len(logits) == 0:
            empty.append(True)
        return real_softmax(logits)

    with replacing(code, "linear", linear), replacing(code, "softmax", softmax):
        try:
            code.gpt(token, pos, keys, values)
            error = None
        except Exception as raised:  # noqa: BLE001 - explained below, or reported as it is
            error = raised
    return made, bool(empty), error


@check("gpt() adds one key and one value per call")
def _(code):
    word = _word(code)
    tokens = [code.BOS] + [code.chars.index(ch) for ch in word]
    keys, values = [], []
    for pos, token in enumerate(tokens[:3]):
        before_keys, before_values = [_data(k) for k in keys], [_data(v) for v in values]
        made, empty, error = _made(code, token, pos, keys, values)
        call = f"gpt({token}, {pos}, keys, values)"
        where = (f"Reading {word!r} with our own keys and values lists, after {call} "
                 f"(position {pos})")
        if empty:
            fail(f"Reading {word!r}, at position {pos} softmax was handed an empty list of "
                 f"scores: when the scores were made, this position's key was not in keys yet. "
                 f"Add k and v to the cache before the scores are computed, so that every "
                 f"position sees itself too (and position 0 has something to look at).")
        if len(keys) == len(before_keys) + code.n_embd:
            fail(f"{where}, keys grew by {code.n_embd} items, not 1: the {code.n_embd} numbers of "
                 f"k were added one by one. keys must hold one entry per position, each a whole "
                 f"key: append adds k as one item (extend, or +=, adds its items).")
        if error is not None:
            with calling(call):
                raise error
        if len(keys) == len(before_keys) and len(values) == len(before_values):
            fail(f"{where}, keys and values still hold {len(keys)} items each: nothing was added "
                 f"to the lists the caller passed in. gpt() must add this position's k and v to "
                 f"those very lists (the stand-in makes new ones inside gpt(), which vanish when "
                 f"it returns), so that later positions find them.")
        for name, kept, before in (("keys", keys, before_keys), ("values", values, before_values)):
            if len(kept) != len(before) + 1:
                fail(f"{where}, {name} holds {len(kept)} items where there should be {pos + 1}: "
                     f"each call adds exactly one, this position's.")
            if any(not _same(_data(a), b) for a, b in zip(kept, before)):
                fail(f"{where}, the {name} of earlier positions changed. The cache keeps them as "
                     f"they were made: each call only adds its own at the end.")
        key, value = _data(keys[-1]), _data(values[-1])
        if "attn_wk" in made and not _same(key, made["attn_wk"]):
            other = next((role for name, role in (("attn_wv", "v"), ("attn_wq", "q"))
                          if _same(key, made.get(name, []))), "not k")
            fail(f"{where}, the new entry of keys starts {_start(key)}: that is {other}, but keys "
                 f"keeps this position's k, which starts {_start(made['attn_wk'])}.")
        if "attn_wv" in made and not _same(value, made["attn_wv"]):
            other = next((role for name, role in (("attn_wk", "k"), ("attn_wq", "q"))
                          if _same(value, made.get(name, []))), "not v")
            fail(f"{where}, the new entry of values starts {_start(value)}: that is {other}, but "
                 f"values keeps this position's v, which starts {_start(made['attn_wv'])}. A "
                 f"position is found by its key and hands over its value: the two lists hold "
                 f"different things.")
    return "After 3 calls, keys and values hold 3 entries each, one per position, in order."


def _watched_loss(code, doc):
    """name_loss(doc), noting how many keys the cache held when gpt() was called at each
    position, and whether each call got the same cache lists."""
    seen = []
    real_gpt = code.gpt

    def gpt(token, pos, keys, values):
        seen.append((pos, len(keys) if isinstance(keys, list) else None, token))
        return real_gpt(token, pos, keys, values)

    with replacing(code, "gpt", gpt), calling(f"name_loss({doc!r})"):
        loss = code.name_loss(doc)
    return getattr(loss, "data", loss), seen


@check("name_loss() gives each name a fresh cache, passed from position to position")
def _(code):
    first, second = "anna", "bo"
    if not all(ch in code.chars for ch in first + second):
        first, second = "".join(code.chars[:4]), "".join(code.chars[:2])
    _, seen_first = _watched_loss(code, first)
    loss, seen = _watched_loss(code, second)
    ours = _watched_loss_reference(code, second)
    sizes = [size for _, size, _ in seen]
    want = list(range(len(seen)))
    call = f"name_loss({second!r}) (after name_loss({first!r}))"
    if sizes[:1] and sizes[0] is not None and sizes[0] > 0:
        fail(f"In {call}, the cache already held {sizes[0]} keys when gpt() read BOS at position "
             f"0: the keys of {first!r} were still in it. Each name needs a cache of its own, made "
             f"empty at the start of name_loss(), or every name sees the letters of the names "
             f"before it.")
    if sizes and all(size == 0 for size in sizes) and len(sizes) > 1:
        fail(f"In {call}, gpt() was handed an empty cache at every position (it held "
             f"{', '.join(str(s) for s in sizes)} keys at positions 0 to {len(sizes) - 1}), so "
             f"each position saw only itself. Make the cache once per name, before the loop "
             f"over positions, and pass the same keys and values to every call.")
    if sizes != want:
        fail(f"In {call}, the cache held {', '.join(str(s) for s in sizes)} keys when gpt() was "
             f"called at positions 0 to {len(sizes) - 1}; it should hold "
             f"{', '.join(str(s) for s in want)}: every earlier position's key, and nothing else.")
    if not close(loss, ours, 1e-9, 1e-12):
        read = [(pos, token) for pos, _, token in seen]
        tokens = [code.BOS] + [code.chars.index(ch) for ch in second] + [code.BOS]
        want_read = list(enumerate(tokens[:len(tokens) - 1]))
        if read != want_read:
            def show(pairs):
                return ", ".join(f"{_label(code, token)} at {pos}" for pos, token in pairs)
            fail(f"In {call}, gpt() was called with {show(read)}, but each position reads the "
                 f"token at that position: {show(want_read)}. The cache was right (it grew by one "
                 f"key per call), but name_loss() returned {number(loss)} where ours returns "
                 f"{number(ours)}.")
        fail(f"In {call}, gpt() read the right tokens at positions 0 to {len(seen) - 1} with the "
             f"cache growing by one key per call, but name_loss() returned {number(loss)} where "
             f"ours returns {number(ours)}: the losses of the positions are taken or averaged "
             f"differently.")
    return (f"name_loss({second!r}) called gpt() with a cache holding "
            f"{', '.join(str(s) for s in sizes)} keys: a fresh cache, growing by one per position.")


def _watched_loss_reference(code, doc):
    """Our name_loss(doc) on the learner's weights (the same numbers when drawn the same)."""
    ours = reference(code)
    saved = ours._namespace["weights"]
    ours._namespace["weights"] = code.weights
    try:
        return ours.name_loss(doc).data
    finally:
        ours._namespace["weights"] = saved


def _word_cases(rng):
    for length in (1, 5, 20):
        word = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(length))
        note = (f"a {length}-letter name, longer than block_size - 1"
                if length >= 16 else "")
        yield Case(repr(word), lambda space, word=word: (word,), note)


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


def _loss(space, args):
    """name_loss() of the name on weights drawn here (each program its own copy of the same
    numbers), so that neither program's weights are shared or moved."""
    with _Width(space, 16):
        return space.name_loss(*args).data


agrees("name_loss", _word_cases, call=_loss, name="name_loss() on new names, twice each")


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


LENGTHS = (17,)


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
