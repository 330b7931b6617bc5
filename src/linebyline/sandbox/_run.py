"""The CLI's side of a check: start the contained worker, read its pipes, and make the result.

The learner's code never runs inside the CLI's own process. The worker (worker.py) runs in
namespaces of its own (bubblewrap, or keeper.py's own), or else under keeper.py's limits (see
_containment.py and the package's docstring). Either way, as soon as the result is in, the time
is up or the run is refused, every process of the run is ended, and the CLI waits until they are.

Output is read as it comes, into a bounded buffer: the first OUTPUT_KEPT bytes are shown, the
rest only counted, so a file that writes gigabytes costs the CLI no memory. The result comes on a
pipe of its own, each line signed with a random token, and is taken only when it agrees with the
steps reported before it (_protocol.py); every way the worker can end without a result gets a
message that says what happened.
"""
from __future__ import annotations

import json
import os
import select
import selectors
import signal
import subprocess
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import _containment as containment
from ._protocol import Protocol
from ._shared import (
    DEFAULT_MEMORY_MB,
    DEFAULT_TIMEOUT,
    FILE_MB,
    PROCESSES,
    REPORT_LOST,
    SETUP_FAILED,
    tasks_of,
)

if TYPE_CHECKING:
    from ..course import Lesson
    from ..runtime import Result

GRACE = 3.0  # seconds the worker gets to stop itself before it is killed
OUTPUT_KEPT = 64 * 1024  # bytes of what the process writes to stdout and stderr itself
REPORT_LINE_MAX = 32 * 1024 * 1024  # a longer line on the report pipe is not ours
DRAIN = 2.0  # seconds to collect what is left in the pipes once the run is over
ENDING = 6.0  # seconds the keeper (or the namespace) gets to end every process of the run
CHILD_ENV = ("PATH", "LANG", "LC_ALL", "LC_CTYPE", "TZ")
NOT_RUN = "Not run: the run was stopped."
_BROKEN: set[str] = set()  # ways that could not be set up in this process: not tried again


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
            text += (f"\n[output cut: your code wrote {len(self.data) + self.dropped:,} bytes "
                     f"straight to the terminal; the first {len(self.data):,} are shown]\n")
        return text


def _names() -> str:
    from ..course.dataset import names_file

    return str(names_file())


def _unprivileged_user() -> tuple[int, int] | None:
    """Who runs the learner's code when the CLI runs as root: `nobody`."""
    if not containment.is_root():
        return None
    import pwd

    try:
        entry = pwd.getpwnam("nobody")
        return entry.pw_uid, entry.pw_gid
    except KeyError:
        return containment.NOBODY


def _host_folder(user: tuple[int, int] | None) -> str:
    """The working folder of a run without namespaces: a temporary folder of the host's."""
    import shutil
    import tempfile

    folder = tempfile.mkdtemp(prefix="linebyline-check-")
    # Lessons read the names as input.txt from the working folder, as in the browser.
    shutil.copyfile(_names(), Path(folder) / "input.txt")
    if user is not None:
        os.chown(folder, *user)
        os.chown(Path(folder) / "input.txt", *user)
    return folder


class _Run:
    """One contained run: starts it, feeds it the job, reads its pipes, knows how it ended."""

    def __init__(self, way: str, job: dict[str, Any], protocol: Protocol) -> None:
        self.way, self.protocol = way, protocol
        self.token = os.urandom(16).hex().encode("ascii")
        self.folder: str | None = None
        self.info: int | None = None  # bubblewrap tells the namespace's first process here
        self.sandbox_init: int | None = None
        read_end, write_end = os.pipe()
        try:
            self.child = self._start(job, write_end)
        except BaseException:
            os.close(read_end)
            self._remove_folder()
            raise
        finally:
            os.close(write_end)
        self.report = read_end
        self.output = _Kept(OUTPUT_KEPT)
        self.stderr_head = b""
        self.stderr_tail = b""
        self.pending = b""
        self.heard = False  # a report line came: the worker started
        self.timed_out = False
        try:
            assert self.child.stdin is not None
            self.child.stdin.write(json.dumps({**job, "channel": write_end,
                                               "token": self.token.decode()}).encode())
            self.child.stdin.close()
        except BrokenPipeError:
            pass  # the child is already gone; how it ended is reported below

    def _start(self, job: dict[str, Any], channel: int) -> subprocess.Popen:
        env = {name: os.environ[name] for name in CHILD_ENV if name in os.environ}
        worker = containment.worker_command()
        pipes = dict(stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                     start_new_session=True)
        if self.way == "limits":
            self.folder = _host_folder(job["user"])
            env.update(HOME=self.folder, TMPDIR=self.folder)
            return subprocess.Popen(containment.keeper_command("limits", channel, "", worker),
                                    pass_fds=(channel,), cwd=self.folder, env=env, **pipes)
        env.update(HOME=containment.WORK, TMPDIR=containment.WORK)
        if self.way == "namespaces":
            return subprocess.Popen(containment.keeper_command("namespaces", channel, _names(),
                                                               worker),
                                    pass_fds=(channel,), cwd="/", env=env, **pipes)
        bwrap = containment.bwrap_path()
        assert bwrap is not None
        self.info, info_end = os.pipe()
        try:
            with open(_names(), "rb") as names:
                command = containment.bwrap_command(bwrap, names.fileno(), info_end, worker)
                return subprocess.Popen(command, pass_fds=(channel, names.fileno(), info_end),
                                        cwd="/", env=env, **pipes)
        finally:
            os.close(info_end)

    def _remove_folder(self) -> None:
        if self.folder is not None:
            import shutil

            shutil.rmtree(self.folder, ignore_errors=True)

    def watch(self, deadline: float) -> None:
        """Read everything until the result is in, the run is refused, the child ends, or the
        deadline passes."""
        selector = selectors.DefaultSelector()
        assert self.child.stdout is not None and self.child.stderr is not None
        streams = {self.child.stdout.fileno(): "stdout", self.child.stderr.fileno(): "stderr",
                   self.report: "report"}
        for fd in streams:
            os.set_blocking(fd, False)
            selector.register(fd, selectors.EVENT_READ)
        try:
            while not self.protocol.over and self.child.poll() is None:
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
                    if len(self.stderr_head) < 2000:
                        self.stderr_head += chunk[:2000 - len(self.stderr_head)]
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
            if isinstance(message, dict):
                self.heard = True
                self.protocol.take(message.get("event"), message.get("data"))

    def kill(self) -> None:
        """End every process of the run, and wait until they have ended."""
        if self.child.poll() is None:
            if self.way == "bwrap":
                # The namespace ends with its first process, and bubblewrap with the namespace.
                init = self._sandbox_init()
                try:
                    if init is not None:
                        os.kill(init, signal.SIGKILL)
                    else:
                        os.killpg(self.child.pid, signal.SIGKILL)  # still setting up
                except OSError:
                    pass  # already gone
            else:
                self.child.send_signal(signal.SIGTERM)  # the keeper ends them all
            _wait(self.child, ENDING)
        try:
            os.killpg(self.child.pid, signal.SIGKILL)  # what is left, if the keeper was killed
        except (ProcessLookupError, PermissionError):
            pass  # already gone
        self.child.wait()

    def _sandbox_init(self) -> int | None:
        """The process ID (outside) of the namespace's first process, which bubblewrap writes
        on the info pipe once it has made it."""
        if self.sandbox_init is None and self.info is not None:
            os.set_blocking(self.info, False)
            try:
                self.sandbox_init = int(json.loads(os.read(self.info, 65536))["child-pid"])
            except (OSError, ValueError, KeyError, TypeError):
                return None
        return self.sandbox_init

    def returncode(self) -> int | None:
        """How the worker ended: its exit code, or minus the signal that ended it. bubblewrap
        passes a signal on as 128 + its number."""
        code = self.child.returncode
        if self.way == "bwrap" and code is not None and 128 < code < 128 + signal.NSIG:
            return -(code - 128)
        return code

    def could_not_start(self) -> bool:
        """Whether this way of containing could not even be set up here (nothing ran)."""
        if self.heard or self.timed_out:
            return False
        code = self.child.returncode
        if self.way == "bwrap":
            return code == 1 and self.stderr_head.startswith(b"bwrap: ")
        if self.way == "namespaces":
            return code == SETUP_FAILED and b"namespaces unavailable" in self.stderr_head
        return False

    def close(self) -> None:
        for stream in (self.child.stdout, self.child.stderr):
            if stream is not None:
                stream.close()
        os.close(self.report)
        if self.info is not None:
            os.close(self.info)
        self._remove_folder()


def _wait(child: subprocess.Popen, timeout: float) -> None:
    """Wait until the child ends, or for `timeout` seconds. Popen.wait(timeout) sleeps between
    looks, which a check on every save would feel; a pidfd (Linux 5.3+) wakes when it ends."""
    try:
        pidfd = os.pidfd_open(child.pid)
    except (AttributeError, OSError):  # not Linux, or already collected
        pidfd = None
    if pidfd is None:
        try:
            child.wait(timeout)
        except subprocess.TimeoutExpired:
            pass
        return
    try:
        select.select([pidfd], [], [], timeout)
    finally:
        os.close(pidfd)
    child.poll()


def check_source(lesson: Lesson, source: str, *, timeout: float = DEFAULT_TIMEOUT,
                 memory_mb: int = DEFAULT_MEMORY_MB, untouched_is_not_attempted: bool = True,
                 **options: Any) -> Result:
    """Run ``lesson``'s checks on ``source`` in a contained worker and return the result.

    Further keyword ``options`` go to the check runtime's evaluate() as they are (they must be
    JSON data). Raises SandboxUnavailable when LINEBYLINE_SANDBOX asks for a way this machine
    does not have.
    """
    exercise = lesson.exercise
    user = _unprivileged_user()
    # The lesson's solution, which differential checks compare the learner's functions with.
    options.setdefault("reference", exercise.solution)
    options.setdefault("library", exercise.library)  # the course's modules a starter imports
    starters = [exercise.starter] + ([exercise.own_starter] if getattr(exercise, "own_starter", "")
                                     else [])
    job = {
        "lesson": lesson.number,
        "source": source,
        "filename": exercise.filename,
        "checks_source": exercise.checks_source,
        "checks_filename": str(exercise.checks_path),
        # Untouched, the guided starter and the on-my-own one (when the lesson has it) are
        # not attempted.
        "starter": starters if untouched_is_not_attempted else None,
        "timeout": timeout,
        "memory_mb": memory_mb,
        "file_mb": FILE_MB,
        "processes": PROCESSES,
        "user": user,
        "options": options,
    }
    ways = [way for way in containment.ways() if way not in _BROKEN] or ["limits"]
    for index, way in enumerate(ways):
        job["preload"] = way == "limits"
        if user is not None and way != "limits":
            # Without a user namespace, the kernel counts `nobody`'s processes everywhere; the
            # worker sees only those of its namespace, so it is told of the others.
            job["tasks_elsewhere"] = tasks_of(user[0]) or 0
        run = _Run(way, job, Protocol(exercise.check_names))
        try:
            # Imported while the worker starts: the check runtime is heavy to import (it seals
            # itself), and the CLI needs only its Result.
            from ..runtime import Result

            run.watch(time.monotonic() + timeout + GRACE)
        finally:
            run.kill()
            run.close()
        if index + 1 < len(ways) and run.could_not_start():
            _BROKEN.add(way)  # say, user namespaces turned off: the next way, now and later
            continue
        return _outcome(Result, lesson, run, timeout, memory_mb)
    raise AssertionError("unreachable: the last way always gives an outcome")


def _outcome(result_type: type[Result], lesson: Lesson, run: _Run, timeout: float,
             memory_mb: int) -> Result:
    extra = run.output.text()
    protocol = run.protocol
    if protocol.result is not None and not protocol.forged:
        result = result_type.from_dict(protocol.result)
        if extra:
            result.stdout += ("" if not result.stdout or result.stdout.endswith("\n") else "\n")
            result.stdout += extra
        return result
    message = protocol.forged or _ending(run, timeout, memory_mb)
    reported = [] if protocol.forged else protocol.checked
    return result_type.from_dict(_without_result(lesson, reported, message, extra))


def _without_result(lesson: Lesson, reported: list[dict[str, Any]], message: str,
                    stdout: str) -> dict[str, Any]:
    """The result contract for a run that gave none: the checks reported as they ran, then
    `message` for the first that did not end, and NOT_RUN for the rest. Every key the runtime
    gives a check and a result is there ("fix" and "traceback" empty), as in a real result."""
    done = {entry["name"]: entry for entry in reported}
    checks, told = [], False
    for name in lesson.exercise.check_names:
        if name in done:
            checks.append(done[name])
            continue
        checks.append({"name": name, "status": "error", "message": NOT_RUN if told else message,
                       "fix": ""})
        told = True
    statuses = {check["status"] for check in checks}
    return {"lesson": lesson.number, "status": "error" if statuses == {"error"} else "fail",
            "checks": checks, "stdout": stdout, "traceback": ""}


def _ending(run: _Run, timeout: float, memory_mb: int) -> str:
    """What happened to a worker that ended without a result, in a sentence or two."""
    protocol = run.protocol
    where = {"start": "before your code started",
             "code": "while your file was running",
             "check": f"while the check “{protocol.check_name}” was running"}[protocol.phase]
    code = run.returncode()
    if run.timed_out:
        return (f"Your code was stopped: it ran past the {timeout:g} s time limit and did not "
                "stop when asked, so its process was ended. Look for a loop that never ends "
                "(inside a bare `except:` it cannot be stopped gently) or one very long "
                "computation.")
    if protocol.failure:
        return f"The checker itself failed {where}: {protocol.failure}"
    if code is not None and code < 0:
        return _signal_ending(-code, where)
    if code == REPORT_LOST and protocol.phase != "start":
        return ("Your code closed or replaced the pipe the checker reports on (a file descriptor it "
                "did not open), so no result came back. Leave alone the files you did not open.")
    if protocol.phase == "start":
        tail = run.stderr_tail.decode("utf-8", errors="replace").strip().splitlines()
        if any("MemoryError" in line for line in tail):
            return (f"Python could not even start within the {memory_mb} MB memory limit: give "
                    "it more with --memory.")
        return f"The checker could not start: {tail[-1] if tail else f'exit code {code}'}"
    return (f"Your code ended the Python process itself (exit code {code}) {where}, so the checks "
            "could not finish: os._exit() or os.exec…() skip everything after them. To end your "
            "program early, use sys.exit(), or just let the file end.")


def _signal_ending(number: int, where: str) -> str:
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
    try:
        name = signal.Signals(number).name
    except ValueError:
        name = f"number {number}"
    return f"Your code's process was ended by the signal {name} {where}."
