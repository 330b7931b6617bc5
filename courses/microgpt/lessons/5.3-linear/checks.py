"""Checks for lesson 5.3: linear(x, w) gives one number per row of w, that row times x, added up.

Outputs are compared with `close`, so any order of adding (sum, a loop, math.fsum) passes, and
lists and tuples both count as a list of numbers. Wrong answers are recognised by recomputing
the classic mistakes on the same example: columns instead of rows, products never added up,
pairs added instead of multiplied; the example is run a second time on fresh lists, and w is
looked at afterwards. The third check works two real layers out with plain loops, and the last
compares linear with ours on layers of other sizes and values, each called twice.
"""
from linebyline.runtime import Case, agrees, calling, check, close, fail, number, shown

FIX_LINE = "The line: `return [sum(wi * xi for wi, xi in zip(row, x)) for row in w]`."


def _letter(code):
    """The checks' example letter: 'e', or, for a names file without it, one in the middle."""
    chars = list(code.chars)
    return 'e' if 'e' in chars else chars[len(chars) // 2]


def _name(code):
    """The checks' example name: 'emma', or four letters the names file does have."""
    chars = list(code.chars)
    return "emma" if all(ch in chars for ch in "emma") else "".join(chars[:4])


W = [[1, 2, 3], [-1, 0, 2]]
X = [2, 1, -1]
CALL = "linear([2, 1, -1], [[1, 2, 3], [-1, 0, 2]])"


def _is_number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _list(values):
    return "[" + ", ".join(number(v) for v in values) + "]"


def _same(got, want):
    return (isinstance(got, (list, tuple)) and len(got) == len(want)
            and all(_is_number(g) and close(g, w, 1e-9, 1e-12) for g, w in zip(got, want)))


def _dot(row, x):
    total = 0.0
    for j in range(min(len(row), len(x))):
        total += row[j] * x[j]
    return total


def _by_hand(x, w):
    return [_dot(row, x) for row in w]


def _first_off(got, want):
    """Where a list of outputs first parts from the one wanted, in words."""
    if not isinstance(got, (list, tuple)) or len(got) != len(want):
        size = len(got) if isinstance(got, (list, tuple)) else None
        return (f"gave {shown(got)}" if size is None else
                f"gave {size} numbers where there should be {len(want)}")
    i = next(i for i, (g, w) in enumerate(zip(got, want))
             if not (_is_number(g) and close(g, w, 1e-9, 1e-12)))
    return f"gave output [{i}] = {shown(got[i])} where it should be {number(want[i])}"


def _again(code, first, want):
    """Call the example a second time, on fresh lists: the same answer, and w left as it was."""
    w = [list(row) for row in W]
    x = list(X)
    with calling(f"{CALL}, a second time"):
        again = code.linear(x, w)
    if w != W or x != X:
        fail(f"`{CALL}` returned the right numbers, {_list(want)}, but it changed the matrix w "
             f"it was given: afterwards w was {shown(w)}" + ("" if x == X else
                                                           f" and x was {shown(x)}")
             + ". linear only reads w and x: the model's weights live in them, and every later "
             "call (the next letter, the next layer) needs them as they were. Build a new list "
             "of outputs and leave the rows alone.", fix=FIX_LINE)
    if not _same(again, want):
        fail(f"Called once, `{CALL}` returned the right numbers, {_list(first)}. Called a second "
             f"time on fresh lists, it returned {shown(again)}. Something of your linear lives on "
             "from one call to the next, so every call after the first gives a wrong answer. A "
             "new list of outputs has to be made inside linear, on every call.", fix=FIX_LINE)


@check("a 2 × 3 example, by hand")
def _(code):
    w = [list(row) for row in W]
    with calling(CALL):
        out = code.linear(list(X), w)
    want = _by_hand(X, W)  # [1, -4]
    if _same(out, want):
        _again(code, list(out), want)
        return
    if out is not None and not isinstance(out, (list, tuple)) and hasattr(out, "__next__"):
        fail(f"`{CALL}` returned a generator, not a list. Round brackets around a comprehension "
             "make a generator, which can be read only once; square brackets make a list.")
    if _is_number(out):
        fail(f"`{CALL}` returned the single number {number(out)}, but w has 2 rows, so linear "
             f"should return 2 numbers, {_list(want)}: one for each row.")
    if out is None:
        fail(f"`{CALL}` returned None, but should return the list {_list(want)}: one number "
             "for each row of w. A function hands back its result only with `return`.")
    if not isinstance(out, (list, tuple)):
        fail(f"`{CALL}` returned {shown(out)}, but should return the list {_list(want)}: one "
             "number for each row of w.")
    if out and all(isinstance(item, (list, tuple)) for item in out):
        fail(f"`{CALL}` returned {shown(out)}: a list of products for each row, never added "
             f"up. Each row should give one number, the sum of its products: {_list(want)}.",
             fix="Add each row's products up with sum(...): "
             "`[sum(wi * xi for wi, xi in zip(row, x)) for row in w]`.")
    columns = [_dot(column, X) for column in zip(*W)]
    if _same(out, columns):
        fail(f"`{CALL}` returned {_list(out)}, 3 numbers: one for each column of w. linear "
             f"works row by row, and w has 2 rows, so it should return {_list(want)}: row 0 "
             f"gives 1·2 + 2·1 + 3·(−1) = 1 and row 1 gives (−1)·2 + 0·1 + 2·(−1) = −4. A "
             "column holds one input's weights for every output; a row holds one output's "
             "weights for every input.", fix="Loop over the rows of w: `... for row in w]`.")
    added = [sum(a + b for a, b in zip(row, X)) for row in W]
    if _same(out, added):
        fail(f"`{CALL}` returned {_list(out)}, but should return {_list(want)}: each pair was "
             "added (row[i] + x[i]) instead of multiplied. A row's number is the sum of the "
             "products row[i] * x[i].", fix="Multiply each pair: `sum(wi * xi for wi, xi in "
             "zip(row, x))`.")
    if isinstance(out, (list, tuple)) and out and all(_is_number(v) and v == 0 for v in out):
        fail(f"`{CALL}` returned {_list(out)}: still the placeholder of zeros. Replace it with "
             "one number per row: the row times x, pair by pair, added up.")
    if _same(out, [sum(row) * sum(X) for row in W]):
        fail(f"`{CALL}` returned {_list(out)}, but should return {_list(want)}: you added each "
             "row up and multiplied by the total of x. Multiply pair by pair first "
             "(row[0] * x[0], row[1] * x[1], ...), then add those products.")
    shown_out = _list(out) if all(_is_number(v) for v in out) else shown(out)
    fail(f"`{CALL}` returned {shown_out}, but should return {_list(want)}: for each row, "
         "multiply it with x pair by pair and add the products up.", fix=FIX_LINE)


@check("one output per row, at the real sizes")
def _(code):
    weights = code.weights
    letter = _letter(code)
    token = code.chars.index(letter)
    x = list(weights['wte'][token])
    for name, vector, what in (("mlp_fc1", x, f"x, the 16 numbers of {letter!r}"),
                               ("mlp_fc2", [0.5] * len(weights['mlp_fc2'][0]), "64 numbers")):
        w = weights[name]
        call = f"linear({what}, weights['{name}'])"
        with calling(call):
            out = code.linear(vector, w)
        if not isinstance(out, (list, tuple)) or len(out) != len(w):
            size = len(out) if isinstance(out, (list, tuple)) else shown(out)
            fail(f"`{call}` should give {len(w)} numbers, one for each of the {len(w)} rows of "
                 f"weights['{name}'] ({len(w)} × {len(w[0])}), but gave {size}.")


@check("every output is a dot product")
def _(code):
    weights = code.weights
    name = _name(code)
    tokens = [code.BOS] + [code.chars.index(ch) for ch in name]
    for token in tokens:
        x = list(weights['wte'][token])
        want_pre = _by_hand(x, weights['mlp_fc1'])
        with calling(f"linear(weights['wte'][{token}], weights['mlp_fc1'])"):
            pre = code.linear(x, weights['mlp_fc1'])
        if not _same(pre, want_pre):
            fail(f"For token {token}, `linear(weights['wte'][{token}], weights['mlp_fc1'])` "
                 f"{_first_off(pre, want_pre)}, the dot product of row i of weights['mlp_fc1'] "
                 "with x, worked out with plain loops.")
        with calling(f"mlp({token})"):
            _, h, logits = code.mlp(token)
        want_logits = _by_hand([max(0.0, a) for a in want_pre], weights['mlp_fc2'])
        if not _same(logits, want_logits):
            h_right = [max(0.0, a) for a in want_pre]
            with calling(f"linear(h, weights['mlp_fc2']) for token {token}"):
                direct = code.linear(list(h_right), weights['mlp_fc2'])
            if not _same(direct, want_logits):
                fail(f"For token {token}, `linear(h, weights['mlp_fc2'])`, on rows of "
                     f"{len(h_right)} numbers, {_first_off(direct, want_logits)}, the dot "
                     "product of that row with h worked out with plain loops. On the rows of "
                     f"{len(x)} numbers of weights['mlp_fc1'] it was right: each output must use "
                     "every pair of its row, however long the row is.")
            fail(f"For token {token}, the logits of `mlp({token})` "
                 f"{_first_off(logits, want_logits)[5:]}, though your linear gives the right "
                 "numbers when called on its own. The lines of mlp() were given: were they "
                 "changed?")
    multiplications = len(weights['mlp_fc1']) * len(weights['mlp_fc1'][0]) + \
        len(weights['mlp_fc2']) * len(weights['mlp_fc2'][0])
    return (f"All match for BOS and every letter of {name!r}: {multiplications} multiplications "
            "per letter, row by row.")


def _layers(rng):
    """x and w of the sizes linear meets, then of sizes and values the model never has."""
    sizes = [(3, 2, 1.0, ""), (16, 64, 0.1, "mlp_fc1's shape"), (64, 27, 0.1, "mlp_fc2's shape"),
             (1, 1, 1.0, ""), (100, 40, 1.0, "more rows and columns than the model has"),
             (5, 3, 1e6, "numbers in the millions")]
    for cols, rows, scale, note in sizes:
        x = [round(rng.uniform(-1, 1) * scale, 3) for _ in range(cols)]
        w = [[round(rng.gauss(0, 1) * scale, 3) for _ in range(cols)] for _ in range(rows)]
        text = (f"{shown(x)}, {shown(w)}" if cols * rows <= 6 else
                f"x of {cols} numbers, w of {rows} rows × {cols}")
        yield Case(text, lambda space, x=x, w=w: (list(x), [list(row) for row in w]), note)


agrees("linear", _layers)
