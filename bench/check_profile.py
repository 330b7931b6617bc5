"""Where a check's time goes inside Pyodide: the browser's Python, run by Node.js, no browser.

    .venv/bin/python bench/check_profile.py [--lesson 7.5] [--runs 30] [--profile]

Loads the very Pyodide and standard library the browser gets (built by `make build`), writes the
check runtime into it as the worker does, imports linebyline.runtime.browser and times its
check() on the lesson's solution. Once, from a cold start: starting Pyodide, importing the
runtime, the first check, each in wall-clock and CPU time (CPU time hardly depends on what else
the machine runs, so it is the steadier guide to an idle machine's wait; it counts V8's
background compiling too). Then warm: the whole call; its parts (a private instance of the
runtime, restoring what a run may change, compiling the learner's file, a full garbage
collection); and the check again with nothing frozen for the garbage collector (as before
browser.py froze the objects that exist at start). With --profile, cProfile's tables of a few
checks, run inside Pyodide. CPython's time for the same check in this process is the baseline.
Prints min and median (ms): the machine is shared, so the min is the steadier figure. Not part
of CI.
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from linebyline.course import default_course_path, load_course  # noqa: E402
from linebyline.runtime import run_checks  # noqa: E402
from linebyline.web.pages import runtime_sources  # noqa: E402

STATIC = ROOT / "src" / "linebyline" / "web" / "static" / "pyodide"

NODE_SCRIPT = r"""
import { readFileSync } from "node:fs";
const [folder, jobPath] = process.argv.slice(-2);
const job = JSON.parse(readFileSync(jobPath, "utf8"));
const spent = {};
function measure(name, work) {  // wall-clock ms, and this process's CPU ms (all its threads)
  const [wall, cpu] = [performance.now(), process.cpuUsage()];
  const result = work();
  const used = process.cpuUsage(cpu);
  spent[name] = [performance.now() - wall, (used.user + used.system) / 1000];
  return result;
}
const { loadPyodide } = await import(`${folder}/pyodide.mjs`);
const [wall, cpu] = [performance.now(), process.cpuUsage()];
const python = await loadPyodide({ indexURL: `${folder}/` });
const used = process.cpuUsage(cpu);
spent["start Pyodide"] = [performance.now() - wall, (used.user + used.system) / 1000];
const home = "/home/pyodide";
for (const [path, source] of Object.entries(job.files)) {
  const full = `${home}/lib/${path}`;
  python.FS.mkdirTree(full.slice(0, full.lastIndexOf("/")));
  python.FS.writeFile(full, source);
}
python.runPython(`import os, sys; sys.path.insert(0, "${home}/lib"); os.chdir("${home}")`);
python.runPython("sys.setrecursionlimit(400)");  // as the worker does
const browser = measure("import the runtime", () => python.pyimport("linebyline.runtime.browser"));
const stopReason = () => 0;
const first = measure("first check", () => browser.check(
  job.lesson, job.source, job.checks, job.starter, job.filename, 10, stopReason));
if (JSON.parse(first).status !== "pass") throw new Error(first);
console.log(JSON.stringify(spent));
python.globals.set("job", python.toPy(job));
python.globals.set("stop_reason", stopReason);
python.runPython(job.script);
"""

PYTHON_SIDE = """
import cProfile, gc, io, json, pstats, time
from linebyline.runtime import browser, seal

def check():
    text = browser.check(job["lesson"], job["source"], job["checks"], job["starter"],
                         job["filename"], 10, stop_reason)
    assert json.loads(text)["status"] == "pass", text

def timed(function, runs):
    spent = []
    for _ in range(runs):
        started = time.perf_counter()
        function()
        spent.append((time.perf_counter() - started) * 1000)
    return spent

report = {}
report["warm check"] = timed(check, job["runs"])
gc.unfreeze()  # as before browser.py froze what exists at start: the comparison, same run
report["warm check, nothing frozen"] = timed(check, job["runs"])
gc.freeze()
report["  private instance of the runtime"] = timed(seal.instance, job["runs"])
report["  restore builtins and modules"] = timed(seal.restore, job["runs"])
report["  compile the learner's file"] = timed(
    lambda: compile(job["source"], job["filename"], "exec", dont_inherit=True), job["runs"])
report["  one full garbage collection"] = timed(gc.collect, 5)
print(json.dumps(report))
if job["profile"]:
    profile = cProfile.Profile()
    profile.enable()
    for _ in range(5):
        check()
    profile.disable()
    for order in ("cumulative", "tottime"):
        text = io.StringIO()
        pstats.Stats(profile, stream=text).sort_stats(order).print_stats(25)
        print(text.getvalue())
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lesson", default="7.5")
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--profile", action="store_true", help="also print cProfile's tables")
    args = parser.parse_args()
    folders = sorted(STATIC.glob("*/pyodide.mjs"))
    if not folders:
        parser.error(f"no Pyodide in {STATIC}: run `make build` first")
    exercise = load_course(default_course_path()).lesson(args.lesson).exercise

    job = {"lesson": args.lesson, "source": exercise.solution, "checks": exercise.checks_source,
           "starter": exercise.starter, "filename": exercise.filename, "files": runtime_sources(),
           "runs": args.runs, "profile": args.profile, "script": PYTHON_SIDE}
    with tempfile.NamedTemporaryFile("w", suffix=".json") as file:
        json.dump(job, file)
        file.flush()
        done = subprocess.run(
            ["node", "--input-type=module", "-e", NODE_SCRIPT, "--", str(folders[0].parent),
             file.name], capture_output=True, text=True, check=False)
    if done.returncode:
        # Node.js quotes the minified line that threw: keep only the ends of long lines.
        print(done.stdout, "\n".join(line[-300:] for line in done.stderr.splitlines()))
        return 1
    cold_line, report_line, profile = done.stdout.split("\n", 2)
    cold, report = json.loads(cold_line), json.loads(report_line)

    baseline = []
    for _ in range(args.runs):
        started = time.perf_counter()
        result = run_checks(exercise.solution, exercise.checks_source)
        baseline.append((time.perf_counter() - started) * 1000)
    assert result.status == "pass", result.checks

    print(f"lesson {args.lesson} in Pyodide ({folders[0].parent.name}) under Node.js, "
          f"{args.runs} runs, ms\n")
    print(f"{'once, from a cold start':<40} {'wall':>9} {'CPU':>9}")
    for name, (wall, cpu) in cold.items():
        print(f"{name:<40} {wall:>9.0f} {cpu:>9.0f}")
    print(f"{'total':<40} {sum(w for w, _ in cold.values()):>9.0f} "
          f"{sum(c for _, c in cold.values()):>9.0f}\n")
    print(f"{'each, warm':<40} {'min':>9} {'median':>9}")
    for name, spent in report.items():
        print(f"{name:<40} {min(spent):>9.1f} {statistics.median(spent):>9.1f}")
    print(f"{'the same check in CPython (baseline)':<40} {min(baseline):>9.1f} "
          f"{statistics.median(baseline):>9.1f}")
    warm = report["warm check"]
    print(f"{'ratio Pyodide / CPython (min, median)':<40} {min(warm) / min(baseline):>8.1f}x "
          f"{statistics.median(warm) / statistics.median(baseline):>8.1f}x")
    if profile.strip():
        print("\n" + profile)
    return 0


if __name__ == "__main__":
    sys.exit(main())
