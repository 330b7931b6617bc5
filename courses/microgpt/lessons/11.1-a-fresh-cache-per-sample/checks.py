"""Checks for lesson 11.1: every name starts from empty caches, BOS, and no letters.

The first checks call sample_name with a stand-in for gpt(): it fills the caches exactly as
gpt() does (one key and one value per layer per call) and notes how full they were when it was
called, and its logits make the names come out the same every time ("aaaa", then BOS). So what
is measured is the caches the learner's sample_name hands to gpt(), on names of a known length,
whatever the weights. The stand-in runs in microseconds, so the checks can also try a second
layer and names that stop at block_size. The last check compares sample_name with ours, with the
real gpt(), drawing the same random numbers.
"""
from linebyline.runtime import (
    Case,
    agrees,
    calling,
    check,
    fail,
    listing,
    plural,
    replacing,
    shown,
)

LENGTH = 4  # the stand-in's names: four letters, then BOS
FIX = "`keys, values = [[] for _ in range(n_layer)], [[] for _ in range(n_layer)]`, first in sample_name"
FIX_START = "`token, name = BOS, []`, right after the caches, in sample_name"


class _Entry(tuple):
    """What the stand-in puts in a cache: ("key", pos) or ("value", pos), known as its own."""

    def __new__(cls, kind, pos):
        return super().__new__(cls, (kind, pos))


class _Watched:
    """A stand-in for gpt(): notes the caches it is handed, fills them as gpt() does, and
    returns logits that favour one letter (or BOS, once a name has `stop_at` letters)."""

    def __init__(self, code, layers, stop_at, letter=0):
        self.code, self.layers, self.stop_at, self.letter = code, layers, stop_at, letter
        self.calls = []  # (pos, token, keys, values, lengths before the call, or a problem)
        self.touched = []  # the lists it appended to, cleaned of its entries afterwards

    def clean(self):
        """Take the stand-in's entries out of the caches again: caches a learner keeps between
        calls must not carry them into the next check (the real gpt() cannot use them)."""
        for cache in self.touched:
            cache[:] = [entry for entry in cache if not isinstance(entry, _Entry)]

    def __call__(self, token, pos, keys, values):
        problem = _shape(keys, values, self.layers)
        if problem:
            fail(problem, fix=FIX)
        lengths = [(len(keys[layer]), len(values[layer])) for layer in range(self.layers)]
        shared = next((layer for layer in range(self.layers) if keys[layer] is values[layer]), None)
        twins = [(a, b) for a in range(self.layers) for b in range(a + 1, self.layers)
                 if keys[a] is keys[b]]
        self.calls.append({"pos": pos, "token": token, "lengths": lengths, "shared": shared,
                           "twins": twins})
        for layer in range(self.layers):
            keys[layer].append(_Entry("key", pos))
            values[layer].append(_Entry("value", pos))
            self.touched += [keys[layer], values[layer]]
        code = self.code
        favoured = code.BOS if self.stop_at is not None and pos >= self.stop_at else self.letter
        return [code.Value(60.0 if token_id == favoured else 0.0)
                for token_id in range(code.vocab_size)]


def _shape(keys, values, layers):
    """What is wrong with the caches' shape (gpt() appends to keys[layer] and values[layer])."""
    for name, cache in (("keys", keys), ("values", values)):
        if not isinstance(cache, list):
            return (f"sample_name handed gpt() {name} = {shown(cache)}, but gpt() appends each "
                    f"layer's new {name[:-1]} to {name}[layer]: it needs a list holding one list "
                    "per layer.")
        if len(cache) < layers or not all(isinstance(item, list) for item in cache[:layers]):
            return (f"sample_name handed gpt() {name} = {shown(cache)}, but gpt() appends each "
                    f"layer's new {name[:-1]} to {name}[layer], so with n_layer = {layers} it "
                    f"needs {layers} empty list{'s' if layers > 1 else ''} inside: one per layer "
                    "(lesson 9.4, The layer loop).")
    return ""


def _watch(code, names, layers=1, stop_at=LENGTH, temperature=0.5, letter=0):
    """Call sample_name `names` times with the stand-in; the names and the stand-in's notes."""
    watched = _Watched(code, layers, stop_at, letter)
    got = []
    try:
        with replacing(code, "gpt", watched), replacing(code, "n_layer", layers):
            for _ in range(names):
                with calling(f"sample_name({temperature})"):
                    got.append(code.sample_name(temperature))
    finally:
        watched.clean()
    return got, _by_name(watched.calls)


def _by_name(calls):
    """The stand-in's notes cut into names: a name starts wherever pos goes back to 0."""
    names = []
    for call in calls:
        if call["pos"] == 0 or not names:
            names.append([])
        names[-1].append(call)
    return names


def _told(code, token):
    """A token as a learner reads it: its letter ('a'), else the value itself."""
    if isinstance(token, int) and not isinstance(token, bool) and 0 <= token < len(code.chars):
        return shown(code.chars[token])
    return shown(token)


def _ordinal(index):
    return ("first", "second", "third", "fourth")[index] if index < 4 else f"{index + 1}th"


@check("each name starts with empty caches")
def _(code):
    got, names = _watch(code, 3)
    if not names:
        fail("sample_name(0.5) never called gpt(), so no letter was drawn from the model. Each "
             "position calls gpt(token, pos, keys, values) for the next token's logits.")
    for index, calls in enumerate(names):
        first = calls[0]
        if first["shared"] is not None:
            filled = calls[1]["lengths"][0][0] if len(calls) > 1 else 2
            fail(f"sample_name handed gpt() one and the same list as keys[0] and values[0]: "
                 f"after one position it already held {filled} entries, the key and the value. "
                 "gpt() keeps the keys and the values apart, to score with the keys and blend "
                 "the values: they need a list each.", fix=FIX)
        for side, kind in ((0, "key"), (1, "value")):
            held = first["lengths"][0][side]
            if first["pos"] == 0 and held:
                cache = "the cache" if side == 0 else "values[0]"
                fail(f"The {_ordinal(index)} name's first letter was drawn with "
                     f"{plural(held, kind)} already in {cache}: those of the "
                     f"{plural(held, 'position')} of the names before it. The caches must be "
                     "made new for each name, inside sample_name, so that a name attends only to "
                     "its own letters, as it did in training (a fresh cache per name, lesson 8.6, "
                     "The KV cache).",
                     fix=FIX)
        for call in calls[1:]:
            side = 0 if call["lengths"][0][0] != call["pos"] else 1
            kind = ("key", "value")[side]
            if call["lengths"][0][side] != call["pos"]:
                before = (f"the {kind} of position 0" if call["pos"] == 1
                          else f"the {kind}s of positions 0 to {call['pos'] - 1}")
                cache = "the cache" if side == 0 else "values[0]"
                fail(f"At position {call['pos']} of the {_ordinal(index)} name, {cache} held "
                     f"{plural(call['lengths'][0][side], kind)}, but it should hold "
                     f"{call['pos']}: "
                     f"{before} of this name. Caches made new at every position forget the "
                     "letters before, so the model sees only the current letter: make them "
                     "once per name, before the loop over positions.", fix=FIX)
    wanted = "a" * LENGTH
    if got != [wanted] * len(got) and code.chars[0] == "a":
        grown = [name for name in got if name != wanted]
        fail(f"With a stand-in gpt() that draws {wanted!r} and then BOS for every name, three "
             f"calls of sample_name(0.5) returned {listing(repr(name) for name in got)}. Each "
             f"name must start with no letters: {shown(grown[0])} still holds letters of the "
             "names before it, so the list of letters is not made new in each call.",
             fix=FIX_START)


@check("a name after one that reached block_size starts at BOS")
def _(code):
    got, names = _watch(code, 2, stop_at=None, letter=1)
    letter = _told(code, 1)
    if len(names) < 2:
        fail(f"With a stand-in gpt() that draws {letter} at every position and never BOS, two "
             f"calls of sample_name(0.5) returned {listing(repr(name) for name in got)}, and "
             "gpt() was not called at position 0 of the second name.")
    first, second = names
    if len(first) != code.block_size:
        fail(f"With a stand-in gpt() that never favours BOS, the first name called gpt() "
             f"{len(first)} times, but a name that never draws BOS stops after block_size = "
             f"{code.block_size} letters: {code.block_size} calls, positions 0 to "
             f"{code.block_size - 1}.")
    token = second[0]["token"]
    if token == 1:
        fail(f"With a stand-in gpt() that draws {letter} at every position and never BOS, the "
             f"first name reached block_size ({code.block_size} letters), and the second name "
             f"then started from the token {letter}, the first name's last letter, instead of "
             "BOS: the token is kept from one call to the next. Every name starts at BOS, the "
             "token the model was trained to follow with a first letter, whatever the last name "
             "ended on.", fix=FIX_START)
    for name in (first, second):
        start = name[0]["token"]
        if start != code.BOS:
            fail(f"sample_name started a name from the token {_told(code, start)} instead of BOS "
                 f"({code.BOS}): gpt() was called with it at position 0. Every name starts at "
                 "BOS, the token the model was trained to follow with a first letter.",
                 fix=FIX_START)


@check("with two layers, each layer has a cache of its own")
def _(code):
    _, names = _watch(code, 1, layers=2)
    for call in names[0]:
        held = call["lengths"][0][0]
        if call["pos"] and call["twins"]:
            a, b = call["twins"][0]
            fail(f"With n_layer = 2, keys[{a}] and keys[{b}] are one and the same list: at "
                 f"position {call['pos']} it held {plural(held, 'key')} instead of {call['pos']}, "
                 f"because layer {b} appends its keys to the list layer {a} appends to. "
                 "microgpt has one layer, where this cannot show; repeating a list with * "
                 "repeats the very same list, while a list comprehension makes a new one "
                 "per layer.", fix=FIX)
        if held != call["pos"]:
            fail(f"With n_layer = 2, at position {call['pos']} the cache of layer 0 held "
                 f"{plural(held, 'key')} instead of {call['pos']}.", fix=FIX)


SHORT = 5  # letters at most in the differential check: the real gpt() takes milliseconds a call


def _sampled(space, args):
    """sample_name(temperature) with the real gpt(), names cut at SHORT letters; with layers=2,
    a second layer that reuses the first layer's weights."""
    temperature, layers, lift = args
    real = space.gpt

    def gpt(token, pos, keys, values):  # BOS made likelier at position 0, the first draw
        logits = real(token, pos, keys, values)
        if lift and pos == 0:
            logits[space.BOS] = logits[space.BOS] + lift
        return logits

    extra = {}
    if layers > 1:
        weights = space.weights
        for key in [key for key in weights if key.startswith("layer0.")]:
            extra["layer1." + key[len("layer0."):]] = weights[key]
    with replacing(space, "block_size", SHORT), replacing(space, "n_layer", layers), \
            replacing(space, "gpt", gpt):
        space.weights.update(extra)
        try:
            return space.sample_name(temperature)
        finally:
            for key in extra:
                space.weights.pop(key, None)


def _temperatures(rng):
    for temperature, layers, lift, note in (
            (0.5, 1, 0, ""), (2.0, 1, 0, ""),
            (1.0, 1, 4.0, "BOS drawn first about two times in three: an empty name"),
            (0.5, 2, 0, "with n_layer = 2, beyond microgpt's one layer")):
        yield Case(f"{temperature:g}", lambda space, t=temperature, n=layers, up=lift: (t, n, up),
                   note)


agrees("sample_name", _temperatures, call=_sampled, draws=True,
       label="sample_name({text}) with block_size = 5",
       name="sample_name draws the names ours draws, twice each")
