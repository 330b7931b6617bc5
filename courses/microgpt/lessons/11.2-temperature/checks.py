"""Checks for lesson 11.2: the logits of gpt(), divided by the temperature, then softmax.

The first check watches one name being drawn: a stand-in around gpt() keeps the logits each call
returns (and calls the real one), and a stand-in around random.choices keeps the weights each
draw was given. Each draw's weights must be the softmax of the logits just returned, divided by
the temperature, and gpt() must run once per position: it adds to the caches every time it
runs. Names are cut at a few letters (block_size is lowered for the check), since the real gpt()
takes milliseconds a call. The last check compares sample_name with ours on the same draws.
"""
import math

from linebyline.runtime import (
    Case,
    agrees,
    check,
    close,
    fail,
    learner_line,
    number,
    plural,
    replacing,
    shown,
)

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
        weights = list(weights) if weights is not None else None
        events.append(("draw", weights, None))
        picked = real_choices(population, weights, *rest, **options)
        events[-1] = ("draw", weights, picked[0])
        return picked

    code.random.seed(seed)
    call = f"sample_name({number(temperature)})"
    with replacing(code, "gpt", gpt), replacing(code.random, "choices", choices), \
            replacing(code, "block_size", SHORT):
        sample_name = code.sample_name
        try:
            name = sample_name(temperature)
        except Exception as error:  # noqa: BLE001 - each error of their code is told, with its line
            _raised(code, call, error, events)
    return call, name, events


def _frames(error):
    """The names of the functions the error went through (softmax, draw, ...)."""
    names, tb = [], error.__traceback__
    while tb is not None:
        names.append(tb.tb_frame.f_code.co_name)
        tb = tb.tb_next
    return names


def _quoted(error):
    """An error's own text, short, whatever its class does."""
    try:
        text = str(error)
    except Exception:  # noqa: BLE001 - a class of theirs may have a __str__ that raises
        return ""
    return text if len(text) <= 300 else text[:300] + "…"


def _raised(code, call, error, events):
    """Fail with what the learner's code raised while a name was drawn, naming their line."""
    text = _quoted(error)
    told = f"{type(error).__name__}: {text}" if text else type(error).__name__
    line = learner_line(error, code)
    at = f" (line {line} of your code)" if line is not None else ""
    drawn = len([e for e in events if e[0] == "draw" and e[2] is not None])
    where = "after BOS" if drawn == 0 else f"at position {drawn}"
    if isinstance(error, AttributeError) and "'float' object has no attribute 'data'" in text:
        if "softmax" in _frames(error):
            fail(f"`{call}` raised {told}{at}. gpt() returns its logits as Values (they remember "
                 "how they were made, for training), and microgpt's softmax reads each one's "
                 ".data: divide the Values themselves by the temperature, not their .data.",
                 fix=FIX)
        fail(f"`{call}` raised {told} in the draw of the token {where}: the probabilities "
             "next_probs returns are plain numbers, and the draw reads each one's .data. "
             "softmax returns Values: they go to the draw as they are.", fix=FIX)
    if isinstance(error, OverflowError):
        fail(f"`{call}` raised {told}{at}. At so small a temperature the logits divided by it "
             "reach the thousands, and exp() of anything above 709.78 is more than a float can "
             "hold; softmax subtracts the biggest logit before exp(), so the divided logits must "
             "go through softmax.", fix=FIX)
    if events and events[-1][0] == "draw" and events[-1][2] is None:
        weights = events[-1][1]
        fail(f"`{call}`: random.choices could not draw the token {where} from the weights "
             f"{shown(weights)} and raised {told}{at}. Its weights are the probabilities of the "
             "softmax of this position's logits, each divided by the temperature: numbers of "
             "at least 0, one per token, adding up to 1.", fix=FIX)
    fail(f"`{call}` raised {told}{at}, while drawing the token {where}. The probabilities of "
         "each position are the softmax of the logits gpt() returns for it, each logit divided "
         "by the temperature sample_name is given.")


def _keys(count):
    return "1 key" if count == 1 else f"{count} keys"


def _weights_problem(call, logits, weights, temperature, after, fixed):
    """What is wrong with one draw's weights, in words, or ""."""
    want = _softmax([z / temperature for z in logits])
    total = sum(weights) if all(isinstance(w, (int, float)) for w in weights) else None
    if total is None:
        return (f"`{call}` drew its token with the weights {shown(weights)}: random.choices "
                "needs plain numbers, the probabilities' .data.")
    if len(weights) != len(want):
        return (f"`{call}`: {after}, the next token was drawn with {len(weights)} weights, but "
                f"gpt() has just returned {len(want)} logits, one per token (the letters and "
                "BOS): the probabilities must be the softmax of every one of them, each divided "
                "by the temperature.")
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
    other = _as_temperature(logits, got)
    if other is not None:
        return (f"{where}, the probabilities at temperature {number(other)}: each logit was "
                f"divided by {number(other)}, where sample_name was given temperature = "
                f"{number(temperature)}.")
    return (f"{where}: these weights are not the softmax of the logits gpt() has just returned "
            "for this position at any temperature. Each draw's weights must be that softmax, "
            "each logit divided by the temperature.")


def _as_temperature(logits, got):
    """The temperature whose softmax of these logits the weights are, if there is one."""
    top, low = logits.index(max(logits)), logits.index(min(logits))
    if top == low or min(got) <= 0 or max(got) <= 0:
        return None
    ratio = math.log(got[top] / got[low])
    if ratio <= 0:
        return None
    other = (logits[top] - logits[low]) / ratio
    return other if _same(got, _softmax([z / other for z in logits])) else None


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
                          (0.1, 0, "nearly always the likeliest letter"),
                          (TINY, 0, "logits divided by it reach the thousands"),
                          (10.0, 0, "letters nearly at random"),
                          (1.0, 4.0, "BOS drawn first about two times in three: an empty name")):
        yield Case(f"{t:g}", lambda space, t=t, lift=lift: (t, lift), note)


agrees("sample_name", _temperatures, call=_sampled, draws=True,
       label="sample_name({text}) with block_size = 4",
       name="sample_name draws the names ours draws, twice each")
