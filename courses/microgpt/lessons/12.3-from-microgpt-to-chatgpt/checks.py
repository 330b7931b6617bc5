"""Checks for lesson 12.3: the body of microgpt's layer loop, written as shapes, gives every layer
its six matrices, for any number of layers and any width.

The shapes are compared with the ones microgpt's lines make, matrix by matrix, so a missing
matrix, a transposed MLP and an MLP as narrow as x are each named. Then several layers, then
shapes() against ours on sizes well beyond microgpt (GPT-2's and GPT-3's), then GPT-2's count
recomputed from its formula, independently of any dict.
"""
from linebyline.runtime import Case, agrees, calling, check, fail

LOOP_FIX = ("inside the loop over the layers, the four attention matrices as matrix(n_embd, "
            "n_embd), then weights[f'layer{layer}.mlp_fc1'] = matrix(4 * n_embd, n_embd) and "
            "weights[f'layer{layer}.mlp_fc2'] = matrix(n_embd, 4 * n_embd)")
LINE_FIX = {
    'attn': "weights[f'layer{layer}.{name}'] = matrix(n_embd, n_embd)",
    'mlp_fc1': "weights[f'layer{layer}.mlp_fc1'] = matrix(4 * n_embd, n_embd)",
    'mlp_fc2': "weights[f'layer{layer}.mlp_fc2'] = matrix(n_embd, 4 * n_embd)",
}
NAMES_FIX = "for name in ('attn_wq', 'attn_wk', 'attn_wv', 'attn_wo'):"
LAYERS_FIX = ("each name made from the loop's layer: f'layer{layer}.{name}', "
              "f'layer{layer}.mlp_fc1' and f'layer{layer}.mlp_fc2'")
MICROGPT = (27, 1, 16, 16)
GPT2 = (50257, 12, 768, 1024)


def _expected(vocab_size, n_layer, n_embd, block_size):
    weights = {'wte': (vocab_size, n_embd), 'wpe': (block_size, n_embd),
               'lm_head': (vocab_size, n_embd)}
    for layer in range(n_layer):
        for name in ('attn_wq', 'attn_wk', 'attn_wv', 'attn_wo'):
            weights[f'layer{layer}.{name}'] = (n_embd, n_embd)
        weights[f'layer{layer}.mlp_fc1'] = (4 * n_embd, n_embd)
        weights[f'layer{layer}.mlp_fc2'] = (n_embd, 4 * n_embd)
    return weights


def _shape(shape):
    if isinstance(shape, tuple) and len(shape) == 2 and all(isinstance(n, int) for n in shape):
        return f"{shape[0]:,} × {shape[1]:,}"
    return f"{shape[0]} × {shape[1]}" if isinstance(shape, tuple) and len(shape) == 2 else repr(shape)


ROLES = {
    'mlp_fc1': "it takes x's {d} numbers to {h} hidden units: {h} rows of {d}",
    'mlp_fc2': "it takes the {h} hidden units back to {d} numbers: {d} rows of {h}",
}


def _names_fix(missing, extra):
    """The line that leaves these names out: the line that names a matrix, when the same matrix
    is there under another name; else the attention names, or the whole loop."""
    kinds = {name.split('.')[-1] for name in missing}
    misnamed = {name.split('.')[-1] for name in extra} & kinds
    if misnamed:
        if len(misnamed) == 1 and next(iter(misnamed)) in LINE_FIX:
            return LINE_FIX[next(iter(misnamed))]
        return LINE_FIX['attn'] if all('attn' in kind for kind in misnamed) else LAYERS_FIX
    return NAMES_FIX if all('attn' in name for name in missing) else LOOP_FIX


@check("one layer has its six matrices")
def _(code):
    with calling("shapes(27, 1, 16, 16)"):
        got = code.shapes(*MICROGPT)
    want = _expected(*MICROGPT)
    start = "shapes(27, 1, 16, 16), microgpt's size, "
    missing = [name for name in want if name not in got]
    extra = [name for name in got if name not in want]
    if missing:
        fail(start + f"has no {', '.join(missing)}: microgpt's layer 0 has four attention "
             f"matrices (attn_wq, attn_wk, attn_wv, attn_wo) and the MLP's two (mlp_fc1, "
             f"mlp_fc2), each named 'layer0.' and the matrix's name"
             + (f" (your names: {', '.join(extra)})." if extra else "."),
             fix=_names_fix(missing, extra))
    if extra:
        fail(start + f"has matrices microgpt does not: {', '.join(extra)}.", fix=LOOP_FIX)
    for name, shape in want.items():
        if got[name] == shape:
            continue
        role = next((why for key, why in ROLES.items() if name.endswith(key)), "")
        told = f"{start}made {name} {_shape(got[name])}, but it is {_shape(shape)}"
        if role:
            told += ": " + role.format(d=16, h=64)
        if got[name] == (shape[1], shape[0]):
            told += ". Yours has rows and columns swapped: linear() takes one row per output"
        elif role and 64 not in got[name]:
            told += (". Yours has no side of 64: the MLP's hidden layer is 4 × n_embd wide, "
                     "four times x")
        fail(told + ".", fix=LINE_FIX.get(name.split('.')[-1], LINE_FIX['attn']))
    return "layer0: attn_wq, attn_wk, attn_wv, attn_wo 16 × 16; mlp_fc1 64 × 16; mlp_fc2 16 × 64."


@check("every layer has matrices of its own")
def _(code):
    with calling("shapes(27, 3, 16, 16)"):
        got = code.shapes(27, 3, 16, 16)
    want = _expected(27, 3, 16, 16)
    layers = sorted({name.split('.')[0] for name in got if '.' in name})
    if set(got) != set(want):
        fail(f"shapes(27, 3, 16, 16), three layers, made {len(got)} matrices "
             f"({', '.join(sorted(got))}), but three layers make {len(want)}: wte, wpe, lm_head "
             f"and six for each of layer0, layer1 and layer2"
             + (f" (yours named {', '.join(layers)})" if layers else "")
             + ". Each layer is a block of its own, with its own weights.", fix=LAYERS_FIX)
    return f"{len(got)} matrices: three layers of six, plus wte, wpe and lm_head."


@check("GPT-2's size, counted two ways")
def _(code):
    vocab_size, n_layer, n_embd, block_size = GPT2
    with calling("count(shapes(50257, 12, 768, 1024))"):
        got = code.count(code.shapes(*GPT2))
    # the same count from the formula: two vocab_size × n_embd tables, wpe, and per layer
    # 4 n_embd² for attention and 8 n_embd² for the MLP
    want = 2 * vocab_size * n_embd + block_size * n_embd + n_layer * 12 * n_embd ** 2
    if got != want:
        parted = _parts(code.shapes(*GPT2), _expected(*GPT2))
        told = (f"count(shapes(50257, 12, 768, 1024)) is {got:,}, but 2 × 50,257 × 768 (wte and "
                f"lm_head) + 1,024 × 768 (wpe) + 12 layers × 12 × 768² gives {want:,}")
        if parted:
            told += f". At this size {parted}"
        if "64" in parted.split("but should")[0]:
            told += (": 64 is microgpt's hidden width, 4 × 16, written as a number; at n_embd "
                     "768 the MLP is 4 × 768 = 3,072 wide")
        wrong = parted.split(" ")[0].split(".")[-1]
        fail(told + ".", fix=LINE_FIX.get(wrong, LINE_FIX['attn'] if "attn" in wrong else LOOP_FIX))
    return f"{got:,} numbers, the same as 2·V·d + T·d + 12·L·d²."


def _sizes(rng):
    yield Case("27, 2, 32, 16", lambda space: (27, 2, 32, 16))
    yield Case("100, 0, 8, 4", lambda space: (100, 0, 8, 4), "no layer at all")
    yield Case("50257, 12, 768, 1024", lambda space: GPT2, "GPT-2 small's size")
    yield Case("50257, 96, 12288, 2048", lambda space: (50257, 96, 12288, 2048),
               "GPT-3's size")


def _parts(got, want):
    if not isinstance(got, dict):
        return f"it returned {type(got).__name__}, not a dict of shapes"
    for name in want:
        if name not in got:
            return f"{name} is missing"
        if got[name] != want[name]:
            return f"{name} is {_shape(got[name])} but should be {_shape(want[name])}"
    extra = [name for name in got if name not in want]
    return f"it has {', '.join(extra)}, which microgpt does not" if extra else ""


agrees("shapes", _sizes, compare=_parts, name="shapes() at other sizes, twice each")
