"""Checks for lesson 8.6: gpt() fills the cache it is given, one key and one value per call, and
name_loss() gives each name a fresh cache and passes it from position to position.

The cache is watched directly: the checks pass lists of their own to gpt() and look at them
afterwards, and a stand-in linear (the learner's own, noting its outputs) shows which k and v
were made. name_loss() is watched through a stand-in gpt (the learner's own, noting how full the
cache was at each call), so a cache made once for all names, or anew at every position, is
named from what the positions saw. The last checks compare name_loss() and gpt() with ours on
new names, longer than block_size too, each called twice: a cache that outlives a call fails.
"""
from linebyline.runtime import (
    Case,
    agrees,
    calling,
    check,
    close,
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


def _word(code):
    return WORD if all(ch in code.chars for ch in WORD) else "".join(code.chars[:4])


def _made(code, token, pos, keys, values):
    """gpt(token, pos, keys, values) run on our lists; returns the k and v linear() made, as
    numbers, and whether softmax was handed an empty list of scores (the call may raise)."""
    made, empty = {}, []
    real_linear, real_softmax = code.linear, code.softmax

    def linear(x, w):
        out = real_linear(x, w)
        for name in ("attn_wk", "attn_wv"):
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
            other = "v" if "attn_wv" in made and _same(key, made["attn_wv"]) else "not k"
            fail(f"{where}, the new entry of keys starts {_start(key)}: that is {other}, but keys "
                 f"keeps this position's k, which starts {_start(made['attn_wk'])}.")
        if "attn_wv" in made and not _same(value, made["attn_wv"]):
            other = "k" if _same(value, made.get("attn_wk", [])) else "not v"
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
        seen.append((pos, len(keys) if isinstance(keys, list) else None, id(keys)))
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
        fail(f"{call} returned {number(loss)}, but ours returns {number(ours)}.")
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


agrees("name_loss", _word_cases, call=lambda space, args: space.name_loss(*args).data,
       share=("weights",), name="name_loss() on new names, twice each")


def _name_cases(rng):
    for length in (17,):
        word = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(length))
        note = f"a {length}-letter name: positions up to block_size - 1" if length >= 16 else ""
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
    logits = [[logit.data for logit in space.gpt(tokens[pos], pos, keys, values)]
              for pos in range(min(space.block_size, len(tokens) - 1))]
    return _Run(["BOS" if t == space.BOS else space.chars[t] for t in tokens], logits)


def _parts(got, want):
    """Where two runs part: the first position whose logits differ, or ""."""
    if len(got.logits) != len(want.logits):
        return f"{len(got.logits)} positions were read, but there should be {len(want.logits)}"
    for pos, (mine, ours) in enumerate(zip(got.logits, want.logits)):
        for index, (a, b) in enumerate(zip(mine, ours)):
            if not close(a, b, 1e-9, 1e-12):
                got.data, want.data = mine, ours
                agree = f"; positions 0 to {pos - 1} agree" if pos else ""
                return (f"at position {pos} ({want.labels[pos]!r}), logit {index} is {number(a)} "
                        f"but should be {number(b)}{agree}")
    return ""


agrees("gpt()", _name_cases, call=_run_name, compare=_parts, share=("weights",),
       name="gpt() on new names, twice each")
