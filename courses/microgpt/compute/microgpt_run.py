"""microgpt.py's own 1,000-step run on the bundled names, kept in runs/microgpt.json.

A run of microgpt.py takes many minutes, far more than a lesson's computations may, so
scripts/train_reference.py makes it once. Module 11's lessons sample from those trained weights:
`trained(params)` loads them into the solution's parameters. RUN_SHA256 is the kept file's
digest: this module is part of the computations' cache key, so a new run (a new digest here)
recomputes every number drawn from it.
"""
import hashlib
import json
from pathlib import Path

RUN = Path(__file__).resolve().parents[1] / "runs" / "microgpt.json"
RUN_SHA256 = "923fb78ef29f08c285d20a721e85413901730efc6bdf8989bed7624203931139"


def run():
    """The kept run: losses, weights, samples and the digests of what it was trained on."""
    raw = RUN.read_bytes()
    if hashlib.sha256(raw).hexdigest() != RUN_SHA256:
        raise ValueError(f"{RUN} is not the run RUN_SHA256 names: update RUN_SHA256 after "
                         "running scripts/train_reference.py again")
    kept = json.loads(raw)
    with open('input.txt', 'rb') as names:
        if hashlib.sha256(names.read()).hexdigest() != kept["names_sha256"]:
            raise ValueError(f"{RUN} was trained on other names than input.txt")
    return kept


def trained(params):
    """Puts the run's trained weights into `params` (microgpt's order); returns the run."""
    kept = run()
    for p, w in zip(params, kept["weights"], strict=True):
        p.data = w
    return kept


def draw(space, count, temperature, scale=lambda logit, t: logit / t, caches="fresh", bos=True):
    """`count` names drawn as microgpt's sample_name draws them, from the model in `space` (a
    solution's globals), with the slips its lessons show: `scale` is how the temperature meets a
    logit, `caches` is "fresh" (per name, microgpt), "kept" (one pair for every name) or
    "position" (made again at every position), `bos` False leaves BOS out of the draw.
    Returns the names and, per name, how many keys the cache held when it started."""
    n_layer, block_size, BOS = space['n_layer'], space['block_size'], space['BOS']
    gpt, softmax, chars, rng = space['gpt'], space['softmax'], space['chars'], space['random']
    shared = [[] for _ in range(n_layer)], [[] for _ in range(n_layer)]
    names, starts = [], []
    for _ in range(count):
        keys, values = shared if caches == "kept" else ([[] for _ in range(n_layer)],
                                                        [[] for _ in range(n_layer)])
        starts.append(len(keys[0]))
        token, name = BOS, []
        for pos in range(block_size):
            if caches == "position":
                keys, values = [[] for _ in range(n_layer)], [[] for _ in range(n_layer)]
            logits = gpt(token, pos, keys, values)
            probs = softmax([scale(logit, temperature) for logit in logits])
            ids = range(len(probs) if bos else BOS)  # BOS is the last id
            token = rng.choices(ids, weights=[probs[i].data for i in ids])[0]
            if token == BOS:
                break
            name.append(chars[token])
        names.append(''.join(name))
    return names, starts


def sampling_state(params):
    """The random state microgpt.py samples with: after its seed, its shuffle of input.txt and one
    gauss() per parameter (its training draws no numbers). A computation cannot just read its own
    state: each one runs in a forked process, and Python reseeds `random` in a forked child."""
    import random
    rng = random.Random(42)
    docs = [line.strip() for line in open('input.txt', encoding='utf-8') if line.strip()]
    rng.shuffle(docs)
    for _ in params:
        rng.gauss(0, 0.08)
    return rng.getstate()
