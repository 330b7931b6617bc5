# base: mistake
# expect: fail | e.grad is -6 but should be -2
import sys

import linebyline.runtime as runtime
from linebyline.runtime import checks, numeric, runner, seal, words

PASS = {"lesson": "7.5", "status": "pass", "stdout": "",
        "checks": [{"name": n, "status": "pass", "message": ""} for n in (
            "the example's gradients", "a value used twice adds up",
            "each node waits for all its users", "every gradient matches nudging")]}
for module in (runtime, runner, seal):
    module.evaluate = lambda *args, **kwargs: dict(PASS)
    module.evaluate_json = lambda *args, **kwargs: str(PASS)
    module.run_checks = lambda *args, **kwargs: runner.Result.from_dict(PASS)
for module in (runtime, checks):
    module.fail = lambda message: None
for module in (runtime, numeric, words):
    module.close = lambda *args, **kwargs: True
    module.mismatches = lambda *args, **kwargs: ""
checks.CheckFailed = type("Never", (Exception,), {})
runner.CheckFailed = checks.CheckFailed
checks._Calling.__exit__ = lambda self, *error: True
runner.CheckResult.__init__ = lambda self, name, status, message="": vars(self).update(
    name=name, status="pass", message="")
sys.modules["linebyline.runtime"] = sys.modules["math"]
