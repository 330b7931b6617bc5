"""Train a course script and watch it closely: every step's exact loss and a fingerprint of the
weights, a pause or a stop between steps, names sampled mid-run, and how a run compares with the
reference run.

The same file runs in CPython (`linebyline train --mine`) and in the browser's training worker
(Pyodide), so both give the same numbers and say the same words. The script itself runs as it
is, except for its `num_steps = N` and `temperature = ...` lines, which the learner may set. Its
`print` is the only thing watched: each `step k / n | loss x` line it prints is a step.
Standard library only.
"""
from __future__ import annotations

import ast
import builtins
import json
import math
import random
import re
import sys
import traceback
from collections.abc import Callable
from dataclasses import dataclass

STEP_LINE = re.compile(r"^step\s+(\d+) / (\d+) \| loss ")
SAMPLE_LINE = re.compile(r"^sample\s+\d+: (.*)$")
NUM_STEPS = re.compile(r"^num_steps = \d+$", re.MULTILINE)
TRAINING_LOOP = re.compile(r"^(for \w+ in range\()num_steps(\):)$", re.MULTILINE)
TEMPERATURE = re.compile(r"^(temperature = )([^#\n]*?)(\s*(?:#.*)?)$", re.MULTILINE)
SAMPLES = re.compile(r"^for sample in range\(\d+\):$", re.MULTILINE)
WEIGHT_NAMES = ("params", "weights", "probs")  # what the scripts keep their learned numbers in
ROUNDING = 1e-9  # a first difference smaller than this (relative) is rounding, not a bug


class Stop(BaseException):  # noqa: N818 -- a signal, not an error; BaseException: never caught
    """The learner pressed Stop: the run ends at this step."""


class SetupError(ValueError):
    """The script cannot be set up as asked (no single num_steps line, say)."""


def configure(source: str, steps: int | None = None, temperature: float | None = None,
              samples: int | None = None, first: int | None = None) -> str:
    """The script with its `num_steps = N`, `temperature = ...` and `for sample in range(N):`
    lines set; with `first`, its training loop (`for step in range(num_steps):`) stops after
    that many steps while num_steps keeps its value, so the learning rate decays as in the
    whole run and the losses printed are the whole run's first ones."""
    if steps is not None:
        if len(NUM_STEPS.findall(source)) != 1:
            raise SetupError("the script has no single `num_steps = N` line to change")
        source = NUM_STEPS.sub(f"num_steps = {int(steps)}", source)
    if first is not None:
        if len(TRAINING_LOOP.findall(source)) != 1:
            raise SetupError("the script has no single `for step in range(num_steps):` loop "
                             "to stop early")
        source = TRAINING_LOOP.sub(lambda m: f"{m[1]}min({int(first)}, num_steps){m[2]}", source)
    if temperature is not None:
        if len(TEMPERATURE.findall(source)) != 1:
            raise SetupError("the script has no single `temperature = ...` line to change "
                             "(it samples without one)")
        source = TEMPERATURE.sub(lambda m: f"{m[1]}{float(temperature)!r}{m[3]}", source)
    if samples is not None:
        if len(SAMPLES.findall(source)) != 1:
            raise SetupError("the script has no single `for sample in range(N):` line to change")
        source = SAMPLES.sub(f"for sample in range({int(samples)}):", source)
    return source


def sampling_code(source: str, filename: str):
    """The script's top-level statements after its training loop (`for ... in range(num_steps)`),
    compiled: the sampling it does once training is over. None if there is no such loop."""
    tree = ast.parse(source, filename)
    for index, node in enumerate(tree.body):
        if isinstance(node, ast.For) and "num_steps" in ast.unparse(node.iter):
            rest = ast.Module(body=tree.body[index + 1:], type_ignores=[])
            return compile(rest, filename, "exec")
    return None


def weights(namespace: dict) -> list[float]:
    """Every learned number of the running script, in a fixed order (floats; Values' .data)."""
    for name in WEIGHT_NAMES:
        if name in namespace:
            found: list[float] = []
            _flatten(namespace[name], found)
            if found:
                return found
    return []


def _flatten(value: object, out: list[float]) -> None:
    if isinstance(value, dict):
        for item in value.values():
            _flatten(item, out)
    elif isinstance(value, list | tuple):
        for item in value:
            _flatten(item, out)
    else:
        number = getattr(value, "data", value)
        if isinstance(number, int | float) and not isinstance(number, bool):
            out.append(float(number))


def fingerprint(numbers: list[float]) -> str:
    """A short text that changes if any of the numbers changes in its last digit."""
    return format(hash(tuple(numbers)) & 0xFFFFFFFFFFFFFFFF, "x")


class Run:
    """One training run of a script, driven by callbacks.

    on_step(step, total, loss, fingerprint) is called at every printed step line, after the line
    is printed; it returns "" to go on, "stop" to end the run, or "sample T" to sample names now
    at temperature T (it is then called again for the same step). on_samples(names, error)
    receives names sampled mid-run."""

    def __init__(self, source: str, filename: str,
                 on_step: Callable[[int, int, float | None, str], str],
                 on_samples: Callable[[list[str], str], None] | None = None) -> None:
        self.source, self.filename = source, filename
        self.on_step, self.on_samples = on_step, on_samples
        self.namespace: dict = {"__name__": "__main__", "__file__": filename,
                                "__builtins__": builtins}
        self._samplers: dict[str, object] = {}

    def run(self) -> bool:
        """Run the script; False if it was stopped, True if it ran to its end. Its own errors
        propagate with their traceback."""
        code = compile(self.source, self.filename, "exec")
        self.namespace["print"] = self._print
        try:
            exec(code, self.namespace)
        except (Stop, KeyboardInterrupt):
            return False
        return True

    def _print(self, *args: object, **kwargs) -> None:
        builtins.print(*args, **kwargs)
        if kwargs.get("file") is not None or not args or not isinstance(args[0], str):
            return
        match = STEP_LINE.match(args[0])
        if not match:
            return
        loss = self.namespace.get("loss")
        number = getattr(loss, "data", loss)
        if isinstance(number, int | float):
            exact = float(number)
        else:  # no `loss` to read: the printed figure is all there is
            exact = _printed_loss(args[0])
        mark = fingerprint(weights(self.namespace))
        while True:
            command = str(self.on_step(int(match[1]), int(match[2]), exact, mark) or "")
            if command == "stop":
                raise Stop
            if not command.startswith("sample"):
                return
            self.sample(command.removeprefix("sample").strip())

    def sample(self, temperature: str = "") -> None:
        """Sample names with the weights as they are now, as the script does after training,
        and put the random numbers back where they were, so the run goes on unchanged."""
        if self.on_samples is None:
            return
        names: list[str] = []
        error = ""
        state = random.getstate()
        try:
            code = self._sampler(temperature)
            if code is None:
                raise SetupError("this script has no sampling after its training loop")

            def collect(*args: object, **kwargs) -> None:
                text = str(kwargs.get("sep", " ")).join(str(arg) for arg in args)
                found = SAMPLE_LINE.match(text)
                if found:
                    names.append(found[1])

            scratch = dict(self.namespace, print=collect)
            exec(code, scratch)
        except Stop:
            raise
        except Exception as problem:  # the learner's code may fail here: say so, go on training
            error = f"{type(problem).__name__}: {problem}"
        finally:
            random.setstate(state)
        self.on_samples(names, error)

    def _sampler(self, temperature: str):
        if temperature not in self._samplers:
            value = float(temperature) if temperature else None
            if value is not None and TEMPERATURE.search(self.source) is None:
                value = None  # train0 samples from its counts, without a temperature
            source = configure(self.source, temperature=value)
            self._samplers[temperature] = sampling_code(source, self.filename)
        return self._samplers[temperature]

    def weights(self) -> list[float]:
        return weights(self.namespace)


def _printed_loss(line: str) -> float | None:
    try:
        return float(line.rsplit("loss ", 1)[1].split()[0])
    except (IndexError, ValueError):
        return None


def explain(error: BaseException, filename: str) -> str:
    """A traceback of the script's own lines only (not this module's), as Python prints it."""
    frames = [frame for frame in traceback.extract_tb(error.__traceback__)
              if frame.filename == filename]
    text = "Traceback (most recent call last):\n" if frames else ""
    text += "".join(traceback.format_list(frames))
    text += "".join(traceback.format_exception_only(type(error), error))
    if isinstance(error, RecursionError):
        text += (f"A function called itself more than {sys.getrecursionlimit():,} times deep, "
                 "Python's limit here. A recursive walk of the graph (backward's topological "
                 "sort) goes as deep as the graph's longest path, which is about 200 for a "
                 "microgpt step; deeper means the walk does not stop: check that it skips "
                 "nodes it has seen. Or write the walk as a loop with a list as a stack, which "
                 "has no depth limit.\n")
    return text


def train(source: str, filename: str, on_step, on_samples=None) -> tuple[str, str, Run]:
    """Run the script: ("finished" | "stopped" | "error", the error explained, the run)."""
    run = Run(source, filename, on_step, on_samples)
    try:
        finished = run.run()
    except Exception as error:  # the learner's code failed: say where, in their file
        return "error", explain(error, filename), run
    return ("finished" if finished else "stopped"), "", run


# --- how two runs compare ---------------------------------------------------------------------

@dataclass(frozen=True)
class Verdict:
    kind: str  # "same", "rounding", "parted" or "nothing"
    text: str
    step: int = 0  # the first step where the two differ


def compare(mine: list[float | None], reference: list[float | None],
            my_marks: list[str] | None = None, reference_marks: list[str] | None = None,
            my_weights: list[float] | None = None,
            reference_weights: list[float] | None = None) -> Verdict:
    """What a learner should hear about their run beside the reference run (the same script,
    steps, seed and data), in words: the same to the last digit, apart only by rounding, or
    parted at a step and by how much. The page says the same, from frontend/src/my-microgpt.ts."""
    steps = min(len(mine), len(reference))
    if steps == 0:
        return Verdict("nothing", "No steps to compare yet.")
    pairs = list(zip(mine[:steps], reference[:steps]))
    first = next((k for k, (a, b) in enumerate(pairs) if a != b), None)
    so_far = "" if len(mine) == len(reference) else " so far"
    if first is None:
        marks = list(zip((my_marks or [])[:steps], (reference_marks or [])[:steps]))
        split = next((k for k, (a, b) in enumerate(marks) if a and b and a != b), None)
        if split is None:
            every = f"all {steps} steps" if steps != 1 else "its one step"
            return Verdict("same", f"Matches the reference at every step{so_far}: the same loss "
                           f"and the same weights, to the last digit, for {every}.")
        closeness = _weights_closeness(my_weights, reference_weights)
        return Verdict("rounding", (
            f"Matches the reference's loss at every step{so_far}, to the last digit. Your "
            f"weights differ from the reference's only in their last digits, from step "
            f"{split + 1}{closeness}: your code adds the same numbers in another order, and a "
            "computer rounds the last digit of every sum, so the order shows there. That is "
            "rounding, not a bug."), split + 1)
    a, b = pairs[first]
    if a is None or b is None or not _rounding_apart(a, b):
        return Verdict("parted", (
            f"Parts from the reference at step {first + 1}: your loss is {_shown(a)}, the "
            f"reference's {_shown(b)}" + (f", {_shown(abs(a - b), 2)} apart" if a is not None
                                           and b is not None else "") +
            ". A difference this big is not rounding: your code computes something else "
            "there."), first + 1)
    worst = max(_relative(x, y) for x, y in pairs if x is not None and y is not None)
    return Verdict("rounding", (
        f"Agrees with the reference to {_digits(worst)} significant digits at every "
        f"step{so_far}; the last digits first differ at step {first + 1}. Your code adds the same "
        "numbers in another order, and a computer rounds the last digit of every sum, so the "
        "order shows there. That is rounding, not a bug."), first + 1)


def _relative(a: float, b: float) -> float:
    return abs(a - b) / max(abs(b), sys.float_info.min)


def _rounding_apart(a: float, b: float) -> bool:
    return math.isfinite(a) and math.isfinite(b) and _relative(a, b) <= ROUNDING


def _digits(relative: float) -> int:
    """How many significant digits two numbers this far apart (relatively) share."""
    return 16 if relative <= 0 else max(1, min(16, math.floor(-math.log10(relative))))


def _shown(x: float | None, digits: int = 6) -> str:
    return "not a number" if x is None else f"{x:.{digits}g}"


def _weights_closeness(mine: list[float] | None, reference: list[float] | None) -> str:
    if not mine or not reference or len(mine) != len(reference):
        return ""
    worst = max(_relative(a, b) for a, b in zip(mine, reference))
    return (f" (at the end they agree to {_digits(worst)} significant digits)" if worst
            else " (at the end they are the same again)")


# --- the terminal's side: `python -m linebyline.mine.training` -------------------------------------

def main(argv: list[str]) -> int:
    """Run SCRIPT (already configured) as `linebyline train --mine` does, writing each step's
    exact loss and weights fingerprint to RECORD as JSON lines, and the final weights last."""
    script, record = argv
    with open(script, encoding="utf-8") as file:
        source = file.read()
    with open(record, "w", encoding="utf-8") as out:
        def on_step(step: int, total: int, loss: float | None, mark: str) -> str:
            out.write(json.dumps({"step": step, "total": total, "loss": loss, "mark": mark}) + "\n")
            out.flush()
            return ""

        status, error, run = train(source, script.rsplit("/", 1)[-1], on_step)
        if status != "finished":
            sys.stderr.write(error or "Stopped.\n")
            return 1
        out.write(json.dumps({"weights": run.weights()}) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
