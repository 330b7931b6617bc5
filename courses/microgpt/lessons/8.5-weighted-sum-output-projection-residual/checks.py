"""Checks for lesson 8.5: the residual kept, x normalized again, the blend of the values, the
output projection, and the residual added back.

gpt() is watched through stand-ins for rmsnorm, linear and softmax (the learner's own, with a
note of every call): the first rmsnorm's output is what the residual must hold, the second's is
what q, k and v must read, softmax's output and the cache give the blend that must reach
attn_wo, and what reaches lm_head (the starter's given read_out, run here with the watched
linear) must be attn_wo's output plus the residual. Expectations are worked out here from
those, so any spelling passes; each classic slip is named from the numbers. The last check
compares gpt() with ours on new names, each run twice with fresh caches.
"""
from linebyline.runtime import Case, agrees, calling, check, close, fail, number, replacing

WORD = "emma"


def _data(values):
    return [v.data if hasattr(v, "data") else v for v in values]


def _list(values, digits=4):
    return "[" + ", ".join(number(round(v, digits)) for v in values) + "]"


def _start(values):
    return _list(values[:3])[:-1] + ", ...]"


def _same(got, want, rel=1e-9):
    return (got is not None and len(got) == len(want)
            and all(close(a, b, rel, 1e-12) for a, b in zip(got, want)))


def _add(a, b):
    return [x + y for x, y in zip(a, b)]


def _size(vector):
    return (sum(v * v for v in vector) / len(vector)) ** 0.5


def _watch(code, pos_wanted):
    """Run gpt() over BOS + the word with fresh caches, noting every call at position
    pos_wanted: rmsnorm's inputs and outputs, linear's (matrix name, input, output), softmax's
    output, and the values in the cache after the call."""
    word = WORD if all(ch in code.chars for ch in WORD) else "".join(code.chars[:4])
    tokens = [code.BOS] + [code.chars.index(ch) for ch in word]
    names = {id(mat): name for name, mat in code.weights.items()}
    keys, values = [], []
    note = {"norms": [], "linears": [], "softmax": []}
    real_norm, real_linear, real_softmax = code.rmsnorm, code.linear, code.softmax

    def rmsnorm(x):
        out = real_norm(x)
        note["norms"].append((x, out))
        return out

    def linear(x, w):
        out = real_linear(x, w)
        note["linears"].append((names.get(id(w), "another matrix"), x, out))
        return out

    def softmax(logits):
        out = real_softmax(logits)
        note["softmax"].append(_data(out))
        return out

    def read_out(x, weights):
        """The starter's given read-out (from the course's library), through the watched linear."""
        return linear(x, weights["lm_head"])

    for pos, token in enumerate(tokens[:pos_wanted + 1]):
        for kept in note.values():
            kept.clear()
        note["cache before"] = [_data(v) for v in values]
        with replacing(code, "rmsnorm", rmsnorm), replacing(code, "linear", linear), \
                replacing(code, "softmax", softmax), replacing(code, "read_out", read_out), \
                calling(f"gpt({token}, {pos}, keys, values) for {word!r}"):
            code.gpt(token, pos, keys, values)
    note["values"] = [_data(v) for v in values]
    note["keys"] = [_data(k) for k in keys]
    where = f"In gpt() for {word!r} at position {pos_wanted} ({word[pos_wanted - 1]!r})"
    return where, note


def _used(note, name):
    """(input, output) of the first linear() call with weights[name], as numbers, or None."""
    for used, given, out in note["linears"]:
        if used == name:
            return _data(given), _data(out)
    return None


POS = 3  # the second 'm' of 'emma': four keys and values in the cache


@check("the residual is kept, and x normalized again for attention")
def _(code):
    where, note = _watch(code, POS)
    norms = note["norms"]
    if len(norms) < 2:
        ran = "once" if len(norms) == 1 else "never"
        fail(f"{where}, rmsnorm ran {ran}, but twice is right: once on x = letter + place "
             f"(given), and once more on the x attention reads, after it is kept in `residual`.")
    first_out, second_in, second_out = norms[0][1], norms[1][0], norms[1][1]
    if second_in is not first_out and not _same(_data(second_in), _data(first_out)):
        fail(f"{where}, the second rmsnorm was given a vector that starts "
             f"{_start(_data(second_in))}, not x as the first rmsnorm left it (which starts "
             f"{_start(_data(first_out))}).")
    q = _used(note, "attn_wq")
    if q is None or not _same(q[0], _data(second_out)):
        fail(f"{where}, q was not made from the x the second rmsnorm returned: keep the given "
             "q, k and v lines right after it.")


@check("x is the blend of the values, weighted by attention")
def _(code):
    where, note = _watch(code, POS)
    weights, values = note["softmax"][0], note["values"]
    for index, (before, after) in enumerate(zip(note["cache before"], values)):
        if not _same(after, before):
            fail(f"{where}, the value that position {index} left in the cache changed during the "
                 f"call: it started {_start(before)} and ended {_start(after)}. Every later "
                 f"position blends the values in the cache again, so they must stay as they were "
                 f"made: build the blend as a new list, without writing into the values.")
    width = len(values[0])
    want = [sum(a * v[i] for a, v in zip(weights, values)) for i in range(width)]
    projected = _used(note, "attn_wo")
    read_out = _used(note, "lm_head")
    if projected is None:
        own = values[-1]
        if read_out is not None and _same(read_out[0], own):
            fail(f"{where}, x is this position's own value, {_start(own)}, and nothing else: the "
                 f"stand-in is still there. The blend takes some of every value in the cache, as "
                 f"much as attention says: with weights {_list(weights, 3)} it starts "
                 f"{_start(want)}.")
        residual = _data(note["norms"][0][1])
        if read_out is not None and _same(read_out[0], _add(want, residual)):
            fail(f"{where}, the blend of the values (which starts {_start(want)}) was added to "
                 f"the residual, but linear() was never called with weights['attn_wo']: the "
                 f"blend never went through the output projection, which turns what attention "
                 f"gathered into something to add to x.", fix="x = linear(x, weights['attn_wo'])")
        fail(f"{where}, linear() was never called with weights['attn_wo']: the blend of the "
             f"values must go through the output projection.")
    blend = projected[0]
    residual = _data(note["norms"][0][1])
    if _same(blend, _add(want, residual)):
        fail(f"{where}, what reaches attn_wo is the blend of the values plus the residual: the "
             f"residual was added before the output projection, so attn_wo mixes it in too. "
             f"The residual skips the whole attention block, projection included: the blend "
             f"goes through attn_wo, and the residual is added to what comes out.")
    if _same(blend, want):
        return (f"At position {POS}, x is the blend of {len(values)} values with weights "
                f"{_list(weights, 3)}.")
    seen = f"{where}, the blend that reaches attn_wo starts {_start(blend)}"
    should = (f"with attention's weights {_list(weights, 3)} over the {len(values)} values in the "
              f"cache, it should start {_start(want)}")
    if _same(blend, [sum(a * k[i] for a, k in zip(weights, note["keys"])) for i in range(width)]):
        fail(f"{seen}: the keys were blended, not the values. Keys only decide the weights; what "
             f"each position hands over is its value: {should}.")
    if _same(blend, [sum(v[i] for v in values) for i in range(width)]):
        fail(f"{seen}: the values were added up without their weights, so every position counts "
             f"the same, and the more positions, the bigger x: {should}.")
    if len(blend) != width:
        fail(f"{seen}, {len(blend)} numbers where there should be n_embd = {width}: one sum for "
             f"each number i of the values, i in range(n_embd): {should}.")
    fail(f"{seen}, but {should}.")


@check("the blend goes through attn_wo, then the residual is added")
def _(code):
    where, note = _watch(code, POS)
    projected = _used(note, "attn_wo")
    read_out = _used(note, "lm_head")
    if read_out is None:
        fail(f"{where}, linear() was never called with weights['lm_head']: keep the given return "
             "line.")
    residual = _data(note["norms"][0][1])
    normed = _data(note["norms"][1][1])
    blend, out = projected
    got = read_out[0]
    want = _add(out, residual)
    if _same(got, want):
        return (f"At position {POS}, attention adds a vector of size {_size(out):.3f} (root mean "
                f"square) to a residual of size {_size(residual):.3f}.")
    seen = f"{where}, x at the end (what lm_head reads) starts {_start(got)}"
    should = (f"it should be attn_wo's output plus the residual, which starts {_start(want)}")
    if _same(got, out):
        fail(f"{seen}: attn_wo's output alone, without the residual. x before attention (size "
             f"{_size(residual):.3f}) is lost, and all the block passes on is what attention "
             f"found (size {_size(out):.3f}): {should}.",
             fix="x = [a + b for a, b in zip(x, residual)]")
    if _same(got, _add(out, normed)):
        gap = max(abs(a - b) for a, b in zip(residual, normed))
        fail(f"{seen}: attn_wo's output plus x after the second rmsnorm, not before it. Here the "
             f"two differ by at most {gap:.6f} (x was normalized once already), but the residual "
             f"is x as the block found it, kept before anything is done to it: {should}.")
    fail(f"{seen}, but {should}.")


def _name_cases(rng):
    for length in (1, 4, 16, 21):
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
