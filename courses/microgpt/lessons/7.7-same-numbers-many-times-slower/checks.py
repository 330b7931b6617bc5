"""Checks for lesson 7.7, Same numbers, many times slower: mlp on Values.

mlp's logits are compared with train1's arithmetic on plain floats; the graph below them is
walked here (children and local grads, the chain rule, nothing of the learner's but the
operations that built it) to count the Values and to see which weights it reaches; the
independent proof nudges one weight of each matrix. The comparison with ours runs on small
models (4 wide, 8 hidden units), which also catches sizes written into the code.
"""
import contextlib
import io

from linebyline.runtime import (
    Case,
    agrees,
    calling,
    check,
    close,
    fail,
    number,
    replacing,
    shown,
)

TOKEN = 3  # the letter 'd'
FIX = ("The two lines: `x = [h.relu() for h in linear(x, weights['mlp_fc1'])]` and "
       "`return linear(x, weights['mlp_fc2'])`.")


def _plain_logits(w, token, relu=True):
    """train1's forward pass on plain floats: the logits for one token (without ReLU, or
    without the hidden layer at all, for the messages)."""
    x = w['wte'][token]
    h = [sum(a * b for a, b in zip(row, x)) for row in w['mlp_fc1']]
    if relu == "skip":
        h = x
    elif relu:
        h = [max(0.0, a) for a in h]
    return [sum(a * b for a, b in zip(row, h)) for row in w['mlp_fc2']]


def _floats(weights):
    return {name: [[p.data for p in row] for row in mat] for name, mat in weights.items()}


def _order(outputs):
    """Every node below the outputs, each after its children."""
    order, seen, stack = [], set(), [(node, False) for node in outputs]
    while stack:
        node, done = stack.pop()
        if done:
            order.append(node)
            continue
        if id(node) in seen:
            continue
        seen.add(id(node))
        stack.append((node, True))
        stack.extend((child, False) for child in getattr(node, "_children", ()))
    return order


def _slopes(out, leaves):
    """d(out)/d(leaf) for each leaf, by the chain rule over the recorded local grads."""
    share = {id(out): 1.0}
    for node in reversed(_order([out])):
        mine = share.get(id(node), 0.0)
        for child, local in zip(node._children, node._local_grads):
            share[id(child)] = share.get(id(child), 0.0) + local * mine
    return [share.get(id(leaf), 0.0) for leaf in leaves]


def _logits(code, token):
    call = f"mlp({token})"
    try:
        with calling(call):
            logits = code.mlp(token)
    except TypeError as error:
        if "not supported between instances" in str(error) and "Value" in str(error):
            fail(f"`{call}` raised TypeError: {error}. max() compares a Value with a number, and "
                 "a Value cannot be compared. Value has relu() for this: a node that keeps "
                 "the hidden unit as its child.", fix=FIX)
        raise
    return call, logits


@check("mlp gives one logit per next letter, as train1's")
def _(code):
    call, logits = _logits(code, TOKEN)
    want = _plain_logits(_floats(code.weights), TOKEN)
    if not isinstance(logits, list) or len(logits) != len(want):
        fail(f"`{call}` returned {shown(logits)}, but should return {len(want)} logits, one per "
             "next letter.", fix=FIX)
    plain = [v for v in logits if not hasattr(v, "_children")]
    if plain:
        fail(f"`{call}` returned plain numbers ({shown(logits[:3])} first), not Values: nothing "
             "leads back from them to the weights.", fix=FIX)
    got = [v.data for v in logits]
    wrong = next((i for i, (g, w) in enumerate(zip(got, want)) if not close(g, w, rel=1e-9)),
                 None)
    if wrong is None:
        return

    def same(other):
        return all(close(g, w, rel=1e-9) for g, w in zip(got, other))

    seen = (f"`{call}` gave logit {wrong} = {number(got[wrong])}, but train1's forward pass "
            f"(the embedding row, mlp_fc1, ReLU, mlp_fc2) gives {number(want[wrong])}")
    w = _floats(code.weights)
    if same(_plain_logits(w, TOKEN, relu=False)):
        fail(f"{seen}. Yours are exactly the logits without ReLU: every hidden unit below 0 "
             "passes on its negative number, where ReLU would make it 0.", fix=FIX)
    if same(_plain_logits(w, TOKEN, relu="skip")):
        fail(f"{seen}. Yours are exactly mlp_fc2 applied to the embedding row itself: the "
             "hidden layer, mlp_fc1 and ReLU, is left out of the logits.", fix=FIX)
    fail(f"{seen}.", fix=FIX)


@check("the graph below the logits reaches every weight the letter uses")
def _(code):
    call, logits = _logits(code, TOKEN)
    below = {id(node) for node in _order(logits)}
    w = _floats(code.weights)
    x = w['wte'][TOKEN]
    on = [j for j, row in enumerate(w['mlp_fc1']) if sum(a * b for a, b in zip(row, x)) > 0]
    # a hidden unit at or below 0 passes no gradient down (ReLU's slope there is 0): its row of
    # mlp_fc1 may be missing from the graph (a spelling that makes such a unit a new Value(0))
    parts = [("mlp_fc2", [p for row in code.weights['mlp_fc2'] for p in row]),
             (f"mlp_fc1 (the rows of the {len(on)} hidden units above 0 for this letter)",
              [p for j in on for p in code.weights['mlp_fc1'][j]]),
             (f"wte's row {TOKEN} (the letter's embedding)", code.weights['wte'][TOKEN])]
    missing = [(name, sum(id(p) not in below for p in group), len(group))
               for name, group in parts]
    if any(count for _name, count, _total in missing):
        _cut(call, logits, missing)
    params = sum(len(row) for name in ('mlp_fc2', 'mlp_fc1') for row in code.weights[name]) \
        + len(code.weights['wte'][TOKEN])
    inside = sum(1 for mat in code.weights.values() for row in mat for p in row
                 if id(p) in below)
    return (f"`{call}` is made from {len(below)} Values: the {inside} weights it uses, and "
            f"{len(below) - inside} new ones, every one a Python object."
            if inside == params else "")


def _cut(call, logits, missing):
    """Fail: weights missing below the logits; say where the path down stops."""
    told = "; ".join((f"all {total} of {name}" if count == total else
                      f"{count} of the {total} of {name}")
                     for name, count, total in missing if count)
    (_n, fc2, _t2), (_n1, fc1, fc1_total), (_n0, wte, _t0) = missing
    if fc2 and all(not getattr(v, "_children", ()) for v in logits):
        where = ("The logits themselves are Values with no children, made from plain numbers "
                 "(a .data): the path down stops at them, before any weight.")
    elif not fc2 and fc1 and fc1 == fc1_total:
        where = ("mlp_fc2 is there, but the path down stops at the hidden layer: its units are "
                 "Values made from plain numbers (a .data), with no children of their own.")
    elif not fc2 and not fc1 and wte:
        where = ("mlp_fc1 is there, but the path down stops before the letter's embedding: "
                 "what mlp_fc1 multiplies are new Values made from the embedding's numbers "
                 "(a .data), not the embedding's own Values.")
    else:
        where = ("Somewhere between the embedding and the logits a Value was made from a plain "
                 "number (a .data): it has no children, so the path down stops there.")
    fail(f"Below the logits of `{call}`, some weights never appear: {told}. {where} backward() "
         "follows the children from the logits down, so these weights would get no gradient "
         "from this letter and its loss could never move them.", fix=FIX)


@check("every slope through the graph matches nudging")
def _(code):
    call, logits = _logits(code, TOKEN)
    out_index = 5
    probes = [("mlp_fc2", 5, 7), ("mlp_fc1", 12, 3), ("wte", TOKEN, 9)]
    leaves = [code.weights[name][i][k] for name, i, k in probes]
    through = _slopes(logits[out_index], leaves)
    for (name, i, k), leaf, slope in zip(probes, leaves, through):
        keep = leaf.data
        try:
            leaf.data = keep + 1e-6
            up = _plain_logits(_floats(code.weights), TOKEN)[out_index]
            leaf.data = keep - 1e-6
            down = _plain_logits(_floats(code.weights), TOKEN)[out_index]
        finally:
            leaf.data = keep
        measured = (up - down) / 2e-6
        if not close(slope, measured, rel=1e-4, abs_tol=1e-8):
            fail(f"In `{call}`, the local grads along every path from logit {out_index} down to "
                 f"{name}[{i}][{k}] give the slope {number(slope)}, but nudging that weight and "
                 f"measuring logit {out_index} gives {number(measured)}. The graph must carry "
                 "the slopes the numbers have.", fix=FIX)
    return "Three slopes, one weight of each matrix, agree with nudging."


# --- mlp against ours, on small models ------------------------------------------------------

def _small_model(space, seed, wide, hidden, letters=27):
    import random
    rng = random.Random(seed)
    V = space.Value

    def grid(rows, cols):
        return [[V(rng.gauss(0, 0.6)) for _ in range(cols)] for _ in range(rows)]

    return {'wte': grid(letters, wide), 'mlp_fc1': grid(hidden, wide),
            'mlp_fc2': grid(letters, hidden)}


def _run_mlp(space, args):
    """mlp(token) with the small model in place of the file's (and its sizes in n_embd and
    vocab_size): the logits' numbers, and how a weighed sum of them moves with every weight
    (through the graph)."""
    token, weights = args
    with replacing(space, "weights", weights), \
            replacing(space, "n_embd", len(weights['wte'][0])), \
            replacing(space, "vocab_size", len(weights['wte'])), \
            contextlib.redirect_stdout(io.StringIO()):
        logits = space.mlp(token)
    numbers = [getattr(v, "data", v) for v in logits]
    if not all(hasattr(v, "_children") for v in logits):
        return {"logits": numbers, "slopes": "not Values"}
    out = sum(v * (i % 5 - 2) for i, v in enumerate(logits))
    every = [p for mat in weights.values() for row in mat for p in row]
    return {"logits": numbers, "slopes": _slopes(out, every)}


def _models(rng):
    """A few letters, BOS among them, on small models: 4 wide with 8 hidden units, then
    sizes no file of the course has (6 wide, 20 hidden; 11 letters, as a names file with
    10 different letters gives)."""
    for token, wide, hidden, letters, note in (
            (0, 4, 8, 27, ""), (26, 4, 8, 27, "BOS"), (rng.randrange(26), 4, 8, 27, ""),
            (rng.randrange(26), 6, 20, 27, "a hidden layer of 20"),
            (rng.randrange(10), 4, 8, 11, "a vocabulary of 11, from a names file with 10 letters")):
        seed = rng.randrange(10 ** 6)
        size = f"a small model, {wide} wide with {hidden} hidden units"
        if letters != 27:
            size += f" and {letters} logits"
        yield Case(f"{token}` with `{size}",
                   lambda space, t=token, s=seed, w=wide, h=hidden, n=letters:
                   (t, _small_model(space, s, w, h, n)), note)


agrees("mlp", _models, call=_run_mlp, name="mlp on small models, twice each")
