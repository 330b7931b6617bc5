"""Checks for lesson 6.6: the temperature, sampling with it, and the whole file training.

sample_name draws each letter with random.choices; the checks put a stand-in around it for a
moment, which draws exactly as the real one does and notes the weights it was given. Those must
be the softmax of the logits divided by the temperature, worked out here for the token just
drawn. The checks never run 1000 steps: the fourth trains three steps and samples once; the
last compares sample_name with ours, after the same seed, at temperatures from 0.00001 to 10.
"""
import contextlib
import io
import math

from linebyline.runtime import Case, agrees, calling, check, close, fail, number, replacing, shown

FIX_T = "`temperature = 0.5`, with a comment saying what a temperature below 1 does."
FIX_PROBS = "The line: `probs = softmax([logit / temperature for logit in mlp(token)[2]])`."
TINY = 1e-5  # logits of a few hundredths divided by it reach the thousands


def _softmax(logits):
    top = max(logits)
    exps = [math.exp(v - top) for v in logits]
    return [e / sum(exps) for e in exps]


def _draws(code, temperature, seed):
    """Call sample_name(temperature) and return the name and every (token, weights) it sampled."""
    theirs = code.random  # the random module the learner's code draws from
    real = theirs.choices
    seen = []

    def stand_in(population, weights=None, *rest, **options):
        result = real(population, weights, *rest, **options)
        seen.append((list(weights) if weights is not None else None, result[0]))
        return result

    theirs.seed(seed)
    call = f"sample_name({temperature})"
    with replacing(theirs, "choices", stand_in), calling(call):
        name = code.sample_name(temperature)
    return call, name, seen


@check("the temperature is 0.5")
def _(code):
    t = code.temperature
    if not isinstance(t, bool) and isinstance(t, (int, float)) and close(t, 0.5):
        return
    seen = f"temperature is {shown(t)}, but train1 samples at 0.5."
    if isinstance(t, (int, float)) and not isinstance(t, bool) and close(t, 1.0):
        fail(f"{seen} At 1, dividing by the temperature changes nothing: names come straight "
             "from the model's probabilities, and with a model this small many are wild.",
             fix=FIX_T)
    if isinstance(t, (int, float)) and not isinstance(t, bool) and t > 1:
        fail(f"{seen} Above 1 the probabilities get flatter and the names wilder; train1 wants "
             "them a little safer: below 1.", fix=FIX_T)
    fail(seen, fix=FIX_T)


def _tiny(code, seed):
    """sample_name at a tiny temperature; an overflow there is measured and explained."""
    try:
        return _draws(code, TINY, seed)
    except OverflowError as error:
        top = max(abs(z) for z in code.mlp(code.BOS)[2]) / TINY
        fail(f"`sample_name({TINY:g})` raised OverflowError: {error}. At so small a temperature "
             f"the logits divided by it are huge (after BOS the biggest is {number(top)} here), "
             "and exp() of a number above 709.78 is more than a float can hold. softmax "
             "subtracts the biggest logit before exp(), so it never overflows: the divided "
             "logits must go through softmax.", fix=FIX_PROBS)


def _fixed_divisor(code, got, logits, temperature):
    """0.5 (train1's temperature) or the file's `temperature`, when the draw's weights are the
    logits divided by it although sample_name was called with another temperature, else None.
    Only asked after 0.5 itself passed, so logits times 2 (the same as divided by 0.5) here is
    a divisor written by hand, not a multiplication."""
    for fixed in (0.5, code.temperature):
        if (isinstance(fixed, (int, float)) and not isinstance(fixed, bool) and fixed > 0
                and not close(fixed, temperature)
                and all(close(g, w, rel=1e-9, abs_tol=1e-12)
                        for g, w in zip(got, _softmax([z / fixed for z in logits])))):
            return fixed
    return None


@check("sampling divides the logits by the temperature")
def _(code):
    for temperature, seed in ((0.5, 1), (2.0, 2), (TINY, 3)):
        if temperature == TINY:
            call, name, seen = _tiny(code, seed)
        else:
            call, name, seen = _draws(code, temperature, seed)
        if not seen:
            fail(f"`{call}` never called random.choices, so its probabilities could not be "
                 "checked. Draw each token with random.choices(range(vocab_size), "
                 "weights=probs)[0].")
        token = code.BOS
        for weights, drawn in seen:
            if weights is None or len(weights) != code.vocab_size:
                fail(f"`{call}` called random.choices with weights {shown(weights)}: it needs "
                     f"the {code.vocab_size} probabilities of the next token, weights=probs.")
            logits = list(code.mlp(token)[2])
            want = _softmax([z / temperature for z in logits])
            total = sum(weights)
            got = [w / total for w in weights] if total > 0 else weights
            if all(close(g, w, rel=1e-9, abs_tol=1e-12) for g, w in zip(got, want)):
                token = drawn
                continue
            where = (f"`{call}`: after {'BOS' if token == code.BOS else repr(code.chars[token])}, "
                     f"the next token should be drawn from softmax(logits / {number(temperature)})"
                     f", where the likeliest token has p = {number(max(want))}")
            top = got[want.index(max(want))]
            fixed = _fixed_divisor(code, got, logits, temperature)
            if fixed is not None:
                fail(f"{where}; yours gives it {number(top)}: the logits were divided by "
                     f"{number(fixed)} whatever temperature sample_name was given. At "
                     f"{number(fixed)} that is right, but every other temperature must change "
                     "the distribution: the divisor is sample_name's own argument.",
                     fix=FIX_PROBS)
            if all(close(g, w, rel=1e-9, abs_tol=1e-12)
                   for g, w in zip(got, _softmax([z * temperature for z in logits]))):
                fail(f"{where}; yours gives it {number(top)}: the logits were multiplied by the "
                     "temperature instead of divided. Times 0.5 is the same as dividing by 2, so "
                     "it flattens the distribution where 0.5 should sharpen it.",
                     fix="Divide, not multiply. " + FIX_PROBS)
            if all(close(g, w, rel=1e-9, abs_tol=1e-12) for g, w in zip(got, _softmax(logits))):
                if not close(total, 1.0) and close(total, 1 / temperature):
                    fail(f"{where}; yours gives it {number(top)}: the probabilities were divided "
                         "by the temperature after the softmax. random.choices only cares about "
                         "the weights relative to each other, so that changes nothing: the "
                         "logits must be divided, before the softmax.", fix=FIX_PROBS)
                fail(f"{where}; yours gives it {number(top)}, as if the temperature were 1: the "
                     "temperature is never used. Each logit must be divided by it before the "
                     "softmax.", fix=FIX_PROBS)
            fail(f"{where}; yours gives it {number(top)}: the weights of each draw are the "
                 "softmax of the logits of the token drawn last, each divided by the temperature.",
                 fix=FIX_PROBS)
        if not isinstance(name, str):
            fail(f"`{call}` returned {shown(name)}, but it must return the name, a string.")


@check("names stop at BOS or at block_size letters")
def _(code):
    letters = set(code.chars)
    for seed in range(5):
        call, name, seen = _draws(code, 0.5, 100 + seed)
        if not isinstance(name, str) or not set(name) <= letters:
            fail(f"`{call}` returned {shown(name)}, but a name is a string of the data's letters.")
        stopped = seen[-1][1] == code.BOS if seen else False
        if len(name) > code.block_size or (not stopped and len(name) < code.block_size):
            fail(f"`{call}` returned {name!r} ({len(name)} letters): sampling must stop when BOS "
                 f"is drawn, or after block_size ({code.block_size}) letters.")


@check("the whole file trains and samples")
def _(code):
    start = {name: [row[:] for row in mat] for name, mat in code.weights.items()}
    names = [code.docs[step % len(code.docs)] for step in range(1, 4)]
    token_lists = [[code.BOS] + [code.chars.index(ch) for ch in doc] + [code.BOS] for doc in names]

    def mean_loss():
        total = 0.0
        for tokens in token_lists:
            n = min(code.block_size, len(tokens) - 1)
            total += sum(-math.log(_softmax(list(code.mlp(tokens[pos])[2]))[tokens[pos + 1]])
                         for pos in range(n)) / n
        return total / len(token_lists)

    stand_in = replacing(code, "gradient_check", lambda tokens, n: 0.0)  # runs at step 0 only
    stand_in.__enter__()
    try:
        before = mean_loss()
        with calling("train_step(step, 4, 1.0) for step 1, 2 and 3"), \
                contextlib.redirect_stdout(io.StringIO()):
            for step in range(1, 4):
                code.train_step(step, 4, 1.0)
        after = mean_loss()
        code.random.seed(7)
        with calling("sample_name(temperature) after those steps"):
            name = code.sample_name(code.temperature)
    finally:
        stand_in.__exit__()
        for key, mat in code.weights.items():
            for row, saved in zip(mat, start[key]):
                row[:] = saved
        for mat in code.grads.values():
            for row in mat:
                row[:] = [0.0] * len(row)
    listed = ", ".join(repr(doc) for doc in names)
    if not after < before:
        fail(f"Three steps of train_step on {listed} took their mean loss from {number(before)} "
             f"to {number(after)}: training must lower it. The training lines come from 6.5: "
             "were they changed?")
    if not isinstance(name, str):
        fail(f"After training, sample_name returned {shown(name)} instead of a name.")
    return (f"Three steps on {listed} took their mean loss from {before:.4f} to {after:.4f}, and "
            f"the model then sampled {name!r}.")


def _temperatures(rng):
    """train1's 0.5 and the temperatures around it, then far beyond: near 0, and 10."""
    for t, note in ((0.5, ""), (1.0, ""), (2.0, ""), (0.05, "a temperature of 0.05"),
                    (TINY, "logits divided by it reach the thousands"),
                    (10.0, "a temperature of 10, names nearly at random")):
        yield Case(f"{t:g}", lambda space, t=t: (t,), note)


agrees("sample_name", _temperatures, draws=True)
