"""experiment-lab (12.2): the learner's own experiments, run in the page's Python and compared.

The learner picks a data set (the names, the names spelled backwards, or text of their own), a
value for each of the lesson's ``settings`` and a number of ``steps``; the widget calls the
lesson's ``function`` from its reference solution (the page hands the widget the solution's
source) as ``function(docs, num_steps=steps, **settings)``, measures every step as it runs and
draws each run's loss on one chart, with a table of what each run cost. Nothing is computed
ahead: every number on it is measured in the learner's browser.
"""
from __future__ import annotations

from ..fields import Fields
from . import _common

KIND = "experiment-lab"
RUNS_SOLUTION = True  # the page hands the widget the lesson's solution as `program`
MAX_STEPS = 2000
RESERVED = ("docs", "num_steps")  # what the lab itself passes


def validate(params: Fields) -> None:
    params.only("function", "steps", "settings", "caption")
    function = params.get("function", str)
    if function is not None and not function.isidentifier():
        params.error("`function` must be the name of a Python function, such as experiment", "function")
    steps = params.get("steps", list)
    if steps is not None and (not steps or not all(_common.whole(n) and 1 <= n <= MAX_STEPS for n in steps)):
        params.error(f"`steps` must offer whole numbers of steps from 1 to {MAX_STEPS}", "steps")
    names: set[str] = set()
    for setting in params.items("settings", f"{params.where}setting"):
        setting.only("name", "label", "choices")
        name = setting.get("name", str)
        setting.get("label", str)
        if name is not None:
            if not name.isidentifier() or name in RESERVED:
                setting.error(f"`name` must be a parameter of the function other than "
                              f"{' and '.join(RESERVED)}, not {name!r}", "name")
            elif name in names:
                setting.error(f"`{name}` is offered twice", "name")
            names.add(name)
        choices = setting.get("choices", list)
        if choices is not None and (not choices or not all(_common.whole(n) and n >= 1 for n in choices)):
            setting.error("`choices` must be whole numbers from 1 up, the first of them the default",
                          "choices")
    _common.texts(params, "caption")
