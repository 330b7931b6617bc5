"""Checks for lesson 12.1: four lines of microgpt.py written again from memory, one per part of
the file (autograd, attention, Adam, sampling), each checked by what it does.

backward() is run on the Watch example of lesson 7.5 and its gradients compared with what three
rules give on the learner's own graph (shares added, shares replaced, local grads alone).
Attention's scores are watched through a stand-in softmax and compared with ours, position by
position: their ratio tells an unscaled score from one scaled by √n_embd. Adam's first move of
each weight is compared with the moves that SGD, Adam without bias correction and Adam without
the square root would make, all from the learner's own m and v. Sampling is compared with ours
on the learner's weights under the same seeds. Then sample_name() is compared with ours on a
new seed, twice. Names are cut at 3 letters (block_size replaced) so the checks take seconds.
"""
import math

from linebyline.runtime import (
    Case,
    agrees,
    calling,
    check,
    close,
    cut_off,
    fail,
    matrix_leaves,
    number,
    plural,
    reference,
    replacing,
)

EXAMPLE = "a = Value(2), b = Value(-3), c = Value(10), e = a * b, d = e + c, L = d * e"


def _example(space):
    a, b, c = space.Value(2), space.Value(-3), space.Value(10)
    e = a * b
    d = e + c
    L = d * e
    return {"L": L, "d": d, "e": e, "c": c, "a": a, "b": b}


def _walk(out, rule):
    """Gradients under ``rule(old, local, upstream)``, walked by us over the learner's graph."""
    order, seen = [], set()

    def visit(node):
        if id(node) not in seen:
            seen.add(id(node))
            for child in node._children:
                visit(child)
            order.append(node)

    visit(out)
    grads = {id(node): 0 for node in order}
    grads[id(out)] = 1
    for node in reversed(order):
        for child, local in zip(node._children, node._local_grads):
            grads[id(child)] = rule(grads[id(child)], local, grads[id(node)])
    return grads


RULES = {
    "replaced": (lambda old, local, up: local * up,
                 "each child's grad is only the share of the last node that used it: e is used "
                 "twice (by d and by L), and the second share replaced the first instead of "
                 "adding to it."),
    "local": (lambda old, local, up: old + local,
              "each child got its local grad alone, without multiplying by the grad of the "
              "node above: the chain rule multiplies the two (lesson 4.4)."),
}


@check("backward() adds the share of every path")
def _(code):
    nodes = _example(code)
    with calling("L.backward()"):
        nodes["L"].backward()
    got = {name: node.grad for name, node in nodes.items()}
    want = {name: grad for name, grad in zip("Ldecab", (1, -6, -2, -6, 6, -4))}
    if all(close(got[name], want[name]) for name in want):
        return "The example of lesson 7.5: e.grad = -2, a.grad = 6, b.grad = -4."
    shown = "; ".join(f"{name}.grad is {number(got[name])} but should be {number(want[name])}"
                      for name in "eab" if not close(got[name], want[name]))
    start = f"With {EXAMPLE}, after L.backward(): {shown or 'the gradients differ'}. "
    if all(got[name] == 0 for name in "decab"):
        fail(start + "No gradient reached any child: the loop over reversed(order) must pass "
             "each node's grad down to its children, times their local grads.",
             fix="child.grad += local_grad * node.grad")
    fresh = _example(code)
    for rule, why in RULES.values():
        grads = _walk(fresh["L"], rule)
        if all(close(got[name], grads[id(fresh[name])]) for name in "decab"):
            fail(start + "Yours are exactly what you get when " + why,
                 fix="child.grad += local_grad * node.grad")
    fail(start + "Each child's grad must add up local_grad × node.grad over every node that "
         "uses it.", fix="child.grad += local_grad * node.grad")


def _scores(space, tokens, raw=None):
    """Every list of scores gpt() hands to softmax while it reads ``tokens``, with a fresh cache
    (and, in ``raw``, the Values themselves)."""
    seen = []
    plain = space.softmax

    def spy(logits):
        seen.append([v.data for v in logits])
        if raw is not None:
            raw.extend(logits)
        return plain(logits)

    with replacing(space, "softmax", spy):
        keys, values = [[] for _ in range(space.n_layer)], [[] for _ in range(space.n_layer)]
        for pos, token in enumerate(tokens):
            space.gpt(token, pos, keys, values)
    return seen


SCORES_FIX = ("scores = [sum(qi * ki for qi, ki in zip(q[lo:hi], past_k[lo:hi])) / "
              "head_dim ** 0.5 for past_k in keys[layer]]")
SCALE_FIX = "/ head_dim ** 0.5 at the end of each score"


class _Root:
    """One node whose children are the given Values: the graph behind all of them is walked once
    (cut_off walks a list's graphs one by one, and theirs overlap)."""

    def __init__(self, values):
        self._children = tuple(values)


def _compared(code, tokens, sizes="", raw=None):
    """Fail where the learner's scores part from ours, reading ``tokens`` with the sizes the
    file has now (``sizes`` says which, when they are not microgpt's)."""
    ours = reference(code)
    n_head, head_dim, n_embd = code.n_head, code.head_dim, code.n_embd
    with calling(f"gpt() on BOS, 'e', 'm', position by position{sizes}"):
        got = _scores(code, tokens, raw)
    with replacing(ours, "weights", code.weights), replacing(ours, "n_head", n_head), \
            replacing(ours, "head_dim", head_dim):
        want = _scores(ours, tokens)
    if len(got) != len(want):
        fail(f"Reading BOS, 'e', 'm' one position at a time{sizes}, your gpt() handed softmax "
             f"{plural(len(got), 'list')} of scores, but microgpt hands it {len(want)}: one per "
             f"head ({n_head}) per position.")
    for index, (mine, right) in enumerate(zip(got, want)):
        pos, head = divmod(index, n_head)
        if len(mine) != len(right):
            fail(f"At position {pos}{sizes}, head {head} scored {plural(len(mine), 'key')}, but "
                 f"there {'is' if len(right) == 1 else 'are'} {plural(len(right), 'key')} in the "
                 "cache: one score per position so far.")
        if pos == 0 or all(close(a, b, 1e-9, 1e-12) for a, b in zip(mine, right)):
            continue
        where = (f"{sizes[2:].capitalize() + ', at' if sizes else 'At'} position {pos} (reading "
                 f"{'BOS e m'.split()[pos]!r}), head {head}'s scores are "
                 f"[{', '.join(number(round(a, 4)) for a in mine)}] but should be "
                 f"[{', '.join(number(round(b, 4)) for b in right)}]. ")
        _why(where, mine, right, n_head, head_dim, n_embd, sizes)
    return got


def _why(where, mine, right, n_head, head_dim, n_embd, sizes):
    """Fail with what the learner's scores are, from their ratio to the right ones."""
    ratios = [a / b for a, b in zip(mine, right) if abs(b) > 1e-9]
    same = ratios and all(close(r, ratios[0], 1e-6) for r in ratios)
    if all(a == 0 for a in mine):
        fail(where + "Every score is 0, so attention spreads evenly over the positions "
             "whatever the query is: each score is the dot product of the head's slice of q "
             "with the same slice of a key.", fix=SCORES_FIX)
    if same and close(ratios[0], math.sqrt(head_dim), 1e-6):
        fail(where + f"Yours are exactly {number(math.sqrt(head_dim))} times too big: "
             f"the dot products are not divided by √head_dim. A head's dot product adds "
             f"head_dim = {head_dim} products, so its spread grows like √head_dim; "
             f"dividing keeps softmax from saturating.", fix=SCALE_FIX)
    small = math.sqrt(head_dim / n_embd)
    if same and close(ratios[0], small, 1e-6):
        fail(where + f"Yours are {number(small)} times the right ones: divided by "
             f"√n_embd = {number(math.sqrt(n_embd))}, train3's scale (lesson 8.4), "
             f"where a head's dot product runs over head_dim = {head_dim} numbers "
             f"only, so microgpt divides by √head_dim = {number(math.sqrt(head_dim))}.",
             fix=SCALE_FIX)
    if same and sizes:
        divisor = math.sqrt(head_dim) / ratios[0]
        fail(where + f"Yours are the right dot products divided by {number(round(divisor, 6))}, "
             f"where √head_dim is {number(round(math.sqrt(head_dim), 6))} here: with microgpt's "
             "4 heads of 4 your scores are right, so the scale does not follow head_dim. It must "
             "be worked out from head_dim, whatever the number of heads.", fix=SCALE_FIX)
    fail(where + "Each score is the dot product of q[lo:hi] with the same slice of a cached "
         "key, divided by √head_dim.", fix=SCORES_FIX)


@check("attention's scores are scaled by √head_dim")
def _(code):
    tokens = [code.BOS] + [code.chars.index(ch) for ch in "em"]
    raw = []
    got = _compared(code, tokens, raw=raw)
    weights = code.weights
    leaves = {**matrix_leaves("attn_wq", weights["layer0.attn_wq"]),
              **matrix_leaves("attn_wk", weights["layer0.attn_wk"])}
    cut = cut_off(_Root(raw), leaves)
    if cut:
        named = ", ".join(cut[:3]) + (f" and {len(cut) - 3} more" if len(cut) > 3 else "")
        fail(f"Reading BOS, 'e', 'm', every head's scores have the right numbers, but {len(cut)} "
             f"of the {len(leaves)} numbers of attn_wq and attn_wk ({named}) are not in their "
             "graph: no gradient can reach them from the loss, so training would never change "
             "them. Your scores are new Values made from plain numbers (`.data`), not computed "
             "from the Values of q and of each key, and a new Value made from a number forgets "
             "where the number came from.", fix=SCORES_FIX)
    with replacing(code, "n_head", 2), replacing(code, "head_dim", code.n_embd // 2):
        _compared(code, tokens, f", with n_head = 2 (so head_dim = {code.n_embd // 2})")
    return (f"{len(got)} lists of scores (BOS, 'e', 'm'; {code.n_head} heads each), all as "
            "microgpt's, and as microgpt's with 2 heads.")


ADAM_FIX = "p.data -= lr * m_hat / (v_hat ** 0.5 + eps)"


def _moves(code, step):
    """Each weight's move in train_step(step), and the step's loss."""
    before = [p.data for p in code.params]
    with calling(f"train_step({step})"):
        loss = code.train_step(step)
    return [p.data - b for p, b in zip(code.params, before)], loss


@check("Adam moves every weight as microgpt does")
def _(code):
    got, loss = _moves(code, 0)
    lr = code.learning_rate
    b1, b2, eps = code.beta1, code.beta2, code.eps
    for i, mine in enumerate(got):
        m, v = code.m[i], code.v[i]  # the step's own running means, made by the given lines
        m_hat, v_hat = m / (1 - b1), v / (1 - b2)
        right = -lr * m_hat / (v_hat ** 0.5 + eps)
        if close(mine, right, 1e-7, 1e-12):
            continue
        where = (f"In train_step(0), weight {i} moved by {number(mine)}, but Adam moves it by "
                 f"{number(right)} (its gradient was {number(m_hat)}). ")
        candidates = [
            (-lr * m_hat, "Yours is the plain SGD move, learning rate times gradient: Adam "
                          "divides the mean gradient by the root of its mean square, so every "
                          "weight moves about lr at first, whatever the size of its gradient."),
            (-lr * m / (v ** 0.5 + eps), "Yours uses m and v as they are: at step 1 they are "
                                         "only (1 - beta1) and (1 - beta2) of the gradient and "
                                         "its square, which is what m_hat and v_hat correct."),
            (-lr * m_hat / (v_hat + eps), "Yours divides by v_hat itself, a squared gradient, "
                                          "instead of its square root."),
            (-lr * m_hat / (v_hat + eps) ** 0.5, "Yours adds eps under the square root: eps is "
                                                 "added to √v_hat, after the root."),
        ]
        for move, why in candidates:
            if close(mine, move, 1e-9, 1e-15):
                fail(where + why, fix=ADAM_FIX)
        fail(where + "Adam's move is lr times m_hat over (√v_hat + eps).", fix=ADAM_FIX)
    return (f"Every one of the {len(got)} weights moved as Adam moves it, after a loss of "
            f"{loss:.4f} on {code.docs[0]!r}.")


SAMPLE_FIX = "token = random.choices(range(vocab_size), weights=[p.data for p in probs])[0]"


SHORT = 3  # names of at most 3 letters: sampling is checked on its first draws, in seconds


def _names(space, seeds):
    names = []
    with replacing(space, "block_size", SHORT):
        for seed in seeds:
            space.random.seed(seed)
            names.append(space.sample_name())
    return names


def _greedy(space):
    """The name made of the most likely token at each position, cut at SHORT letters."""
    keys, values = [[] for _ in range(space.n_layer)], [[] for _ in range(space.n_layer)]
    token, name = space.BOS, []
    for pos in range(SHORT):
        logits = space.gpt(token, pos, keys, values)
        token = max(range(space.vocab_size), key=lambda t: logits[t].data)
        if token == space.BOS:
            break
        name.append(space.chars[token])
    return "".join(name)


def _listed(names):
    return ", ".join(repr(name) for name in names)


@check("sampling draws each token with its probability")
def _(code):
    ours = reference(code)
    seeds = range(4)
    try:
        with calling("sample_name()"):
            got = _names(code, seeds)
    except TypeError as error:
        if "list indices" in str(error):
            fail(f"sample_name() raised TypeError: {error}, where it looks up the letter of the "
                 "token drawn. random.choices returns a list (of one token, here): the token "
                 "is the number inside it.", fix=SAMPLE_FIX)
        if "Value" not in str(error):
            raise
        fail(f"sample_name() raised TypeError: {error}. random.choices adds up the weights and "
             "compares the total with 0, which a Value cannot do: give it each probability's "
             "plain number.", fix=SAMPLE_FIX)
    with replacing(ours, "weights", code.weights):
        want = _names(ours, seeds)
    if got == want:
        return f"With seeds 0 to 3 (names cut at {SHORT} letters): {_listed(got)}, as microgpt's."
    told = (f"With seeds 0 to 3 and names cut at {SHORT} letters, sample_name() gave "
            f"{_listed(got)}, but microgpt's gives {_listed(want)} from the same weights. ")
    if all(name == "" for name in got):
        fail(told + "Every name is empty: the first token drawn is BOS every time.",
             fix=SAMPLE_FIX)
    if len(set(got)) == 1:
        with replacing(ours, "weights", code.weights):
            greedy = _greedy(ours)
        which = (f"exactly the name made of the most likely token at every position, "
                 f"{greedy!r}" if got[0] == greedy else "one name")
        fail(told + f"Yours is {which}, whatever the seed: no random draw decides the tokens, "
             "so the model can only ever say one name.", fix=SAMPLE_FIX)
    fail(told + "Each token must be drawn with the probability the model gives it, from the "
         "same random numbers.", fix=SAMPLE_FIX)


def _short_name(space, args):
    with replacing(space, "block_size", SHORT):
        return space.sample_name()


def _seeds(rng):
    for seed in (7,):
        yield Case(f"random.seed({seed})", lambda space: ())


agrees("sample_name()", _seeds, call=_short_name, share=("weights",), draws=True,
       name="sample_name() on a new seed, twice")
