"""Checks for lesson 8.3: the four attention matrices, drawn in order, and q, k, v from x.

gpt() is watched, not re-read: stand-ins for linear and rmsnorm (the learner's own, with a note of
what each call was given and gave back) show which matrix made which vector from which x, and
the cache lists passed to gpt() show the k and v it kept. So any spelling passes (q, k, v in
one line or three, in any order), and each classic slip is named from what happened: the
stand-in left in, one matrix used twice, v made from k's matrix. The last check compares gpt()
with ours on new names, up to position block_size - 1, each run twice with fresh caches.
"""
from linebyline.runtime import Case, agrees, calling, check, close, fail, number, reference, replacing

ATTENTION = ("attn_wq", "attn_wk", "attn_wv", "attn_wo")
ROLE = {"attn_wq": "q", "attn_wk": "k", "attn_wv": "v", "attn_wo": "the output projection"}


def _data(values):
    return [v.data if hasattr(v, "data") else v for v in values]


def _short(values, count=3):
    shown = ", ".join(number(round(v, 4)) for v in values[:count])
    return f"[{shown}, ...]" if len(values) > count else f"[{shown}]"


def _same(got, want):
    return len(got) == len(want) and all(close(a, b, 1e-9, 1e-12) for a, b in zip(got, want))


@check("four attention matrices, n_embd x n_embd")
def _(code):
    weights = code.weights
    missing = [name for name in ATTENTION if name not in weights]
    if missing:
        fail(f"weights has no {', '.join(repr(n) for n in missing)}: it holds "
             f"{', '.join(repr(n) for n in weights)}. Attention needs four matrices, "
             f"{', '.join(repr(n) for n in ATTENTION)}, each with n_embd = {code.n_embd} rows of "
             f"n_embd numbers.")
    for name in ATTENTION:
        mat = weights[name]
        widths = sorted({len(row) for row in mat})
        if len(mat) != code.n_embd or widths != [code.n_embd]:
            fail(f"weights[{name!r}] has {len(mat)} rows of {', '.join(map(str, widths))} numbers, "
                 f"but each attention matrix takes x (n_embd = {code.n_embd} numbers) to a vector "
                 f"of the same size: {code.n_embd} rows of {code.n_embd}.")


@check("the weights are drawn in train3's order")
def _(code):
    ours = reference(code).weights
    theirs = code.weights
    numbers = {name: tuple(tuple(_data(row)) for row in mat) for name, mat in ours.items()}
    owner = {value: name for name, value in numbers.items()}
    order = [name for name in theirs if name in ATTENTION]
    if order != list(ATTENTION):
        fail(f"weights draws the attention matrices in the order {', '.join(order)}. Each "
             f"matrix takes the next numbers random.gauss hands out, so the order decides which "
             f"matrix gets which: train3 draws {', '.join(ATTENTION)}.")
    for name in ("wte", "wpe", "lm_head") + ATTENTION:
        mine = tuple(tuple(_data(row)) for row in theirs[name])
        if mine == numbers[name]:
            continue
        other = owner.get(mine)
        if other is not None:
            names = list(ours)
            later = names.index(other) - names.index(name)
            extra = (f" one {code.n_embd} x {code.n_embd} matrix too many was drawn before it. "
                     f"Is the starter's stand-in, which draws 'attn_wo' on its own, still there?"
                     if later == 1 else "")
            fail(f"weights[{name!r}] holds the numbers train3 draws for {other!r}:{extra or ' '}"
                 f"{'' if extra else 'the matrices are drawn in another order or number. '}"
                 f"train3 draws wte, wpe, lm_head, then {', '.join(ATTENTION)}, each once.")
        fail(f"weights[{name!r}] starts {_short(_data(theirs[name][0]))}, but train3's starts "
             f"{_short(_data(ours[name][0]))}: the draws before it differ.")


def _watch(code, tokens):
    """Run the learner's gpt() over the tokens with fresh caches; note every linear() and
    rmsnorm() call of the last position. Returns (linear calls, rmsnorm outputs, keys, values)."""
    keys, values = [], []
    linears, norms = [], []
    real_linear, real_norm = code.linear, code.rmsnorm

    def linear(x, w):
        out = real_linear(x, w)
        linears.append((x, w, out))
        return out

    def rmsnorm(x):
        out = real_norm(x)
        norms.append(out)
        return out

    for pos, token in enumerate(tokens):
        linears.clear()
        norms.clear()
        with replacing(code, "linear", linear), replacing(code, "rmsnorm", rmsnorm), \
                calling(f"gpt({token}, {pos}, keys, values)"):
            code.gpt(token, pos, keys, values)
    return linears, norms, keys, values


@check("q, k and v each come from x through their own matrix")
def _(code):
    word = "emma" if all(ch in code.chars for ch in "emma") else "".join(code.chars[:4])
    tokens = [code.BOS] + [code.chars.index(ch) for ch in word]
    linears, norms, keys, values = _watch(code, tokens)
    pos = len(tokens) - 1
    where = f"In gpt() for {word!r} at position {pos} ({word[-1]!r})"
    if len(norms) < 2:
        fail(f"{where}, rmsnorm ran {len(norms)} time(s): the two given `x = rmsnorm(x)` lines "
             "must stay, so that q, k and v are made from the normalized x.")
    x = norms[1]
    weights = code.weights
    made = {}
    for given, w, out in linears:
        for name in ATTENTION[:3]:
            if w is weights[name]:
                made[name] = (given, out)
    if not keys or not values:
        fail(f"{where}, nothing was added to the cache: keys and values are still empty.")
    key, value = _data(keys[-1]), _data(values[-1])
    if not made:
        if _same(key, _data(x)) and _same(value, _data(x)):
            fail(f"{where}, the key and the value this position keeps are both x itself (they "
                 f"start {_short(key)}), and no attention matrix was used: the stand-in "
                 f"q = k = v = x is still there. q, k and v are three different views of x, each "
                 f"through its own matrix: weights['attn_wq'], weights['attn_wk'] and "
                 f"weights['attn_wv'].")
        fail(f"{where}, linear() was never called with weights['attn_wq'], weights['attn_wk'] "
             "or weights['attn_wv']: q, k and v must each be x through one of them.")
    for name in ATTENTION[:3]:
        if name in made and made[name][0] is not x:
            fail(f"{where}, {ROLE[name]} was made from a vector that starts "
                 f"{_short(_data(made[name][0]))}, not from x right after its second rmsnorm "
                 f"(which starts {_short(_data(x))}). q, k and v all read that same x.")
    missing = [name for name in ATTENTION[:3] if name not in made]
    outputs = {name: _data(out) for name, (_, out) in made.items()}
    for role, kept in (("k", key), ("v", value)):
        source = next((name for name, out in outputs.items() if _same(kept, out)), None)
        want = "attn_wk" if role == "k" else "attn_wv"
        if source == want:
            continue
        what = "key" if role == "k" else "value"
        if source is not None:
            fail(f"{where}, the {what} this position keeps in the cache is x through "
                 f"weights[{source!r}], the matrix of {ROLE[source]}. {role} has a matrix of its "
                 f"own, weights[{want!r}]: with one matrix for both, {role} is a copy of "
                 f"{ROLE[source]}, and attention loses what makes them different.")
        fail(f"{where}, the {what} this position keeps in the cache starts {_short(kept)}, but it "
             f"should be x through weights[{want!r}]"
             + (f", which starts {_short(outputs[want])}." if want in outputs else
                f", and that matrix was never used. Matrices used: "
                f"{', '.join(n for n in ATTENTION[:3] if n not in missing) or 'none'}."))
    if "attn_wq" in missing:
        fail(f"{where}, linear() was never called with weights['attn_wq']: q, what this position "
             "is looking for, must be x through weights['attn_wq'].")
    return (f"At position {pos}, q, k and v are three different vectors of {len(key)} numbers; "
            f"the cache holds {len(keys)} keys and {len(values)} values.")


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
