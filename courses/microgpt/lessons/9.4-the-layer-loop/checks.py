"""Checks for lesson 9.4: the layer loop in gpt(), w(name), a cache per layer, and name_loss's
caches, tried with n_layer = 2 and 3 (the bundled model has one layer, which hides them all).

For more layers the checks add the matrices of blocks 1 and 2 to `weights` (drawn from a seeded
generator, with the file's own Value), set n_layer, and take them away again afterwards. A
stand-in for `linear` notes which matrix every call used, so a block that never ran, or ran
on block 0's matrices, is told by name; the caches are read after the calls; a stand-in for
gpt() notes the caches name_loss() hands it. The last checks compare gpt() and name_loss() with
ours, with 1 and 2 layers, on new caches and on names longer than block_size.
"""
import gc
import random

from linebyline.runtime import (
    Case,
    agrees,
    calling,
    check,
    cut_off,
    fail,
    listing,
    matrix_leaves,
    replacing,
)


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

MATRICES = ("attn_wq", "attn_wk", "attn_wv", "attn_wo", "mlp_fc1", "mlp_fc2")
LOOP_FIX = ("for layer in range(n_layer):\n"
            "        w = lambda name: weights[f'layer{layer}.{name}']")
CACHE_FIX = "keys[layer].append(k)\n        values[layer].append(v)"
LISTS_FIX = "keys, values = [[] for _ in range(n_layer)], [[] for _ in range(n_layer)]"


class _Layers:
    """`with _Layers(space, 2):` the file has blocks 0 and 1: their matrices in weights
    (block 1 and up drawn here, the same numbers for every file) and n_layer = 2."""

    def __init__(self, space, count):
        self.space, self.count, self.added = space, count, []

    def __enter__(self):
        weights, Value = self.space.weights, self.space.Value
        rng = random.Random(9)
        n_embd = self.space.n_embd
        for layer in range(1, self.count):
            for name in MATRICES:
                rows = 4 * n_embd if name == "mlp_fc1" else n_embd
                cols = 4 * n_embd if name == "mlp_fc2" else n_embd
                key = f"layer{layer}.{name}"
                weights[key] = [[Value(rng.gauss(0, 0.08)) for _ in range(cols)]
                                for _ in range(rows)]
                self.added.append(key)
        self.n_layer = replacing(self.space, "n_layer", self.count)
        self.n_layer.__enter__()
        return self

    def __exit__(self, *error):
        self.n_layer.__exit__(*error)
        for key in self.added:
            self.space.weights.pop(key, None)
        return False


_USED = {}  # (file, layers) -> what _run_layers saw: each count is run once per checked file
_MADE_FROM = {}  # (file, layers) -> {(layer, "keys"): attn_wk's numbers, named; ...}


class _Root:
    """One node whose children are the given Values: the graph behind all of them is walked once
    (cut_off walks a list's graphs one by one, and theirs overlap)."""

    def __init__(self, values):
        self._children = tuple(values)


def _used(code, count):
    if (id(code), count) not in _USED:
        if any(key[0] != id(code) for key in _USED):
            _USED.clear()
            _MADE_FROM.clear()
        _USED[id(code), count] = _run_layers(code, count)
    return _USED[id(code), count]


def _run_layers(code, count, name="ava"):
    """gpt() over BOS + name with `count` layers: the matrices each position's linear() calls
    used, and the caches afterwards; or the error gpt() raised, and the caches then."""
    names = {id(mat): key for key, mat in code.weights.items()}
    real_linear = code.linear
    used = []

    def linear(x, w):
        used[-1].append(names.get(id(w), "a matrix not in weights"))
        return real_linear(x, w)

    keys, values = [[] for _ in range(count)], [[] for _ in range(count)]
    tokens = [code.BOS] + [code.chars.index(ch) for ch in name]
    with _Layers(code, count), replacing(code, "linear", linear), _Quick():
        names.update({id(mat): key for key, mat in code.weights.items()})
        _MADE_FROM[id(code), count] = {  # what each layer's keys and values are made from
            (layer, part): matrix_leaves(f"layer{layer}.attn_w{part[0]}",
                                         code.weights.get(f"layer{layer}.attn_w{part[0]}", []))
            for layer in range(count) for part in ("keys", "values")}
        for pos, token in enumerate(tokens):
            used.append([])
            try:
                with calling(f"gpt() at position {pos} of {name!r}, with n_layer = {count}"):
                    code.gpt(token, pos, keys, values)
            except (KeyError, IndexError, ValueError, TypeError) as error:
                return used, keys, values, error, pos
    return used, keys, values, None, len(tokens) - 1


def _blocks(calls):
    """The layer numbers of the blocks a position went through, in order, e.g. [0, 0]."""
    return [int(key[5:key.index(".")]) for key in calls
            if key.startswith("layer") and key.endswith("attn_wq")]


@check("gpt() runs every block on its own matrices")
def _(code):
    for count in (2, 3):
        used, keys, values, error, pos = _used(code, count)
        where = f"With n_layer = {count}, at position {pos} of 'ava'"
        if isinstance(error, KeyError):
            fail(f"{where}, gpt() looked up weights[{error.args[0]!r}], a matrix the model does "
                 f"not have: with {count} layers the blocks are layer0 to layer{count - 1}. "
                 "w(name) must build the key from the block the loop is at, "
                 "f'layer{layer}.{name}'.", fix=LOOP_FIX)
        if error is not None:
            continue  # told by the caches' check, which comes next
        calls = used[-1]
        blocks = _blocks(calls)
        want = list(range(count))
        if blocks == want and all(f"layer{b}.{name}" in calls for b in want for name in MATRICES):
            continue
        if len(blocks) < count:
            fail(f"{where}, gpt() went through {len(blocks)} block"
                 f"{'s' if len(blocks) != 1 else ''} (it used {listing(_short(calls))}), but "
                 f"n_layer = {count}: the loop must take layer through range(n_layer), so that "
                 "every block runs.", fix=LOOP_FIX)
        if len(set(blocks)) < len(blocks):
            fail(f"{where}, gpt() went through {len(blocks)} blocks, but every one used "
                 f"{listing(sorted({f'layer{b}' for b in blocks}))}'s matrices (it used "
                 f"{listing(_short(calls))}). w(name) must give the matrices of the block the "
                 "loop is at: 'layer0.attn_wq' in block 0, 'layer1.attn_wq' in block 1.",
                 fix=LOOP_FIX)
        fail(f"{where}, gpt() used {listing(_short(calls))}, but with {count} layers it must "
             f"use each block's six matrices in turn, layer0's then layer1's"
             f"{' then layer2' + chr(39) + 's' if count > 2 else ''}, and then lm_head.")


def _short(calls):
    """['layer0.attn_wq', ...] -> 'layer0's attn_wq, ...' in runs: 'layer0 (6 matrices)'."""
    runs = []
    for key in calls:
        block = key.split(".")[0] if "." in key else key
        if runs and runs[-1][0] == block:
            runs[-1][1] += 1
        else:
            runs.append([block, 1])
    return [f"{block} ({n} matrices)" if n > 1 else block for block, n in runs]


@check("each block keeps its own keys and values")
def _(code):
    used, keys, values, error, pos = _used(code, 2)
    where = f"With n_layer = 2, after gpt() at position{'s 0 to' if pos else ''} {pos} of 'ava'"
    positions = pos + 1
    outer = [item for item in keys if not isinstance(item, list) or
             (item and not isinstance(item[0], list))]
    if len(keys) != 2 or outer:
        fail(f"{where}, keys holds {len(keys)} items where it should hold 2 lists, one per "
             "layer: k was added to keys itself, as a new item, instead of to this layer's "
             "list, keys[layer]." + (f" gpt() then raised {type(error).__name__}." if error
                                     else ""), fix=CACHE_FIX)
    counts = [len(k) for k in keys], [len(v) for v in values]
    want = [positions, positions]
    if counts == (want, want) and error is None:
        _cached_values(code, keys, values, where)
        return
    if counts[0][1] == 0 and counts[0][0] == 2 * positions:
        fail(f"{where}, keys[0] holds {counts[0][0]} keys and keys[1] none: both blocks put "
             "their keys into block 0's list. Each block appends to its own, keys[layer] and "
             "values[layer], and reads only its own.", fix=CACHE_FIX)
    fail(f"{where}, the caches hold {counts[0]} keys and {counts[1]} values per layer, but each "
         f"of the 2 layers should hold one per position: {want}."
         + (f" gpt() raised {type(error).__name__}: {error}." if error else ""), fix=CACHE_FIX)


def _cached_values(code, keys, values, where):
    """Fail if a layer's cache holds numbers no gradient can go back through to the matrix that
    made them (attn_wk for keys, attn_wv for values): plain numbers, or new Values made of them."""
    made_from = _MADE_FROM.get((id(code), 2), {})
    for layer in range(2):
        for part, cache in (("keys", keys), ("values", values)):
            leaves = made_from.get((layer, part), {})
            cached = [item for row in cache[layer] for item in
                      (row if isinstance(row, (list, tuple)) else [row])]
            if not leaves or not cut_off(_Root(cached), leaves):
                continue
            plain = [item for item in cached if not hasattr(item, "_children")]
            what = ("plain numbers" if len(plain) == len(cached) else
                    "new Values made from plain numbers (`.data`)")
            matrix = f"layer{layer}.attn_w{part[0]}"
            fail(f"{where}, {part}[{layer}] holds one entry per position, but of {what}, not "
                 f"the Values {'k' if part == 'keys' else 'v'} is made of: they are not computed "
                 f"from {matrix}, so no gradient can reach {matrix} through the cache, and "
                 f"training would never change it. The cache must keep the Values themselves.",
                 fix=CACHE_FIX)


class _Enough(Exception):
    """Raised by the stand-in for gpt() once it has seen what it needs."""


@check("name_loss() gives each layer a cache of its own")
def _(code):
    for count in (1, 1, 2, 3):  # twice with one layer: a cache kept from one call shows
        keys, values, held, problem = _handed(code, count)
        where = f"With n_layer = {count}, name_loss('ava') handed gpt()"
        if held:
            fail(f"Called a second time, name_loss('ava') handed gpt() caches that already held "
                 f"{held} key{'s' if held != 1 else ''} before its first position: the keys of "
                 "the name before. Each name needs new, empty caches, made inside name_loss() "
                 "every time it runs.", fix=LISTS_FIX)
        if problem is not None or len(keys) < count or len(values) < count:
            fail(f"{where} keys with {len(keys)} list{'s' if len(keys) != 1 else ''} and values "
                 f"with {len(values)}, but gpt() needs one list per layer, {count} each"
                 + (f" (it raised IndexError reading keys[{len(keys)}])" if problem else "")
                 + ".", fix=LISTS_FIX)
        if keys is values:
            fail(f"{where} one and the same list as keys and as values, so every key and every "
                 "value went into the same lists, mixed. They must be two separate lists.",
                 fix=LISTS_FIX)
        if any(keys[i] is keys[j] for i in range(count) for j in range(i)):
            fail(f"{where} keys whose {count} lists are one and the same list, {count} times "
                 "over ([[]] * n shares one inner list n times), so every layer's keys went "
                 "into it together. Each layer needs a new empty list of its own.",
                 fix=LISTS_FIX)
        if any(k is v for k in keys for v in values):
            fail(f"{where} keys and values that share a list, so keys and values got mixed in "
                 "it. Every list must be new.", fix=LISTS_FIX)


def _handed(code, count):
    """name_loss('ava') with `count` layers, stopped after gpt() has been handed its caches
    twice: (keys, values, keys already held before the first position, an IndexError)."""
    real_gpt = code.gpt
    handed = []

    def gpt(token, pos, keys, values):
        if not handed:
            handed.append(sum(len(k) for k in keys if isinstance(k, list)))
        handed.append((keys, values))
        if len(handed) > 2:  # the caches are in hand after two positions: enough
            raise _Enough
        return real_gpt(token, pos, keys, values)

    problem = None
    with _Layers(code, count), replacing(code, "gpt", gpt), _Quick():
        try:
            with calling(f"name_loss('ava') with n_layer = {count}"):
                code.name_loss("ava")
        except _Enough:
            pass
        except IndexError as error:
            problem = error
    keys, values = handed[1]
    return keys, values, handed[0], problem


# --- gpt() and name_loss() against ours, with 1 and 2 layers --------------------------------

GPT_PLANS = ((1, 3), (2, 1), (2, 12))  # (n_layer, cache length)


def _gpt_cases(rng):
    for layers, length in GPT_PLANS:
        token, pos = rng.randrange(26), length - 1
        rows = [[[[round(rng.gauss(0, 1), 3) for _ in range(16)] for _ in range(length - 1)]
                 for _ in range(layers)] for _ in range(2)]
        text = (f"n_layer = {layers}: token {token} at position {pos}, each layer's cache "
                f"holding {length - 1} earlier position{'s' if length != 2 else ''} of random "
                "keys and values")
        yield Case(text, lambda space, args=(layers, token, pos, rows): args,
                   "two layers" if layers > 1 else "")


def _gpt(space, args):
    layers, token, pos, rows = args
    keys, values = ([[[space.Value(x) for x in row] for row in layer] for layer in part]
                    for part in rows)
    with _Layers(space, layers), _Quick():
        return space.gpt(token, pos, keys, values)


agrees("gpt()", _gpt_cases, call=_gpt, name="gpt() with 1 and 2 layers, twice each")

LOSS_PLANS = ((1, "o"), (2, "bo"))


def _loss_cases(rng):
    for layers, name in LOSS_PLANS:
        yield Case(f"n_layer = {layers}: name_loss({name!r})",
                   lambda space, args=(layers, name): args,
                   f"{layers} layers" if layers > 1 else "")


def _loss(space, args):
    layers, name = args
    with _Layers(space, layers), _Quick():
        return space.name_loss(name)


agrees("name_loss()", _loss_cases, call=_loss, name="name_loss() with 1 and 2 layers, twice each")
