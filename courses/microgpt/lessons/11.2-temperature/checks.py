"""Checks for lesson 11.2: the logits of gpt(), divided by the temperature, then softmax.

The first check watches one name being drawn: a stand-in around gpt() keeps the logits each call
returns (and calls the real one), and a stand-in around random.choices keeps the weights each
draw was given. Each draw's weights must be the softmax of the logits just returned, divided by
the temperature, and gpt() must run once per position: it adds to the caches every time it
runs. Names are cut at a few letters (block_size is lowered for the check), since the real gpt()
takes milliseconds a call. The last check compares sample_name with ours on the same draws.
"""
import math

from linebyline.runtime import Case, agrees, calling, check, close, fail, number, plural, replacing, shown

SHORT = 4  # letters at most while a check watches: gpt() is slow, the idea shows at once
TINY = 1e-5  # logits divided by it reach the thousands: exp() overflows without softmax
FIX = "`probs = softmax([logit / temperature for logit in gpt(token, pos, keys, values)])`"


def _softmax(xs):
    top = max(xs)
    exps = [math.exp(x - top) for x in xs]
    total = sum(exps)
    return [e / total for e in exps]


def _same(got, want):
    return len(got) == len(want) and all(close(g, w, rel=1e-9, abs_tol=1e-12)
                                         for g, w in zip(got, want))


def _watch(code, temperature, seed):
    """Draw one name at `temperature`: the name, and for each gpt() call its logits (plain
    numbers) and the cache length it found, and each draw's weights, in the order they came."""
    events = []
    real_gpt, real_choices = code.gpt, code.random.choices

    def gpt(token, pos, keys, values):
        held = len(keys[0]) if isinstance(keys, list) and keys and isinstance(keys[0], list) else None
        logits = real_gpt(token, pos, keys, values)
        events.append(("gpt", pos, held, [getattr(z, "data", z) for z in logits]))
        return logits

    def choices(population, weights=None, *rest, **options):
        picked = real_choices(population, weights, *rest, **options)
        events.append(("draw", list(weights) if weights is not None else None, picked[0]))
        return picked

    code.random.seed(seed)
    call = f"sample_name({number(temperature)})"
    with replacing(code, "gpt", gpt), replacing(code.random, "choices", choices), \
            replacing(code, "block_size", SHORT), calling(call):
        try:
            name = code.sample_name(temperature)
        except AttributeError as error:
            if "'float' object has no attribute 'data'" not in str(error):
                raise
            fail(f"`{call}` raised AttributeError: {error}. gpt() returns its logits as Values "
                 "(they remember how they were made, for training), and microgpt's softmax "
                 "reads each one's .data: divide the Values themselves by the temperature, "
                 "not their .data.", fix=FIX)
        except OverflowError as error:
            fail(f"`{call}` raised OverflowError: {error}. At so small a temperature the "
                 "logits divided by it reach the thousands, and exp() of anything above 709.78 "
                 "is more than a float can hold; softmax subtracts the biggest logit before "
                 "exp(), so the divided logits must go through softmax.", fix=FIX)
    return call, name, events


def _keys(count):
    return "1 key" if count == 1 else f"{count} keys"


def _weights_problem(call, logits, weights, temperature, after, fixed):
    """What is wrong with one draw's weights, in words, or ""."""
    want = _softmax([z / temperature for z in logits])
    total = sum(weights) if all(isinstance(w, (int, float)) for w in weights) else None
    if total is None:
        return (f"`{call}` drew its token with the weights {shown(weights)}: random.choices "
                "needs plain numbers, the probabilities' .data.")
    got = [w / total for w in weights] if total > 0 else weights
    if _same(got, want):
        return ""
    where = (f"`{call}`: {after}, the next token should be drawn from softmax(logits / "
             f"{number(temperature)}), where the likeliest token has p = {number(max(want))}; "
             f"yours gives it {number(got[want.index(max(want))])}")
    if temperature != fixed and _same(got, _softmax([z / fixed for z in logits])):
        return (f"{where}, the probabilities at temperature {number(fixed)}, the file's own "
                f"temperature: the temperature sample_name is given ({number(temperature)}) is "
                "never used. microgpt calls it with 0.5, where this cannot show; each logit "
                "must be divided by the parameter.")
    if _same(got, _softmax([z * temperature for z in logits])):
        return (f"{where}: the logits were multiplied by the temperature instead of divided, "
                f"which turns {number(temperature)} into its opposite: "
                f"{'flatter' if temperature < 1 else 'sharper'} instead of "
                f"{'sharper' if temperature < 1 else 'flatter'}.")
    if _same(got, _softmax(logits)):
        if not close(total, 1.0) and close(total, 1 / temperature):
            return (f"{where}: the probabilities were divided by the temperature after the "
                    "softmax, which random.choices does not notice, since it only compares "
                    "the weights with each other: the logits must be divided, before the "
                    "softmax.")
        return (f"{where}, the probabilities at temperature 1: the temperature is never used. "
                "Each logit must be divided by it before the softmax.")
    return (f"{where}: each draw's weights must be the softmax of the logits gpt() has just "
            "returned for this position, each divided by the temperature.")


@check("each draw is softmax(logits / temperature) of one gpt() call")
def _(code):
    for temperature, seed in ((0.5, 1), (2.0, 2), (TINY, 3)):
        call, name, events = _watch(code, temperature, seed)
        calls = [event for event in events if event[0] == "gpt"]
        draws = [event for event in events if event[0] == "draw"]
        if not draws:
            fail(f"`{call}` never called random.choices, so no token was drawn from the "
                 "probabilities.")
        for index, event in enumerate(events):
            if event[0] != "draw":
                continue
            before = [e for e in events[:index] if e[0] == "gpt"]
            drawn = len([e for e in events[:index] if e[0] == "draw"])
            if len(before) > drawn + 1:
                pos, extra = before[drawn][1], before[drawn + 1]
                fail(f"`{call}` called gpt() {len(before) - drawn} times at position {pos}, "
                     f"for one token. Each call adds the position's key and value to the "
                     f"caches: the second call found {_keys(extra[2])} there instead of {pos}, so "
                     "from then on every position attends to this one twice. Call gpt() once "
                     "per position, and divide the logits that call returned.", fix=FIX)
            if not before:
                fail(f"`{call}` drew a token before calling gpt(): the probabilities must come "
                     "from the logits of this position.")
            after = "after BOS" if drawn == 0 else f"at position {drawn}"
            problem = _weights_problem(call, before[-1][3], event[1], temperature, after,
                                       code.temperature)
            if problem:
                fail(problem, fix=FIX)
        if len(calls) > len(draws):
            fail(f"`{call}` called gpt() {len(calls)} times for {plural(len(draws), 'token')} drawn: "
                 "once per position is what the caches expect.", fix=FIX)
        if not isinstance(name, str):
            fail(f"`{call}` returned {shown(name)}, but it must return the name, a string.")


def _sampled(space, args):
    with replacing(space, "block_size", SHORT):
        return space.sample_name(*args)


def _temperatures(rng):
    for t, note in ((0.5, ""), (1.0, ""), (2.0, ""), (0.1, "nearly always the likeliest letter"),
                    (TINY, "logits divided by it reach the thousands"),
                    (10.0, "letters nearly at random")):
        yield Case(f"{t:g}", lambda space, t=t: (t,), note)


agrees("sample_name", _temperatures, call=_sampled, draws=True,
       label="sample_name({text}) with block_size = 4",
       name="sample_name draws the names ours draws, twice each")
