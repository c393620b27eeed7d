"""An engine and a graph -> checked answers and warm median timings, as one plain dict.

The order is fixed: load (timed once), then for each read query every parameter set is answered
and compared with the expected (floor's) answers, and only a query whose answers all match is
warmed up (0.3 s of untimed calls) and timed.  A sample is a batch of repeated calls long enough
(>= 5 ms) that a coarse clock, as in a browser, still measures it; its time per call is the batch
time divided by the calls.  The median of the samples is reported.  Writes between reads (Q1s_w,
Q4_w, Q5_w and the update variants Q*_wu, `queries.MIXED_QUERIES`) come after the reads: one call
is a single-node write and then the read, its answers checked against the floor's answers of the
plain read (the writes leave them unchanged).  Writes come last since they grow the graph: Q8_one is the wall time
of 1,000 single-statement CREATEs, Q8_unwind of one UNWIND statement creating 1,000 nodes (each
after one untimed round of the same writes).
Runs unchanged inside Pyodide (no process or OS calls here; memory is measured by the caller).
"""
from __future__ import annotations

import statistics
import time

from graphgen import write_rows
from queries import MIXED_QUERIES, READ_QUERIES, UPDATE_QUERIES, canonical, mixed_base

MIN_BATCH_S = 0.005
WARMUP_S = 0.3


def answers(engine, graph, query: str) -> list:
    params = graph.params[query]
    return [canonical(query, engine.query(query, p)) for p in params]


class _Mixed:
    """A writes-between-reads query as an engine of its own: each `query` call writes one node
    (another label's, or a :Person's age to the value it holds) and then runs the read."""

    def __init__(self, engine, graph, query: str) -> None:
        self.read, variant = mixed_base(query)
        self.engine = engine
        persons = graph.persons
        self.n = 0
        if variant == "other":
            base = 100 * (len(persons) + len(graph.posts))  # past every id the graph and Q8 use
            self.write = lambda k: engine.write_other(base + k, f"w{k}")
        else:
            def update(k: int) -> None:
                pid, _name, age, _city = persons[(k * 7919) % len(persons)]
                engine.write_update(pid, age)
            self.write = update

    def query(self, _name: str, params: dict) -> list[tuple]:
        self.n += 1
        self.write(self.n)
        return self.engine.query(self.read, params)


def time_query(engine, params: list[dict], query: str, budget: float, min_samples: int = 5,
               max_samples: int = 60) -> float:
    clock = time.perf_counter
    # warm-up, untimed: caches fill, and a browser's WebAssembly engine moves the interpreter's
    # hot functions from its baseline compiler to its optimizing one (which takes a moment)
    until = clock() + WARMUP_S
    i = 0
    while clock() < until:
        engine.query(query, params[i % len(params)])
        i += 1
    # the batch size is found by timing whole batches until one lasts MIN_BATCH_S, not from one
    # call: a single call can hit a collector pass (long at scale M), and a coarse browser clock
    # (100 us ticks) reads most single calls as zero; either made a batch of one call, whose
    # samples were then a tick or nothing
    calls = 1
    while True:
        t0 = clock()
        for _ in range(calls):
            engine.query(query, params[i % len(params)])
            i += 1
        took = clock() - t0
        if took >= MIN_BATCH_S:
            break
        calls = calls * 8 if took <= 0 else max(calls + 1, int(calls * MIN_BATCH_S * 1.2 / took) + 1)
    once = took / calls
    if once > budget / 5:   # seconds per call (grand-cypher): three samples are all we can afford
        min_samples = 3
    samples: list[float] = []
    deadline = clock() + budget
    while len(samples) < min_samples or (clock() < deadline and len(samples) < max_samples):
        p = params[len(samples) % len(params)]
        t0 = clock()
        for _ in range(calls):
            engine.query(query, p)
        samples.append((clock() - t0) / calls)
    return statistics.median(samples)


def run(engine, graph, expected: dict | None, *, budget: float = 1.0,
        write_repeats: int = 5, after_load=None) -> dict:
    """`expected` maps query -> list of answers (None: this engine is the reference)."""
    out: dict = {"engine": engine.name, "times": {}, "status": {}, "answers": {}, "extra": {}}
    t0 = time.perf_counter()
    engine.load(graph)
    out["times"]["load"] = time.perf_counter() - t0
    out["status"]["load"] = "ok"
    if after_load is not None:
        after_load(engine, out)
    for q in READ_QUERIES:
        if q not in engine.supports:
            out["status"][q] = "unsupported"
            continue
        try:
            got = answers(engine, graph, q)
        except Exception as e:  # an engine refusing a query is a finding, not a harness failure
            out["status"][q] = f"error: {type(e).__name__}: {str(e)[:160]}"
            continue
        out["answers"][q] = got
        if expected is not None and got != expected[q]:
            i = next(i for i, (a, b) in enumerate(zip(got, expected[q])) if a != b)
            out["status"][q] = (f"wrong answer: {_short(got[i])} where the floor has "
                                f"{_short(expected[q][i])}, parameters {graph.params[q][i]}")
            continue
        params = graph.params[q]
        out["times"][q] = time_query(engine, params, q, budget)
        out["status"][q] = "ok"
    _mixed(engine, graph, expected, out, budget)
    _writes(engine, graph, out, write_repeats)
    return out


def _mixed(engine, graph, expected: dict | None, out: dict, budget: float) -> None:
    for q in MIXED_QUERIES + UPDATE_QUERIES:
        read, _ = mixed_base(q)
        if read not in engine.supports or not hasattr(engine, "write_other"):
            out["status"][q] = "unsupported"
            continue
        mixed = _Mixed(engine, graph, q)
        try:
            got = [canonical(read, mixed.query(q, p)) for p in graph.params[read]]
        except Exception as e:  # as for a read: a finding, not a harness failure
            out["status"][q] = f"error: {type(e).__name__}: {str(e)[:160]}"
            continue
        want = expected[read] if expected is not None else out["answers"].get(read)
        if got != want:
            out["status"][q] = "wrong answer: differs from the plain read's, after a write"
            continue
        out["times"][q] = time_query(mixed, graph.params[read], q, budget)
        out["status"][q] = "ok"


def _short(value) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _writes(engine, graph, out: dict, repeats: int) -> None:
    base = 10 * len(graph.persons) + 10 * len(graph.posts)
    for q, write in (("Q8_one", engine.write_one), ("Q8_unwind", engine.write_unwind)):
        samples = []
        try:
            for k in range(repeats + 1):  # the first round warms up and is not timed
                rows = write_rows(graph, base)
                t0 = time.perf_counter()
                write(rows)
                if k:
                    samples.append(time.perf_counter() - t0)
                made = engine.count_range(base, base + len(rows))
                if made != len(rows):
                    out["status"][q] = f"wrong answer: {made} of {len(rows)} nodes written"
                    break
                base += len(rows)
            else:
                out["times"][q] = statistics.median(samples)
                out["status"][q] = "ok"
        except Exception as e:
            out["status"][q] = f"error: {type(e).__name__}: {str(e)[:160]}"
