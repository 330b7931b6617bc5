"""Checks for lesson 9.5: make_weights() draws every matrix of the model, with microgpt's names
and shapes, in microgpt's order, for any sizes.

The shapes are read from the learner's `weights` (rows, and the length of every row), so any
way of writing the loop passes. Which numbers each matrix got is compared with the solution's
draws: a matrix drawn out of turn holds numbers meant for another, and the message says whose.
make_weights() is then called with other sizes (more layers, wider or narrower vectors, a
bigger vocabulary), which the bundled model never shows: one layer of 16 hides a loop stopped
at one layer, a 64 written for 4 * n_embd and an MLP left outside the loop.
"""
import gc

from linebyline.runtime import Case, agrees, calling, check, fail, listing, reference, replacing

ATTENTION = ("attn_wq", "attn_wk", "attn_wv", "attn_wo")
LOOP_FIX = "for layer in range(n_layer):"
FC1_FIX = "weights[f'layer{layer}.mlp_fc1'] = matrix(4 * n_embd, n_embd)"
FC2_FIX = "weights[f'layer{layer}.mlp_fc2'] = matrix(n_embd, 4 * n_embd)"
NAME_FIX = "weights[f'layer{layer}.{name}'] = matrix(n_embd, n_embd)"
MLP_FIX = f"{FC1_FIX}\n{FC2_FIX}\n(both inside the loop over the layers, indented like `for name`)"
ORDER_FIX = ("for name in ('attn_wq', 'attn_wk', 'attn_wv', 'attn_wo'):\n"
             f"    {NAME_FIX}\n{FC1_FIX}\n{FC2_FIX}")


class _Quick:
    """`with _Quick():` runs without Python's cycle collector, which would otherwise spend most
    of a check rescanning the thousands of Values make_weights() makes (they hold no cycles,
    so reference counting frees them all the same). The collector is back on afterwards."""

    def __enter__(self):
        self.was = gc.isenabled()
        gc.disable()

    def __exit__(self, *error):
        if self.was:
            gc.enable()
        return False


def _expected(vocab, n_embd, block, layers):
    """{name: (rows, cols)} of microgpt's matrices, in the order they are drawn."""
    shapes = {"wte": (vocab, n_embd), "wpe": (block, n_embd), "lm_head": (vocab, n_embd)}
    for layer in range(layers):
        for name in ATTENTION:
            shapes[f"layer{layer}.{name}"] = (n_embd, n_embd)
        shapes[f"layer{layer}.mlp_fc1"] = (4 * n_embd, n_embd)
        shapes[f"layer{layer}.mlp_fc2"] = (n_embd, 4 * n_embd)
    return shapes


def _shape(mat):
    """(rows, cols) of a list of rows, or None when it is not one (rows of several lengths)."""
    if not isinstance(mat, list) or not mat or not all(isinstance(row, list) for row in mat):
        return None
    widths = {len(row) for row in mat}
    return (len(mat), widths.pop()) if len(widths) == 1 else None


def _count(shapes):
    return sum(rows * cols for rows, cols in shapes.values())


def _written(shape):
    return "not a matrix" if shape is None else f"{shape[0]} × {shape[1]}"


def _shape_problem(got, want, sizes):
    """What is wrong with the matrices `got` ({name: matrix}) against `want`, in words, and
    the fix to hold back; ('', '') if nothing is."""
    mine = {name: _shape(mat) for name, mat in got.items()}
    missing = [name for name in want if name not in mine]
    extra = [name for name in mine if name not in want]
    numbers = _count({k: v for k, v in mine.items() if v})
    if (len(mine), numbers) == (len(want), _count(want)):
        told = (f"{sizes}, weights holds {len(mine)} matrices and {numbers:,} numbers, as "
                "microgpt's does, but the count alone does not tell the matrices apart")
    else:
        told = (f"{sizes}, weights holds {len(mine)} matrices, {numbers:,} numbers, where "
                f"microgpt's has {len(want)}, {_count(want):,}")
    if missing or extra:
        said = []
        if missing:
            said.append(f"{listing(missing[:6])}{' and more' if len(missing) > 6 else ''} "
                        f"{'is' if len(missing) == 1 else 'are'} missing")
        if extra:
            said.append(f"{listing(extra[:6])} should not be there")
        bare = [name for name in extra if name in ATTENTION + ("mlp_fc1", "mlp_fc2")]
        layers = sorted({name.split(".")[0] for name in mine if name.startswith("layer")})
        why = ""
        if bare:
            why = (" Each layer's matrices are named after their layer, 'layer0.attn_wq', so "
                   "that every layer can have its own (train3 had only one and called it "
                   "'attn_wq').")
            return f"{told}: {'; '.join(said)}.{why}", NAME_FIX
        wanted_layers = sorted({name.split(".")[0] for name in want if name.startswith("layer")})
        mlps = sorted({name.split(".")[0] for name in mine if name.endswith("mlp_fc1")})
        if layers == wanted_layers and len(mlps) < len(wanted_layers):
            why = (f" Only {listing(mlps) or 'no layer'} {'has' if len(mlps) == 1 else 'have'} "
                   "MLP matrices: every layer needs its own two, drawn inside the loop over the "
                   "layers, right after its attention matrices.")
            return f"{told}: {'; '.join(said)}.{why}", MLP_FIX
        elif layers != wanted_layers:
            why = (f" It has the matrices of {listing(layers) or 'no layer'}, but with "
                   f"{len(wanted_layers)} layer{'s' if len(wanted_layers) != 1 else ''} it needs "
                   f"those of {listing(wanted_layers)}: one set per layer, each named after its "
                   "layer.")
        return f"{told}: {'; '.join(said)}.{why}", LOOP_FIX
    for name, shape in want.items():
        if mine[name] == shape:
            continue
        rows, cols = shape
        said = f"{told}: {name} is {_written(mine[name])}, but it must be {rows} × {cols}"
        if mine[name] == (cols, rows):
            said += (f", the other way round. A matrix has one row per number it makes, each "
                     f"row as long as what it reads: {name.split('.')[-1]} reads {cols} "
                     f"numbers and makes {rows}.")
        elif name.endswith(("mlp_fc1", "mlp_fc2")):
            n_embd = want["wte"][1]
            said += (f". The MLP's hidden layer is always 4 × n_embd wide: {4 * n_embd} "
                     f"numbers here, where n_embd = {n_embd}.")
        else:
            said += "."
        fix = FC1_FIX if name.endswith("mlp_fc1") else FC2_FIX if name.endswith("mlp_fc2") \
            else NAME_FIX
        return said, fix
    return "", ""


def _sizes_of(code):
    return (code.vocab_size, code.n_embd, code.block_size, code.n_layer)


@check("each matrix has its name and shape")
def _(code):
    vocab, n_embd, block, layers = _sizes_of(code)
    want = _expected(vocab, n_embd, block, layers)
    problem, fix = _shape_problem(code.weights, want, "With microgpt's sizes")
    if problem:
        fail(problem, fix=fix)


def _stream(weights):
    """Every number of every matrix, in the order the matrices were drawn."""
    return [v.data for mat in weights.values() for row in mat for v in row]


@check("drawn in microgpt's order")
def _(code):
    ours = reference(code).weights
    mine = code.weights
    if _stream(mine) == _stream(ours) and list(mine) == list(ours):
        return
    if {name: _shape(mat) for name, mat in mine.items()} != {
            name: _shape(mat) for name, mat in ours.items()}:
        fail("The matrices' names or shapes are not microgpt's yet (the check before this one "
             "says how), so which numbers each one got cannot be compared.")
    # Where in microgpt's stream of draws does each of your matrices start?
    starts, position = {}, 0
    for name, mat in ours.items():
        starts[name] = position
        position += sum(len(row) for row in mat)
    theirs = _stream(ours)
    where = {}
    for name, mat in mine.items():
        first = [v.data for v in mat[0][:3]]
        at = next((i for i in range(len(theirs) - 2) if theirs[i:i + 3] == first), None)
        where[name] = at
    order = sorted(mine, key=lambda name: (where[name] is None, where[name] or 0))
    wrong = next(name for name in mine if where[name] != starts[name])
    holder = next((name for name, start in starts.items() if start == where[wrong]), None)
    told = (f"{wrong} holds the numbers microgpt draws for {holder}" if holder else
            f"{wrong} holds numbers microgpt never draws at the start of a matrix")
    fail(f"The shapes are right, but {told}: your matrices were drawn in the order "
         f"{listing(order)}. random.gauss hands out one fixed stream of numbers after "
         "random.seed(42), and each matrix takes the next ones, so the order of the draws decides "
         "every number of the model. microgpt draws wte, wpe, lm_head, then for each layer "
         "attn_wq, attn_wk, attn_wv, attn_wo, mlp_fc1 and mlp_fc2.", fix=ORDER_FIX)


SIZES = ((2, 16, 27, 16), (3, 16, 27, 16), (1, 8, 27, 16), (1, 32, 27, 16), (2, 12, 30, 8))


def _made(code, layers, n_embd, vocab, block):
    with replacing(code, "n_layer", layers), replacing(code, "n_embd", n_embd), \
            replacing(code, "vocab_size", vocab), replacing(code, "block_size", block), _Quick():
        with calling(f"make_weights() with n_layer = {layers}, n_embd = {n_embd}, "
                     f"vocab_size = {vocab} and block_size = {block}"):
            return code.make_weights()


@check("the count with other sizes")
def _(code):
    for layers, n_embd, vocab, block in SIZES:
        made = _made(code, layers, n_embd, vocab, block)
        want = _expected(vocab, n_embd, block, layers)
        sizes = (f"With n_layer = {layers}, n_embd = {n_embd}, vocab_size = {vocab} and "
                 f"block_size = {block}")
        problem, fix = _shape_problem(made, want, sizes)
        if problem:
            fail(problem, fix=fix)


def _cases(rng):
    for layers, n_embd, vocab, block in ((1, 16, 27, 16),) + SIZES[:3] + SIZES[4:]:
        note = [] if (layers, n_embd, vocab) == (1, 16, 27) else ["sizes beyond microgpt's"]
        yield Case(f"n_layer = {layers}, n_embd = {n_embd}, vocab_size = {vocab}, block_size = "
                   f"{block}", lambda space, args=(layers, n_embd, vocab, block): args,
                   "; ".join(note))


def _make(space, args):
    """make_weights() with the case's sizes, told as one line per matrix: its name, its shape,
    and its first and last numbers (a matrix drawn out of turn starts with another's)."""
    made = _made(space, *args)
    return [f"{name} {_written(_shape(mat))}, {mat[0][0].data:.6g} to {mat[-1][-1].data:.6g}"
            if _shape(mat) else f"{name} {_written(None)}" for name, mat in made.items()]


agrees("make_weights()", _cases, call=_make, draws=True,
       name="make_weights() with other sizes, against ours")
