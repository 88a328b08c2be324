"""Running the fuzzer: worker processes, time budget, per-call timeout, failures, counts.

Cases run in worker subprocesses (``python -m gatherscatter.fuzz --worker``).
The parent hands a worker one op at a time (``seed``, first case, budget); the
worker writes ``S n`` before it runs case ``n`` and ``R n {outcome}`` after, so
when it dies (a segfault, an abort) or stops answering (a hang, past the
per-call timeout, then it is killed) the parent knows which case did it. The
parent rebuilds that case from ``(seed, op, n)``: cases are deterministic.
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter, deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from .gen import generate
from .oracle import Outcome, pattern, resolve_op, run_case
from .repro import reproducer

__all__ = ["Failure", "OpStats", "Report", "fuzz", "select_ops", "worker_main"]

TYPED = (
    "IndexOutOfRangeError", "ShapeError", "AxisError", "DTypeError", "ArgumentError", "DuplicateIndexError",
    "UnsupportedError",
)


@dataclass
class OpStats:
    """Counts for one op."""

    op: str
    calls: int = 0
    results: int = 0
    typed: Counter[str] = field(default_factory=Counter)
    failures: int = 0
    seconds: float = 0.0


@dataclass
class Failure:
    """One failing case (the first of its group) and how many cases share its key."""

    op: str
    case: int
    kind: str
    error: str
    message: str
    detail: str = ""
    count: int = 1
    expect: str = "any"
    reproducer: str = ""
    path: str = ""

    @property
    def key(self) -> tuple[str, str, str, str]:
        """(op, kind, exception type, message pattern): failures with one key are one finding."""
        return (self.op, self.kind, self.error, pattern(self.message))


@dataclass
class Report:
    """What a fuzz run did."""

    seed: int
    seconds: float
    stats: dict[str, OpStats]
    failures: list[Failure]

    @property
    def calls(self) -> int:
        """Total calls."""
        return sum(s.calls for s in self.stats.values())

    @property
    def failure_count(self) -> int:
        """Failing calls (all of them, not only the distinct findings)."""
        return sum(s.failures for s in self.stats.values())


def select_ops(patterns: list[str] | None) -> list[str]:
    """Op references for ``--op`` values: exact qualnames, framework prefixes (``torch``), or ``module:attr``."""
    from ..dialects._registry import ops

    names = [op.info.qualname for op in ops()]
    if not patterns:
        return names
    out: list[str] = []
    for p in patterns:
        if ":" in p:
            out.append(p)
            continue
        hit = [n for n in names if n == p or n.startswith(p.rstrip(".*") + ".")]
        if not hit:
            from ..errors import UnsupportedError

            raise UnsupportedError(f"no registered op matches {p!r}; see `gatherscatter list`")
        out.extend(h for h in hit if h not in out)
    return out


# ------------------------------------------------------------------------------ worker side


def _outcome_json(o: Outcome) -> str:
    return json.dumps({"status": o.status, "error": o.error, "kind": o.kind, "message": o.message,
                       "detail": o.detail[-4000:], "expect": o.expect})


def worker_main(memory_limit: int | None = None) -> int:
    """The worker loop: read jobs (JSON lines) on stdin, report on the original stdout."""
    import faulthandler

    out_fd = os.dup(1)
    os.dup2(2, 1)  # anything the library or numba prints goes to stderr, not into the protocol
    faulthandler.enable()
    if memory_limit:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (memory_limit, memory_limit))

    def send(line: str) -> None:
        os.write(out_fd, (line + "\n").encode())

    send("READY")  # numba kernels compile (or load from numba's cache) on first use
    for raw in sys.stdin:
        job = json.loads(raw)
        op = resolve_op(job["op"])
        t0 = time.monotonic()
        n = int(job["start"])
        stop = job.get("stop")
        while (stop is None or n < stop) and (job.get("seconds") is None or time.monotonic() - t0 < job["seconds"]):
            send(f"S {n}")
            try:
                case = generate(job["op"], op, int(job["seed"]), n)
                res = run_case(op, case.args, case.kwargs, expect=case.expect, loops=job.get("loops", True),
                               numba=job.get("numba", True), twin=case.twin)
            except Exception as exc:  # the fuzzer's own failure, reported like any other
                import traceback

                res = Outcome("failure", error=type(exc).__name__, kind="fuzzer-error", message=str(exc)[:300],
                              detail=traceback.format_exc())
            send(f"R {n} {_outcome_json(res)}")
            n += 1
        send(f"D {n}")
    return 0


# ------------------------------------------------------------------------------ parent side


class _Worker:
    def __init__(self, index: int, memory_limit: int | None, tmp: str) -> None:
        self.index = index
        self.memory_limit = memory_limit
        self.err_path = os.path.join(tmp, f"worker{index}.stderr")
        self.proc: subprocess.Popen[bytes] | None = None
        self.buf = b""
        self.job: dict[str, Any] | None = None
        self.case: int | None = None
        self.case_t0 = 0.0
        self.job_t0 = 0.0
        self.start()

    def start(self) -> None:
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
        env.setdefault("PYTHONFAULTHANDLER", "1")
        cmd = [sys.executable, "-m", "gatherscatter.fuzz", "--worker"]
        if self.memory_limit:
            cmd += ["--memory-limit", str(self.memory_limit)]
        self.err = open(self.err_path, "wb")  # noqa: SIM115 - kept open for the life of the process
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.err, env=env)
        self.buf = b""
        line = self.readline(600.0)
        if line != "READY":
            raise RuntimeError(f"fuzz worker failed to start: {line!r}; see {self.err_path}")

    def fileno(self) -> int:
        assert self.proc is not None
        assert self.proc.stdout is not None
        return self.proc.stdout.fileno()

    def readline(self, timeout: float) -> str | None:
        """One protocol line, or None on EOF; '' when nothing arrived within ``timeout``."""
        end = time.monotonic() + timeout
        while b"\n" not in self.buf:
            left = max(0.0, end - time.monotonic())
            r, _, _ = select.select([self.fileno()], [], [], left)
            if not r:
                return ""
            chunk = os.read(self.fileno(), 65536)
            if not chunk:
                return None
            self.buf += chunk
        line, _, self.buf = self.buf.partition(b"\n")
        return line.decode()

    def send(self, job: dict[str, Any]) -> None:
        assert self.proc is not None
        assert self.proc.stdin is not None
        self.job = job
        self.job_t0 = time.monotonic()
        self.case = None
        self.proc.stdin.write((json.dumps(job) + "\n").encode())
        self.proc.stdin.flush()

    def stderr_tail(self) -> str:
        self.err.flush()
        try:
            return Path(self.err_path).read_text(errors="replace")[-3000:]
        except OSError:
            return ""

    def kill(self) -> int | None:
        assert self.proc is not None
        if self.proc.poll() is None:
            self.proc.kill()
        rc = self.proc.wait()
        for f in (self.proc.stdin, self.proc.stdout):
            if f is not None:
                f.close()
        self.err.close()
        return rc

    def stop(self) -> None:
        assert self.proc is not None
        if self.proc.stdin is not None:
            self.proc.stdin.close()
            self.proc.stdin = None
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        if self.proc.stdout is not None:
            self.proc.stdout.close()
        self.err.close()


def _signal_name(rc: int | None) -> str:
    if rc is None:
        return "no exit status"
    if rc < 0:
        try:
            return f"killed by {signal.Signals(-rc).name}"
        except ValueError:
            return f"killed by signal {-rc}"
    return f"exit status {rc}"


def fuzz(
    ops: list[str],
    *,
    seconds: float | None = None,
    cases: int | None = None,
    seed: int = 0,
    workers: int = 1,
    timeout: float = 60.0,
    out_dir: str | None = None,
    loops: bool = True,
    numba: bool = True,
    memory_limit: int | None = 3 << 30,
    stop_after: int | None = None,
    log: IO[str] | None = None,
) -> Report:
    """Fuzz ``ops`` (references) for ``seconds`` in total (wall clock) and/or ``cases`` per op.

    ``workers`` processes run the cases; a call taking more than ``timeout``
    seconds is a hang; ``stop_after``: stop an op after that many crashes or
    hangs (each costs a worker restart). Reproducers of the distinct failures
    are written to ``out_dir``.
    """
    if seconds is None and cases is None:
        cases = 200
    t_start = time.monotonic()
    per_op = None if seconds is None else seconds * max(1, workers) / max(1, len(ops))
    stats = {op: OpStats(op) for op in ops}
    failures: dict[tuple[str, str, str, str], Failure] = {}
    queue: deque[dict[str, Any]] = deque(
        {"op": op, "seed": seed, "start": 0, "stop": cases, "seconds": per_op, "loops": loops, "numba": numba}
        for op in ops
    )
    tmp = tempfile.mkdtemp(prefix="gsfuzz-")
    pool = [_Worker(i, memory_limit, tmp) for i in range(max(1, min(workers, len(ops))))]
    idle = list(pool)
    busy: list[_Worker] = []

    def record(op: str, n: int, res: Outcome) -> None:
        st = stats[op]
        st.calls += 1
        if res.status == "result":
            st.results += 1
        elif res.status == "typed":
            st.typed[res.error] += 1
        else:
            st.failures += 1
            f = Failure(op, n, res.kind, res.error, res.message, res.detail, expect=res.expect)
            if f.key in failures:
                failures[f.key].count += 1
            else:
                failures[f.key] = f
                if log is not None:
                    print(f"FAIL {op} case {n}: {res.describe()}", file=log, flush=True)

    def resume(w: _Worker, next_n: int) -> None:
        """Restart a dead worker and continue its job after the case that killed it."""
        job = dict(w.job or {})
        spent = time.monotonic() - w.job_t0
        w.kill()
        w.start()
        if job.get("seconds") is not None:
            job["seconds"] = max(0.0, job["seconds"] - spent)
        job["start"] = next_n
        more = job.get("stop") is None or next_n < job["stop"]
        if more and job.get("seconds", 1.0) != 0.0 and (stop_after is None or stats[job["op"]].failures < stop_after):
            w.send(job)
        else:
            busy.remove(w)
            idle.append(w)
            w.job = None

    try:
        while queue or busy:
            while queue and idle:
                w = idle.pop()
                w.send(queue.popleft())
                busy.append(w)
            wait = 0.0 if any(b"\n" in w.buf for w in busy) else 0.5
            ready, _, _ = select.select([w.fileno() for w in busy], [], [], wait)
            for w in list(busy):
                if b"\n" in w.buf or w.fileno() in ready:
                    line = w.readline(0.0)
                    assert w.job is not None
                    op = w.job["op"]
                    if line is None:  # the worker died
                        rc = w.proc.wait() if w.proc is not None else None
                        n = w.case if w.case is not None else int(w.job["start"])
                        record(op, n, Outcome("failure", kind="crash", error=_signal_name(rc),
                                              message=f"the worker process died ({_signal_name(rc)})",
                                              detail=w.stderr_tail()))
                        resume(w, n + 1)
                        continue
                    if not line:
                        continue
                    tag, _, rest = line.partition(" ")
                    if tag == "S":
                        w.case = int(rest)
                        w.case_t0 = time.monotonic()
                    elif tag == "R":
                        n_s, _, js = rest.partition(" ")
                        d = json.loads(js)
                        record(op, int(n_s), Outcome(d["status"], d["error"], d["kind"], d["message"], d["detail"],
                                                     d["expect"]))
                        stats[op].seconds = time.monotonic() - w.job_t0
                        w.case = None
                    elif tag == "D":
                        busy.remove(w)
                        idle.append(w)
                        w.job = None
            now = time.monotonic()
            for w in list(busy):
                if w.case is not None and now - w.case_t0 > timeout:
                    assert w.job is not None
                    n = w.case
                    record(w.job["op"], n, Outcome("failure", kind="hang", error="Timeout",
                                                   message=f"no answer within {timeout:g} s (killed)",
                                                   detail=w.stderr_tail()))
                    resume(w, n + 1)
    finally:
        for w in idle:
            w.stop()
        for w in busy:
            w.kill()
    report = Report(seed, time.monotonic() - t_start, stats, list(failures.values()))
    _write_reproducers(report, seed, out_dir)
    return report


def _write_reproducers(report: Report, seed: int, out_dir: str | None) -> None:
    for f in report.failures:
        op = resolve_op(f.op)
        case = generate(f.op, op, seed, f.case)
        header = (
            f"gatherscatter fuzz: {f.op}, seed {seed}, case {f.case} ({case.kind}); "
            f"{f.count} case(s) with this failure\n{f.kind}: " + (f"{f.error}: " if f.error else "") + f.message
        )
        f.reproducer = reproducer(f.op, case.args, case.kwargs, header=header,
                                  expect=f.expect if f.expect != "any" else case.expect)
        if out_dir:
            path = Path(out_dir)
            path.mkdir(parents=True, exist_ok=True)
            name = f"{f.op.replace(':', '_').replace('/', '_')}-{f.kind}-{f.case}.py"
            (path / name).write_text(f.reproducer)
            f.path = str(path / name)


# ------------------------------------------------------------------------------ tables


def _columns(report: Report) -> list[str]:
    seen = {c for s in report.stats.values() for c in s.typed}
    return [c for c in TYPED if c in seen] + sorted(seen - set(TYPED))


def _short(cls: str) -> str:
    return cls.replace("Error", "").replace("IndexOutOfRange", "IndexOOR")


def table_rows(report: Report) -> tuple[list[str], list[list[str]]]:
    """Header and rows of the counts table (one row per op and a total row)."""
    cols = _columns(report)
    head = ["op", "calls", "results", *(_short(c) for c in cols), "failures"]
    rows = []
    tot: Counter[str] = Counter()
    for s in report.stats.values():
        rows.append([s.op, str(s.calls), str(s.results), *(str(s.typed.get(c, 0)) for c in cols), str(s.failures)])
        tot["calls"] += s.calls
        tot["results"] += s.results
        tot["failures"] += s.failures
        for c in cols:
            tot[c] += s.typed.get(c, 0)
    rows.append(["total", str(tot["calls"]), str(tot["results"]), *(str(tot[c]) for c in cols), str(tot["failures"])])
    return head, rows


def text_table(report: Report) -> str:
    """The counts table as aligned plain text."""
    head, rows = table_rows(report)
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    fmt = [f"{{:<{widths[0]}}}"] + [f"{{:>{w}}}" for w in widths[1:]]
    lines = ["  ".join(f.format(c) for f, c in zip(fmt, r, strict=True)) for r in [head, *rows]]
    lines.insert(1, "  ".join("-" * w for w in widths))
    lines.insert(len(lines) - 1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def markdown_table(report: Report) -> str:
    """The counts table as Markdown."""
    head, rows = table_rows(report)
    out = ["| " + " | ".join(head) + " |", "|" + "|".join([" --- "] + [" ---: "] * (len(head) - 1)) + "|"]
    for r in rows:
        cells = [f"**{c}**" if r[0] == "total" else c for c in r]
        out.append("| " + " | ".join(cells) + " |")
    return "\n".join(out)


def print_report(report: Report, stream: IO[str], *, use_rich: bool | None = None) -> None:
    """The counts table (rich when installed and ``stream`` is a terminal), then each distinct failure."""
    if use_rich is None:
        use_rich = stream.isatty()
    printed = False
    if use_rich:
        try:
            from rich.console import Console
            from rich.table import Table
        except ImportError:
            pass
        else:
            head, rows = table_rows(report)
            t = Table(title=f"gatherscatter fuzz: seed {report.seed}, {report.seconds:.0f} s")
            for i, h in enumerate(head):
                t.add_column(h, justify="left" if i == 0 else "right")
            for r in rows:
                style = "bold red" if r[-1] != "0" else ("bold" if r[0] == "total" else None)
                t.add_row(*r, style=style)
            Console(file=stream).print(t)
            printed = True
    if not printed:
        print(f"gatherscatter fuzz: seed {report.seed}, {report.seconds:.0f} s", file=stream)
        print(text_table(report), file=stream)
    for f in report.failures:
        print(f"\n=== FAILURE {f.op} case {f.case}: {f.kind}: {f.error}: {f.message} "
              f"({f.count} case(s) like it)", file=stream)
        if f.detail:
            print(f.detail.rstrip()[-1500:], file=stream)
        if f.path:
            print(f"--- reproducer ({f.path}):", file=stream)
        print(f.reproducer, file=stream)
    n = report.failure_count
    print(f"\n{report.calls} calls, {n} failures ({len(report.failures)} distinct)", file=stream)
