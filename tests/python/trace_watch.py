"""The kernel language's line watcher (python/tessera/lang/_trace.py, FrameWatcher) on Python 3.12
and later, without the package's extension module: its sys.monitoring backend must report the
lines sys.settrace reports (values are named at those lines), for loops on one line and on several,
comprehensions, while loops, nested watchers, a watched function called twice and one that raises.
CI's Python is 3.11 (settrace only), so tests/python/CMakeLists.txt runs this file with a 3.12+
interpreter where one is installed (python.trace_watch); exit 77 (skip) on an older Python.

    python3.12 tests/python/trace_watch.py
"""

import importlib.util
import os
import pathlib
import sys

if sys.version_info < (3, 12):
    print(f"SKIP: sys.monitoring is Python 3.12's; this is {sys.version.split()[0]}")
    sys.exit(77)

ROOT = pathlib.Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("tessera_trace", ROOT / "python" / "tessera" / "lang" / "_trace.py")
trace = importlib.util.module_from_spec(spec)
spec.loader.exec_module(trace)


def loops():
    s = 0
    for i in range(3): s += i  # noqa: E701
    t = [i * i for i in range(3)]
    while s < 10: s += 1  # noqa: E701
    for j in range(2):
        s += j
    return s + len(t)


def inner():
    x = 1
    for k in range(2): x += k  # noqa: E701
    return x


def outer():
    a = traced_inner()
    b = traced_inner()
    return a + b


def traced_inner():
    # as the tracer nests them: the kernel's watcher entered while the launch function runs
    with trace.FrameWatcher(inner.__code__, lambda frame, line: SEEN.append(("inner", line - inner.__code__.co_firstlineno))):
        return inner()


SEEN = []


def raises():
    y = 1
    raise ValueError(y)


def watch(fns, call, settrace):
    """Line events of every function of ``fns``, watched at once (nested watchers), while ``call``
    runs: [(function name, line within it), ...]."""
    if settrace:
        os.environ["TESSERA_TRACE_WITH_SETTRACE"] = "1"
    else:
        os.environ.pop("TESSERA_TRACE_WITH_SETTRACE", None)
    seen, modes = SEEN, []
    seen.clear()
    watchers = [
        trace.FrameWatcher(f.__code__, lambda frame, line, f=f: seen.append((f.__name__, line - f.__code__.co_firstlineno)))
        for f in fns
    ]
    try:
        for w in watchers:
            w.__enter__()
            modes.append(w.monitoring)
        try:
            call()
        except ValueError:
            pass
    finally:
        for w in reversed(watchers):
            w.__exit__(None, None, None)
    return list(seen), modes


failures = 0
for name, fns, call in [
    ("loops", [loops], loops),
    ("nested watchers", [outer], outer),
    ("a function that raises", [raises], raises),
]:
    mon, mon_modes = watch(fns, call, settrace=False)
    st, st_modes = watch(fns, call, settrace=True)
    ok = mon == st and all(mon_modes) and not any(st_modes) and mon
    failures += not ok
    print(f"{'ok  ' if ok else 'FAIL'} {name}: sys.monitoring {mon_modes} {mon}\n     settrace {st_modes} {st}")

# The loop on one line is reported at each of its passes (3 + 1), as settrace reports it.
seen, _ = watch([loops], loops, settrace=False)
if seen.count(("loops", 2)) != 4:
    print(f"FAIL one-line loop: line 2 reported {seen.count(('loops', 2))} times, not 4")
    failures += 1
# Nothing stays registered: the tool id is free again, and no watcher is left.
if trace._Monitoring.tool is not None or trace._Monitoring.watchers:
    print("FAIL the monitoring tool id or a watcher outlived the watch")
    failures += 1
sys.exit(1 if failures else 0)
