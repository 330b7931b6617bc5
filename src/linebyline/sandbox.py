"""Check a learner's file in a separate process, under time, memory, file-size and process limits.

The learner's code never runs inside the CLI's own process. The child (linebyline.sandbox_worker)
runs under a keeper (sandbox_keeper.py) in a session of its own, so the child and every process
its code starts end together with the check: as soon as the result is in, or the time is up, the
keeper ends the process group and every process that left it (os.setsid, a double fork), and the
CLI kills the group as well in case the keeper itself was killed.

Output is read as it comes, into a bounded buffer: the first OUTPUT_KEPT bytes are shown, the
rest only counted, so a file that writes gigabytes costs the CLI no memory. The result comes on a
pipe of its own, each line signed with a random token (see sandbox_worker), and every way the
child can end without a result gets a message that says what happened.

"""
from __future__ import annotations

import json
import os
import secrets
import selectors
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from .course import Lesson
from .dataset import names_file
from .runtime import CheckResult, Result
from .sandbox_worker import REPORT_LOST

DEFAULT_TIMEOUT = 10.0  # seconds
DEFAULT_MEMORY_MB = 512
FILE_MB = 64  # the largest file the learner's code may write
PROCESSES = 32  # processes (and threads) the learner's code may start
GRACE = 3.0  # seconds the child gets to stop itself before it is killed
OUTPUT_KEPT = 64 * 1024  # bytes of what the process writes to stdout and stderr itself
REPORT_LINE_MAX = 32 * 1024 * 1024  # a longer line on the report pipe is not ours
DRAIN = 2.0  # seconds to collect what is left in the pipes once the run is over
KEEPER = Path(__file__).with_name("sandbox_keeper.py")
KEEPER_ENDING = 6.0  # seconds the keeper gets to end every process of the run
CHILD_ENV = ("PATH", "LANG", "LC_ALL", "LC_CTYPE", "TZ")
NOT_RUN = "Not run: the run was stopped."


class _Kept:
    """The first `limit` bytes, and a count of the rest."""

    def __init__(self, limit: int) -> None:
        self.limit, self.data, self.dropped = limit, bytearray(), 0

    def add(self, chunk: bytes) -> None:
        room = self.limit - len(self.data)
        if room > 0:
            self.data += chunk[:room]
        self.dropped += max(0, len(chunk) - max(room, 0))

    def text(self) -> str:
        text = self.data.decode("utf-8", errors="replace")
        if self.dropped:
            text += f"\n[output cut: {self.dropped:,} more bytes not shown]\n"
        return text


class _Run:
    """One child process: feeds it the job, reads its pipes, and knows how it ended."""

    def __init__(self, job: dict[str, Any], folder: Path, user: tuple[int, int] | None) -> None:
        self.token = secrets.token_hex(16).encode("ascii")
        read_end, write_end = os.pipe()
        env = {name: os.environ[name] for name in CHILD_ENV if name in os.environ}
        env.update(HOME=str(folder), TMPDIR=str(folder))
        try:
            self.child = subprocess.Popen(
                [sys.executable, "-I", "-S", "-B", str(KEEPER), str(write_end),
                 sys.executable, "-I", "-B", "-X", "utf8", "-m", "linebyline.sandbox_worker"],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                pass_fds=(write_end,), cwd=folder, env=env, start_new_session=True)
        except BaseException:
            os.close(read_end)
            raise
        finally:
            os.close(write_end)
        self.report = read_end
        self.output = _Kept(OUTPUT_KEPT)
        self.stderr_tail = b""
        self.pending = b""
        self.phase, self.check_name = "start", ""
        self.checked: list[dict[str, str]] = []
        self.result: dict[str, Any] | None = None
        self.failure = ""
        self.timed_out = False
        try:
            assert self.child.stdin is not None
            self.child.stdin.write(json.dumps({**job, "channel": write_end,
                                               "token": self.token.decode(), "user": user}).encode())
            self.child.stdin.close()
        except BrokenPipeError:
            pass  # the child is already gone; how it ended is reported below

    def watch(self, deadline: float) -> None:
        """Read everything until the result is in, the child ends, or the deadline passes."""
        selector = selectors.DefaultSelector()
        assert self.child.stdout is not None and self.child.stderr is not None
        streams = {self.child.stdout.fileno(): "stdout", self.child.stderr.fileno(): "stderr",
                   self.report: "report"}
        for fd in streams:
            os.set_blocking(fd, False)
            selector.register(fd, selectors.EVENT_READ)
        try:
            while self.result is None and self.child.poll() is None:
                left = deadline - time.monotonic()
                if left <= 0:
                    self.timed_out = True
                    break
                self._read(selector, streams, min(left, 0.05))
        finally:
            # The result is in, or the child has ended, or time is up: end every process of the
            # run (a `sleep` it started, say), then collect what is left in the pipes.
            self.kill()
            until = time.monotonic() + DRAIN
            while selector.get_map() and time.monotonic() < until:
                self._read(selector, streams, until - time.monotonic())
            selector.close()

    def _read(self, selector: selectors.BaseSelector, streams: dict[int, str], wait: float) -> None:
        for key, _ in selector.select(timeout=max(wait, 0)):
            fd = key.fd
            try:
                chunk = os.read(fd, 65536)
            except BlockingIOError:
                continue
            if not chunk:
                selector.unregister(fd)
                continue
            if streams[fd] == "report":
                self._take_report(chunk)
            else:
                self.output.add(chunk)
                if streams[fd] == "stderr":
                    self.stderr_tail = (self.stderr_tail + chunk)[-2000:]

    def _take_report(self, chunk: bytes) -> None:
        self.pending += chunk
        *lines, self.pending = self.pending.split(b"\n")
        if len(self.pending) > REPORT_LINE_MAX:
            self.pending = b""  # a flood that is not ours
        for line in lines:
            head, _, body = line.partition(b" ")
            if head != self.token:
                continue  # written by the learner's code: never taken as a report
            try:
                message = json.loads(body)
            except ValueError:
                continue
            event, data = message.get("event"), message.get("data")
            if event == "code":
                self.phase = "code"
            elif event == "check":
                self.phase, self.check_name = "check", data["name"]
            elif event == "checked":
                self.checked.append(data)
            elif event == "result":
                self.result = data
            elif event == "failed":
                self.failure = str(data)

    def kill(self) -> None:
        """End every process of the run: the keeper finds those that left the group."""
        if self.child.poll() is None:
            self.child.send_signal(signal.SIGTERM)
            try:
                self.child.wait(KEEPER_ENDING)
            except subprocess.TimeoutExpired:
                pass
        try:
            os.killpg(self.child.pid, signal.SIGKILL)  # what is left, if the keeper was killed
        except (ProcessLookupError, PermissionError):
            pass  # already gone
        self.child.wait()

    def close(self) -> None:
        for stream in (self.child.stdout, self.child.stderr):
            if stream is not None:
                stream.close()
        os.close(self.report)


def _unprivileged_user() -> tuple[int, int] | None:
    """Who runs the learner's code when the CLI runs as root: `nobody`."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return None
    import pwd

    try:
        entry = pwd.getpwnam("nobody")
        return entry.pw_uid, entry.pw_gid
    except KeyError:
        return 65534, 65534


def check_source(lesson: Lesson, source: str, *, timeout: float = DEFAULT_TIMEOUT,
                 memory_mb: int = DEFAULT_MEMORY_MB, untouched_is_not_attempted: bool = True
                 ) -> Result:
    """Run ``lesson``'s checks on ``source`` in a child process and return the result."""
    exercise = lesson.exercise
    job = {
        "lesson": lesson.number,
        "source": source,
        "filename": exercise.filename,
        "checks_source": exercise.checks_source,
        "checks_filename": str(exercise.checks_path),
        "reference": exercise.solution,
        "starter": exercise.starter if untouched_is_not_attempted else None,
        "timeout": timeout,
        "memory_mb": memory_mb,
        "file_mb": FILE_MB,
        "processes": PROCESSES,
    }
    user = _unprivileged_user()
    with tempfile.TemporaryDirectory(prefix="linebyline-check-",
                                     ignore_cleanup_errors=True) as name:
        folder = Path(name)
        # Lessons read the names as input.txt from the working folder, as in the browser.
        shutil.copyfile(names_file(), folder / "input.txt")
        if user is not None:
            os.chown(folder, *user)
            os.chown(folder / "input.txt", *user)
        run = _Run(job, folder, user)
        try:
            run.watch(time.monotonic() + timeout + GRACE)
        finally:
            run.kill()
            run.close()
    return _outcome(lesson, run, timeout, memory_mb)


def _outcome(lesson: Lesson, run: _Run, timeout: float, memory_mb: int) -> Result:
    extra = run.output.text()
    if run.result is not None:
        result = Result.from_dict(run.result)
        if extra:
            result.stdout += ("" if not result.stdout or result.stdout.endswith("\n") else "\n")
            result.stdout += extra
        return result
    message = _ending(run, timeout, memory_mb)
    names = list(lesson.exercise.check_names)
    done = {entry["name"]: entry for entry in run.checked}
    checks, told = [], False
    for name in names:
        if name in done:
            entry = done[name]
            checks.append(CheckResult(name, entry["status"], entry["message"]))
        elif not told:
            checks.append(CheckResult(name, "error", message))
            told = True
        else:
            checks.append(CheckResult(name, "error", NOT_RUN))
    statuses = {check.status for check in checks}
    status = "error" if statuses == {"error"} else "fail"
    return Result(lesson.number, status, checks, extra)


def _ending(run: _Run, timeout: float, memory_mb: int) -> str:
    """What happened to a child that ended without a result, in a sentence or two."""
    where = {"start": "before your code started",
             "code": "while your file was running",
             "check": f"while the check “{run.check_name}” was running"}[run.phase]
    code = run.child.returncode
    if run.timed_out:
        return (f"Your code was stopped: it ran past the {timeout:g} s time limit and did not "
                "stop when asked, so its process was ended. Look for a loop that never ends "
                "(inside a bare `except:` it cannot be stopped gently) or one very long "
                "computation.")
    if run.failure:
        return f"The checker itself failed {where}: {run.failure}"
    if code is not None and code < 0:
        number = -code
        if number == signal.SIGSEGV:
            return (f"Python crashed (segmentation fault) {where}. The usual cause is a function "
                    "that keeps calling itself after sys.setrecursionlimit raised the limit, until "
                    "Python's own stack ran out. Leave the recursion limit as it is, and look for "
                    "a function that keeps calling itself.")
        if number == signal.SIGXFSZ:
            return (f"Your code was stopped {where}: it wrote a file bigger than the {FILE_MB} MB "
                    "file size limit.")
        if number == signal.SIGKILL:
            return (f"The process running your code was killed (SIGKILL) {where}, by your code "
                    "itself or by the system (for example when the machine ran out of memory).")
        if number == signal.SIGABRT:
            return (f"Python aborted {where}: os.abort() was called, or Python hit a fatal error "
                    "(for example when it ran out of memory inside its own code).")
        return (f"Your code's process was ended by the signal {signal.Signals(number).name} "
                f"{where}.")
    if code == REPORT_LOST and run.phase != "start":
        return ("Your code closed or replaced the pipe the checker reports on (a file descriptor it "
                "did not open), so no result came back. Leave alone the files you did not open.")
    if run.phase == "start":
        tail = run.stderr_tail.decode("utf-8", errors="replace").strip().splitlines()
        if any("MemoryError" in line for line in tail):
            return (f"Python could not even start within the {memory_mb} MB memory limit: give "
                    "it more with --memory.")
        return f"The checker could not start: {tail[-1] if tail else f'exit code {code}'}"
    return (f"Your code ended the Python process itself (exit code {code}) {where}, so the checks "
            "could not finish: os._exit() or os.exec…() skip everything after them. To end your "
            "program early, use sys.exit(), or just let the file end.")
