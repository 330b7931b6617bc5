"""What the CLI accepts on the report pipe: the checker's own steps, in their order, and then a
result that agrees with them.

The worker reports each step: "code" (the learner's file starts), "check" NAME (a check starts),
"checked" {name, status, ...} (it ended), and last "result" (the whole contract). The learner's
code runs in the worker's process, so it could write on that pipe too if it found the pipe and
its token in memory. It cannot change what the CLI has already read, though: a result is taken
only when every check it says passed was reported passing, as it ran, in the lesson's order, so a
lone forged result is refused, and so is a check reported out of turn. The worker refuses calls to
its report function from code other than the checker's, and says so ("forged").

What this cannot catch: code that reads the token out of the worker's memory and then writes the
whole conversation itself, every step in order, before the checker does. In-process, that is
always possible; docs/security.md says so.
"""
from __future__ import annotations

from typing import Any

REFUSED = ("This check is refused: {how}. Only the checker may report how your code did, so your "
           "file gets no verdict. A check is a learning aid: code written to fool it may get "
           "past it, but not without this being said.")
CALLED = "your code called the checker's own report function ({detail})"
WROTE = ("the checker's report pipe carried a report that the checks did not make ({detail}); "
         "something in your code wrote it")


class Protocol:
    """The report lines read so far, and what they add up to."""

    def __init__(self, check_names: tuple[str, ...] | list[str]) -> None:
        self.names = list(check_names)
        self.phase, self.check_name = "start", ""  # how far the run got, for messages
        self.checked: list[dict[str, Any]] = []
        self.open: str | None = None
        self.result: dict[str, Any] | None = None
        self.failure = ""
        self.forged = ""  # why the run is refused, as a whole sentence

    @property
    def over(self) -> bool:
        return self.result is not None or bool(self.forged)

    def take(self, event: Any, data: Any) -> None:
        if self.over:
            return  # the run is being ended: nothing more counts
        if event == "forged":
            self._refuse(CALLED.format(detail=str(data)[:300]))
        elif event == "code":
            if self.phase == "start":
                self.phase = "code"
        elif event == "check":
            self._check(data)
        elif event == "checked":
            if not isinstance(data, dict) or data.get("name") != self.open:
                self._refuse(WROTE.format(detail="the end of a check that had not started"))
                return
            self.checked.append(data)
            self.open = None
        elif event == "result":
            problem = self._disagreement(data)
            if problem:
                self._refuse(WROTE.format(detail=problem))
            else:
                self.result = data
        elif event == "failed":
            self.failure = str(data)

    def _check(self, data: Any) -> None:
        name = data.get("name") if isinstance(data, dict) else None
        turn = len(self.checked)
        if self.open is not None or turn >= len(self.names) or name != self.names[turn]:
            self._refuse(WROTE.format(detail=f"the check “{str(name)[:100]}” out of turn"))
            return
        self.open = name
        self.phase, self.check_name = "check", name

    def _disagreement(self, result: Any) -> str:
        """What is wrong with a result, given the steps reported; "" when it agrees."""
        if not isinstance(result, dict) or not isinstance(result.get("checks"), list):
            return "a result that is not one"
        reported = {entry.get("name"): entry.get("status") for entry in self.checked}
        for entry in result["checks"]:
            if not isinstance(entry, dict):
                return "a result that is not one"
            if entry.get("status") == "pass" and reported.get(entry.get("name")) != "pass":
                return f"a pass for “{str(entry.get('name'))[:100]}”, which was not reported passing"
        if result.get("status") == "pass":
            if [entry.get("name") for entry in result["checks"]] != self.names or any(
                    entry.get("status") != "pass" for entry in self.checked):
                return "a pass for the lesson without every check passing"
        return ""

    def _refuse(self, how: str) -> None:
        if not self.forged:
            self.forged = REFUSED.format(how=how)
