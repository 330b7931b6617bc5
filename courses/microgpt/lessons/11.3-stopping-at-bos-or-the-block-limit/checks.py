"""Checks for lesson 11.3: the draw (BOS among the choices), the stop at BOS, the block limit.

The first check watches the real gpt() and random.choices while one short name is drawn: the
draw must choose among all vocab_size ids with the probabilities' numbers as weights, and keep
one id. The next two call sample_name with a stand-in for gpt(), whose logits decide the name
("aaa" then BOS, or never BOS), so they measure where sample_name stops whatever the weights,
and can try a block_size other than microgpt's 16. The last check compares with ours.
"""
from linebyline.runtime import (
    Case,
    agrees,
    calling,
    check,
    fail,
    listing,
    replacing,
    shown,
)

SHORT = 4  # letters at most while the real gpt() is watched (it takes milliseconds a call)
DRAW_FIX = "`token = random.choices(range(vocab_size), weights=[p.data for p in probs])[0]`"
STOP_FIX = "`if token == BOS:`, then `break` on the next line, before the append"
LOOP_FIX = "`for pos in range(block_size):`"


def _draw_watched(code, seed=1):
    """sample_name(0.5) with the real gpt(): the name (or the error it raised) and each call of
    random.choices as (population, weights, what it returned)."""
    draws = []
    real = code.random.choices

    def choices(population, weights=None, *rest, **options):
        draws.append([population, weights, None])
        picked = real(population, weights, *rest, **options)
        draws[-1][2] = picked
        return picked

    code.random.seed(seed)
    with replacing(code.random, "choices", choices), replacing(code, "block_size", SHORT), \
            calling("sample_name(0.5)"):
        try:
            return code.sample_name(0.5), None, draws
        except (TypeError, ValueError, IndexError) as error:
            return None, error, draws


@check("the draw picks one id of all vocab_size, weighted by the probabilities")
def _(code):
    name, error, draws = _draw_watched(code)
    if not draws:
        if error is not None:
            raise error
        fail(f"sample_name(0.5) returned {shown(name)} without ever calling random.choices: "
             "the tokens were not drawn at random. Taking the likeliest token every time gives "
             "the same name again and again; the draw must go by the probabilities.",
             fix=DRAW_FIX)
    population, weights, picked = draws[0]
    ids = list(population) if isinstance(population, (range, list, tuple)) else population
    if ids != list(range(code.vocab_size)):
        missing = "BOS" if ids == list(range(code.vocab_size - 1)) else ""
        drawn_from = (f"range({population.stop})" if isinstance(population, range)
                      and population.start == 0 and population.step == 1 else shown(population))
        fail(f"The first token was drawn from {drawn_from}, but it must be drawn from "
             f"all {code.vocab_size} ids, range(vocab_size): the {code.vocab_size - 1} letters "
             f"and BOS ({code.BOS})."
             + (" Without BOS among the choices a name can never end by itself: every name "
                "would run on to block_size letters." if missing else ""), fix=DRAW_FIX)
    if weights is None or not all(isinstance(w, (int, float)) and not isinstance(w, bool)
                                  for w in weights):
        told = (f"{len(weights)} Values" if isinstance(weights, list) and weights
                and all(hasattr(w, "data") for w in weights) else shown(weights))
        fail(f"The first token was drawn with {told} as its weights: random.choices "
             "adds and compares its weights, so they must be plain numbers, the probabilities' "
             "numbers (each probability's .data); probs holds Values.", fix=DRAW_FIX)
    if error is not None:
        if isinstance(picked, list) and "list" in str(error):
            fail(f"random.choices returned {shown(picked)}, a list of one id, and sample_name "
                 f"then raised {type(error).__name__}: {error}. The token is the id inside the "
                 "list, its item [0].", fix=DRAW_FIX)
        raise error
    if not isinstance(name, str):
        fail(f"sample_name(0.5) returned {shown(name)}, but it must return the name, a string.")


class _Scripted:
    """A stand-in for gpt() whose logits pick the next token: the letter 'a' (id 0) at every
    position, then BOS from position `stop_at` on (never, if stop_at is None)."""

    def __init__(self, code, stop_at):
        self.code, self.stop_at, self.positions = code, stop_at, []

    def __call__(self, token, pos, keys, values):
        self.positions.append(pos)
        for cache in (keys, values):
            for layer in cache:
                if isinstance(layer, list):
                    layer.append(pos)
        code = self.code
        favoured = code.BOS if self.stop_at is not None and pos >= self.stop_at else 0
        return [code.Value(60.0 if i == favoured else 0.0) for i in range(code.vocab_size)]


def _scripted(code, stop_at, block_size=None):
    """sample_name(0.5) with the scripted stand-in: the name, the positions gpt() was called at,
    and the error sample_name raised (or None)."""
    scripted = _Scripted(code, stop_at)
    size = code.block_size if block_size is None else block_size
    with replacing(code, "gpt", scripted), replacing(code, "block_size", size), \
            calling(f"sample_name(0.5) with block_size = {size}"):
        try:
            return code.sample_name(0.5), scripted.positions, None
        except IndexError as error:
            return None, scripted.positions, error


@check("a name ends when BOS is drawn, without BOS in it")
def _(code):
    name, positions, error = _scripted(code, stop_at=3)
    said = ("With a stand-in gpt() whose logits pick 'a' at positions 0, 1 and 2 and BOS at "
            "position 3,")
    if error is not None:
        fail(f"{said} sample_name raised IndexError ({error}) when BOS was drawn: chars has "
             f"{len(code.chars)} letters, ids 0 to {len(code.chars) - 1}, and BOS ({code.BOS}) "
             "is not one of them. BOS is no letter; it says the name is over. Check for it "
             "before keeping a letter.", fix=STOP_FIX)
    if name != "aaa" or positions != [0, 1, 2, 3]:
        if positions and max(positions) > 3 and name == "aaa":
            fail(f"{said} sample_name returned 'aaa' but went on calling gpt() at positions "
                 f"{listing(str(p) for p in positions if p > 3)}: drawing BOS skipped that "
                 "letter and carried on to the block limit, where it must end the name at once. "
                 "Leaving the loop ends it; skipping to the next position does not.",
                 fix=STOP_FIX)
        fail(f"{said} sample_name returned {shown(name)} after calling gpt() at positions "
             f"{listing(str(p) for p in positions) or 'none'}; it should return 'aaa' after "
             "positions 0 to 3: BOS ends the name, and is not part of it.", fix=STOP_FIX)
    _bos_first(code)


def _bos_first(code):
    """A BOS drawn at position 0, the very first draw, ends the name too: it comes back empty."""
    name, positions, error = _scripted(code, stop_at=0)
    said = "With a stand-in gpt() whose logits pick BOS at every position from position 0 on,"
    if error is not None:
        fail(f"{said} sample_name raised IndexError ({error}) when BOS came as the very first "
             f"draw: your loop kept it as a letter, and chars has no letter for BOS "
             f"({code.BOS}). A BOS drawn at position 0 ends the name as at any other position, "
             "before it has a letter: the name is '', the empty name.", fix=STOP_FIX)
    if name == "" and positions == [0]:
        return
    span = (f"0 to {positions[-1]}" if len(positions) > 2 and positions == list(range(len(positions)))
            else listing(str(p) for p in positions) or "none")
    fail(f"{said} sample_name called gpt() at positions {span} and returned {shown(name)}: the "
         "first draw was BOS, and your loop did not end the name there. It should stop after "
         "position 0 and return '': a BOS drawn first ends the name before it has a letter, as "
         "at any other position. BOS is one of the choices of every draw, the first included, "
         "and microgpt then prints an empty name.", fix=STOP_FIX)


@check("a name that never draws BOS stops at block_size letters")
def _(code):
    for size in (code.block_size, 6, 20):
        name, positions, error = _scripted(code, stop_at=None, block_size=size)
        said = (f"With block_size = {size} and a stand-in gpt() that never favours BOS, "
                f"sample_name(0.5)")
        if error is not None:
            fail(f"{said} raised IndexError ({error}) after calling gpt() at positions 0 to "
                 f"{max(positions, default=0)}.", fix=LOOP_FIX)
        if isinstance(name, str) and len(name) == size and positions == list(range(size)):
            continue
        got = len(name) if isinstance(name, str) else shown(name)
        more = max(positions, default=-1) + 1 > size
        reason = (f"gpt() has a position embedding for these positions only, and the real one "
                  f"would raise IndexError at position {size}." if more else
                  "The loop must run block_size times, whatever block_size is.")
        beyond = ("" if size == code.block_size else
                  f" microgpt's block_size is {code.block_size}, where this cannot show; a "
                  f"model with block_size = {size} would.")
        fail(f"{said} returned {got} letters after calling gpt() at positions 0 to "
             f"{max(positions, default=0)}, but it must stop after {size}, positions 0 to "
             f"{size - 1}: {reason}{beyond}", fix=LOOP_FIX)


def _sampled(space, args):
    temperature, lift = args
    real = space.gpt

    def gpt(token, pos, keys, values):  # BOS made likelier at position 0, the first draw
        logits = real(token, pos, keys, values)
        if lift and pos == 0:
            logits[space.BOS] = logits[space.BOS] + lift
        return logits

    with replacing(space, "block_size", SHORT), replacing(space, "gpt", gpt):
        return space.sample_name(temperature)


def _temperatures(rng):
    for t, lift, note in ((0.5, 0, ""), (2.0, 0, ""),
                          (10.0, 0, "BOS drawn about as often as any letter"),
                          (1.0, 4.0, "BOS drawn first about two times in three: an empty name")):
        yield Case(f"{t:g}", lambda space, t=t, lift=lift: (t, lift), note)


agrees("sample_name", _temperatures, call=_sampled, draws=True,
       label="sample_name({text}) with block_size = 4",
       name="sample_name draws the names ours draws, twice each")

