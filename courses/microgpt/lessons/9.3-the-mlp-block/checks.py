"""Checks for lesson 9.3: the MLP block, from rmsnorm(x) through mlp_fc1, ReLU and mlp_fc2
back onto x.

What the block does is measured while gpt() runs: stand-ins for `rmsnorm` and `linear` note
what goes in and what comes out of each call (and hand it on to the learner's own function).
From the attention block's own numbers the check works out x as attention leaves it; the
MLP's every step is then compared with what it must be, so a mistake is told where it is
(the ReLU missing, the residual taken after rmsnorm or left over from attention, the two
matrices in the other order), and no later step is blamed for it.
"""
import gc

from linebyline.runtime import Case, agrees, calling, check, cut_off, fail, number, replacing


class _Quick:
    """`with _Quick():` runs without Python's cycle collector, which would otherwise spend most
    of a check rescanning the thousands of Values every gpt() call makes (they hold no cycles,
    so reference counting frees them all the same). The collector is back on afterwards."""

    def __enter__(self):
        self.was = gc.isenabled()
        gc.disable()

    def __exit__(self, *error):
        if self.was:
            gc.enable()
        return False


NAME = "emma"
RELU_FIX = "x = [h.relu() for h in linear(x, w('mlp_fc1'))]"
RESIDUAL_FIX = "residual = x  (as the first line of the MLP block, before x = rmsnorm(x))"
ADD_FIX = "x = [a + b for a, b in zip(x, residual)]"


class _Root:
    """One node whose children are the given Values: the graph behind all of them is walked once
    (cut_off walks a list's graphs one by one, and theirs overlap)."""

    def __init__(self, values):
        self._children = tuple(values)


def _data(x):
    return getattr(x, "data", x)


def _plain(xs):
    return [_data(x) for x in xs] if isinstance(xs, (list, tuple)) else xs


_WATCHED = {}  # one run of gpt() per checked file, shared by the checks


def _watch(code):
    if id(code) not in _WATCHED:
        _WATCHED.clear()
        _WATCHED[id(code)] = (code, _run(code))
    return _WATCHED[id(code)][1]


def _run(code, name=NAME):
    """gpt() over BOS + name; at the last position, every rmsnorm and every linear call, in
    order, as (what, input, output) with plain numbers, then the input and the output as they
    were (Values, whose graph tells where a gradient can go)."""
    weights = code.weights
    names = {id(mat): key.split(".")[-1] for key, mat in weights.items()}
    real_linear, real_rmsnorm = code.linear, code.rmsnorm
    calls = []

    def linear(x, w):
        out = real_linear(x, w)
        calls.append((names.get(id(w), "another matrix"), _plain(x), _plain(out), x, out))
        return out

    def rmsnorm(x):
        out = real_rmsnorm(x)
        calls.append(("rmsnorm", _plain(x), _plain(out), x, out))
        return out

    tokens = [code.BOS] + [code.chars.index(ch) for ch in name]
    keys, values = [[]], [[]]
    with replacing(code, "linear", linear), replacing(code, "rmsnorm", rmsnorm), _Quick():
        for pos, token in enumerate(tokens):
            calls.clear()
            with calling(f"gpt() at position {pos} of {name!r}"):
                code.gpt(token, pos, keys, values)
    return list(calls)


def _near(a, b, rel=1e-9):
    return (isinstance(a, list) and isinstance(b, list) and len(a) == len(b)
            and all(abs(x - y) <= rel * max(1.0, abs(y)) for x, y in zip(a, b)))


def _rms(x):
    scale = (sum(v * v for v in x) / len(x) + 1e-5) ** -0.5
    return [v * scale for v in x]


def _shown(numbers, count=4):
    head = ", ".join(number(round(x, 4)) for x in numbers[:count])
    return f"[{head}{', ...' if len(numbers) > count else ''}] ({len(numbers)} numbers)"


def _steps(calls):
    """The attention block's numbers, then the MLP's calls: (x after attention, the block's
    first residual, the calls after attn_wo)."""
    wo = next((i for i, call in enumerate(calls) if call[0] == "attn_wo"), None)
    if wo is None:
        fail("gpt() never called linear() with attn_wo, the end of the attention block, so the "
             "MLP after it cannot be found. The attention block is given: is it as it was?")
    start = calls[0][2]  # x = rmsnorm(wte + wpe), the input of the layer
    x_attn = [a + b for a, b in zip(calls[wo][2], start)]
    return x_attn, start, calls[wo + 1:]


WHERE = f"At the last position of {NAME!r}"


@check("the MLP starts from rmsnorm(x)")
def _(code):
    try:
        calls = _watch(code)
    except TypeError as error:
        said = str(error)
        if "not supported between instances of 'Value'" not in said and \
                "and 'Value'" not in said:
            raise
        fail(f"gpt() raised TypeError: {said}. Something in it compares a Value with a number "
             "(max(0, h) does, with >), and a Value cannot be compared: it only knows +, *, "
             "** and its own methods. The ReLU of a Value is its method relu(), from lesson "
             "7.4 (Building Value).", fix=RELU_FIX)
    x_attn, start, after = _steps(calls)
    used = [call[0] for call in after]
    if "mlp_fc1" not in used:
        fail(f"{WHERE}, after attention gpt() called {', '.join(used) or 'nothing'}, but never "
             "mlp_fc1: the MLP block is missing. x must go through rmsnorm, mlp_fc1, ReLU and "
             "mlp_fc2, and come back onto x.")
    first = next(call for call in after if call[0].startswith("mlp_"))
    if first[0] == "mlp_fc2":
        fail(f"{WHERE}, the MLP used mlp_fc2 first, on {len(first[1])} numbers. mlp_fc1 comes "
             f"first: it has 64 rows of 16, so it reads the 16 numbers of x and makes 64; "
             "mlp_fc2 has 16 rows of 64 and brings them back to 16. (linear() zips each row "
             "with x and stops at the shorter, so the other order raises nothing.)",
             fix="x = [h.relu() for h in linear(x, w('mlp_fc1'))]")
    fed = first[1]
    if _near(fed, _rms(x_attn)):
        return
    if _near(fed, x_attn):
        fail(f"{WHERE}, mlp_fc1 read {_shown(fed)}: x as attention left it, not normalized. "
             f"Like the attention block, the MLP reads rmsnorm(x), {_shown(_rms(x_attn))}, so "
             "that what it sees has a steady size.", fix="x = rmsnorm(x)")
    if _near(fed, _rms(start)) or _near(fed, start):
        fail(f"{WHERE}, mlp_fc1 read {_shown(fed)}: the x that went into attention, not the x "
             f"that came out of it. The MLP must read rmsnorm of x after attention's residual, "
             f"{_shown(_rms(x_attn))}.")
    fail(f"{WHERE}, mlp_fc1 read {_shown(fed)}, but it should read rmsnorm(x) of x as "
         f"attention left it: {_shown(_rms(x_attn))}.")


@check("ReLU between mlp_fc1 and mlp_fc2")
def _(code):
    calls = _watch(code)
    _, _, after = _steps(calls)
    fc1 = next((call for call in after if call[0] == "mlp_fc1"), None)
    fc2 = next((call for call in after if call[0] == "mlp_fc2"), None)
    if fc1 is None:
        fail("mlp_fc1 was never used (see the check before this one), so there is no ReLU to "
             "look at yet.")
    hidden = fc1[2]
    want = [max(0.0, h) for h in hidden]
    if fc2 is None:
        fail(f"{WHERE}, mlp_fc1 made {len(hidden)} numbers, but mlp_fc2 was never used to "
             "bring them back to the 16 numbers of x.", fix="x = linear(x, w('mlp_fc2'))")
    got = fc2[1]
    if _near(got, want):
        above = {f"h[{i}]": h for i, h in enumerate(fc1[4]) if _data(h) > 0}
        cut = cut_off(_Root(fc2[3]), above)
        if cut:
            some = "all" if len(cut) == len(above) else f"{len(cut)} of the"
            fail(f"{WHERE}, mlp_fc2 read the right numbers (relu() of the {len(hidden)} that "
                 f"mlp_fc1 made), but {some} {len(above)} of them above 0 are not in the graph of "
                 "what mlp_fc2 read: no gradient can go back through them to mlp_fc1, rmsnorm and "
                 "attention, so training would never change mlp_fc1. Your ReLU makes new Values "
                 "from plain numbers (`.data`), and a new Value made from a number forgets where "
                 "the number came from.", fix=RELU_FIX)
        return
    negative = sum(h < 0 for h in got)
    if _near(got, hidden):
        x_attn, _, _ = _steps(calls)
        head = next((call for call in after if call[0] == "lm_head"), None)
        late = head is not None and _near(head[1], [max(0.0, a) + b for a, b in
                                                    zip(fc2[2], x_attn)])
        fail(f"{WHERE}, mlp_fc2 read the {len(got)} numbers of mlp_fc1 as they came out, "
             f"{negative} of them below 0"
             + (", and ReLU was applied to mlp_fc2's output instead" if late else "")
             + ". ReLU must come between the two: each number below 0 becomes 0, the others "
             "pass unchanged. Without it the two matrices multiply into one linear map, and "
             "the block can learn nothing a single matrix could not.", fix=RELU_FIX)
    fail(f"{WHERE}, mlp_fc2 read {_shown(got)}, but it should read relu() of each of the "
         f"{len(hidden)} numbers mlp_fc1 made: {_shown(want)}.", fix=RELU_FIX)


@check("the MLP's output is added to x")
def _(code):
    calls = _watch(code)
    x_attn, start, after = _steps(calls)
    fc2 = next((call for call in after if call[0] == "mlp_fc2"), None)
    head = next((call for call in after if call[0] == "lm_head"), None)
    if fc2 is None:
        fail("mlp_fc2 was never used (see the checks before this one), so the MLP has no "
             "output to add to x yet.")
    if head is None:
        fail(f"{WHERE}, lm_head was never used after the MLP: gpt() must end with "
             "linear(x, weights['lm_head']), as given.")
    got, out = head[1], fc2[2]
    want = [a + b for a, b in zip(out, x_attn)]
    if _near(got, want):
        _linked(head, fc2, next(call for call in after if call[0] == "rmsnorm"))
        return
    told = f"{WHERE}, lm_head read {_shown(got)}, but it should read {_shown(want)}"
    if _near(got, out):
        fail(f"{told}: that is the MLP's output alone. Its output is added to x as it was "
             "before the block (the residual), as in the attention block, so that the block "
             "only has to learn a change to x.", fix=ADD_FIX)
    if _near(got, [max(0.0, v) for v in out]) or _near(got, [max(0.0, a) + b for a, b in
                                                             zip(out, x_attn)]):
        fail(f"{told}: ReLU was applied after mlp_fc2 as well. It belongs only between the two "
             "matrices: the MLP's output can be negative, and so can what it adds to x.")
    if _near(got, [a + b for a, b in zip(out, start)]):
        fail(f"{told}: yours adds the MLP's output to x as it was before attention (the "
             "attention block's residual), so what attention added is lost. The MLP needs a "
             "residual of its own: x as it is when the MLP starts.", fix=RESIDUAL_FIX)
    if _near(got, [a + b for a, b in zip(out, _rms(x_attn))]):
        fail(f"{told}: yours adds the MLP's output to rmsnorm(x), not to x. The residual must "
             "be kept before x is normalized, so that x itself carries on.", fix=RESIDUAL_FIX)
    fail(f"{told}: the MLP's output plus x as it was when the MLP started, number by number.",
         fix=ADD_FIX)


def _linked(head, fc2, norm):
    """Fail if what lm_head read is not computed from mlp_fc2's Values and from x as it was when
    the MLP started (the input of its rmsnorm): the right numbers, but no gradient path."""
    made, kept = fc2[4], norm[3]
    cut = cut_off(_Root(head[3]), {**{f"made {i}": v for i, v in enumerate(made)},
                                   **{f"kept {i}": v for i, v in enumerate(kept)}})
    cut_made = [name for name in cut if name.startswith("made")]
    cut_kept = [name for name in cut if name.startswith("kept")]
    if not cut_made and not cut_kept:
        return
    told = f"{WHERE}, lm_head read the right numbers, but "
    tail = ("no gradient can go back through them, so training would never change the weights "
            "they come from. A new Value made from a plain number (`.data`) forgets where the "
            "number came from.")
    if cut_made and cut_kept:
        fail(told + "neither the MLP's output nor x as the MLP found it is in their graph: x "
             "after the MLP is made of new Values, made from the plain numbers of both: " + tail,
             fix=ADD_FIX)
    if cut_made:
        fail(told + f"{len(cut_made)} of the {len(made)} numbers mlp_fc2 made are not in their "
             "graph: what came out of linear() was turned into new Values before it was added "
             "to x, and " + tail, fix="x = linear(x, w('mlp_fc2'))")
    fail(told + f"{len(cut_kept)} of the {len(kept)} numbers of x as the MLP found it are not in "
         "their graph: the residual added back holds new Values, not x itself, and " + tail,
         fix=RESIDUAL_FIX)


# --- gpt() against ours, on new caches -------------------------------------------------------

PLANS = ((1, 1.0), (3, 1.0), (7, 1.0), (12, 3.0), (16, 1.0))  # (cache length, spread)


def _cases(rng):
    for length, spread in PLANS:
        token, pos = rng.randrange(26), length - 1
        rows = [[[round(rng.gauss(0, spread), 3) for _ in range(16)] for _ in range(length - 1)]
                for _ in range(2)]
        note = "keys and values bigger than the model's own" if spread != 1.0 else ""
        text = (f"token {token} at position {pos}, with {length - 1} earlier "
                f"position{'s' if length != 2 else ''} of random keys and values in the cache")
        yield Case(text, lambda space, args=(token, pos, rows): args, note)


def _gpt(space, args):
    """gpt() on caches of Values made fresh, for every call, from the case's numbers."""
    token, pos, rows = args
    keys, values = ([[[space.Value(x) for x in row] for row in part]] for part in rows)
    with _Quick():
        return space.gpt(token, pos, keys, values)


agrees("gpt()", _cases, call=_gpt, name="gpt() on new caches, twice each")
