"""Full-text and vector search of relate against SQLite FTS5, bm25s, numpy and usearch, and a
retrieval-quality figure, in one run.

    .venv/bin/python bench/search.py [--docs 50000] [--vectors 20000] [--rounds 7] [--out bench/results/search.md]

1. Full text: a seeded Zipf corpus (`--docs` documents of 20 to 80 words over 20,000 made-up
   words) in :Doc {text}.  Declaring the index and its first search (the build), then 1,000
   single-node updates each followed by a search (the incremental cost), and the median latency
   of top-10 OR queries of three rare words and of three common words, for relate's declared
   index, SQLite FTS5 (`ORDER BY bm25(...)`, stdlib sqlite3) and bm25s (numpy/scipy, in the
   project's test dependencies).  relate's top 10 is checked equal (as a set) to FTS5's.
2. Vectors: `--vectors` x 384 clustered vectors in :Item {emb}; top-10 latency of relate's
   exact path (numpy), exact pure-Python path and pruned path, numpy brute force, and usearch's
   HNSW (run in bench/.venv-peers, pinned in requirements-peers.txt); recall@10 of every
   approximate path against the exact answer.
3. Quality: a generated question/answer corpus (2,000 short profiles, questions in other word
   forms and with typos); recall@5 of BM25 alone, the hashing embedder alone, and both fused by
   reciprocal rank (RRF, k = 60 and k = 1); with the sentence model `static-model` too where its
   package is installed.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import relate  # noqa: E402
import relate.search.vectors as V  # noqa: E402
from relate.search import embedder as embedders  # noqa: E402
from relate.search.embedder import HashingEmbedder  # noqa: E402

SYL = ["ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "ze", "qu", "ba", "do", "fe", "gi", "ho", "pa", "xe", "ju"]


def log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def median_ms(fn, rounds: int, clock=time.perf_counter) -> float:
    fn()
    times = []
    for _ in range(rounds):
        t0 = clock()
        fn()
        times.append(clock() - t0)
    return statistics.median(times) * 1000


def median_cpu_ms(fn, rounds: int) -> float:
    """The process's CPU time per call: what the call costs without the waits a loaded machine adds."""
    return median_ms(fn, rounds, time.process_time)


# ---------------------------------------------------------------- full text

def corpus(n: int, seed: int = 1):
    rnd = random.Random(seed)
    words: dict[str, None] = {}
    while len(words) < 20000:
        words["".join(rnd.choice(SYL) for _ in range(rnd.randint(2, 5)))] = None
    vocab = list(words)
    weights = [1.0 / (r + 1) ** 1.07 for r in range(len(vocab))]
    docs = [" ".join(rnd.choices(vocab, weights, k=rnd.randint(20, 80))) for _ in range(n)]
    return vocab, docs


def fulltext(n_docs: int, rounds: int) -> dict:
    vocab, docs = corpus(n_docs)
    rnd = random.Random(2)
    df: dict[str, int] = {}
    for d in docs:
        for w in set(d.split()):
            df[w] = df.get(w, 0) + 1
    ranked = sorted(df, key=lambda w: -df[w])
    rare_pool = [w for w in ranked if 20 <= df[w] <= 200]
    rare = [" ".join(rnd.sample(rare_pool, 3)) for _ in range(20)]
    common = [" ".join(rnd.sample(ranked[:15], 3)) for _ in range(20)]
    out: dict = {"docs": n_docs, "rare_postings": statistics.median(sum(df[w] for w in q.split()) for q in rare),
                 "common_postings": statistics.median(sum(df[w] for w in q.split()) for q in common)}

    log(f"full text: loading {n_docs} docs into relate")
    db = relate.connect(":memory:")
    db.execute("CREATE INDEX FOR (d:Doc) ON (d.i)")
    for i in range(0, n_docs, 5000):
        db.execute("UNWIND range($a, $b - 1) AS i CREATE (:Doc {i: i, text: $docs[i - $a]})",
                   {"a": i, "b": min(n_docs, i + 5000), "docs": docs[i:i + 5000]})
    t0 = time.perf_counter()
    db.create_fulltext_index("Doc", "text")
    db.fulltext_search("Doc", "text", rare[0])
    out["relate_build_s"] = time.perf_counter() - t0

    con = sqlite3.connect(":memory:")
    t0 = time.perf_counter()
    con.execute("CREATE VIRTUAL TABLE d USING fts5(text)")
    con.executemany("INSERT INTO d(rowid, text) VALUES (?, ?)", enumerate(docs))
    con.commit()
    out["fts5_build_s"] = time.perf_counter() - t0

    import bm25s
    t0 = time.perf_counter()
    bm = bm25s.BM25(method="lucene", k1=1.2, b=0.75)
    bm.index([d.split() for d in docs], show_progress=False)
    out["bm25s_build_s"] = time.perf_counter() - t0

    ids = dict(db.execute("MATCH (d:Doc) RETURN d.i, id(d)").rows)
    back = {v: k for k, v in ids.items()}

    def fts(q):
        return con.execute("SELECT rowid FROM d WHERE d MATCH ? ORDER BY bm25(d) LIMIT 10",
                           (" OR ".join(q.split()),)).fetchall()

    for name, qs in (("rare", rare), ("common", common)):
        agree = 0
        for q in qs:
            mine = {back[h["node_id"]] for h in db.fulltext_search("Doc", "text", q, 10)["hits"]}
            agree += mine == {r[0] for r in fts(q)}
        out[f"agree_with_fts5_{name}"] = f"{agree}/{len(qs)}"

    for name, qs in (("rare", rare), ("common", common)):
        out[f"relate_{name}_ms"] = statistics.median(
            median_ms(lambda q=q: db.fulltext_search("Doc", "text", q, 10), rounds) for q in qs[:8])
        out[f"fts5_{name}_ms"] = statistics.median(median_ms(lambda q=q: fts(q), rounds) for q in qs[:8])
        out[f"bm25s_{name}_ms"] = statistics.median(
            median_ms(lambda q=q: bm.retrieve([q.split()], k=10, show_progress=False), rounds) for q in qs[:8])

    # incremental upkeep: one node's text changes, then a search catches the index up
    log("full text: incremental updates")
    n_up = 1000
    texts = [docs[(i * 7919) % n_docs] for i in range(n_up)]
    t0 = time.perf_counter()
    for i in range(n_up):
        db.execute("MATCH (d:Doc {i: $i}) SET d.text = $t", {"i": i, "t": texts[i]})
    t_write = time.perf_counter() - t0
    plain = relate.connect(":memory:")
    plain.execute("CREATE INDEX FOR (d:Doc) ON (d.i)")
    plain.execute("UNWIND range(0, $n - 1) AS i CREATE (:Doc {i: i, text: ''})", {"n": n_up})
    t0 = time.perf_counter()
    for i in range(n_up):
        plain.execute("MATCH (d:Doc {i: $i}) SET d.text = $t", {"i": i, "t": texts[i]})
    t_plain = time.perf_counter() - t0
    t0 = time.perf_counter()
    for i in range(n_up):
        db.execute("MATCH (d:Doc {i: $i}) SET d.text = $t", {"i": i, "t": texts[-1 - i]})
        db.fulltext_search("Doc", "text", rare[i % len(rare)], 10)
    t_both = time.perf_counter() - t0
    t0 = time.perf_counter()
    for i in range(n_up):
        con.execute("UPDATE d SET text = ? WHERE rowid = ?", (texts[i], i))
        con.commit()
    t_fts = time.perf_counter() - t0
    out["relate_update_write_ms"] = t_write / n_up * 1000
    out["relate_update_plain_write_ms"] = t_plain / n_up * 1000
    out["relate_update_write_and_search_ms"] = t_both / n_up * 1000
    out["fts5_update_ms"] = t_fts / n_up * 1000
    db.close()
    return out


# ---------------------------------------------------------------- vectors

def vectors(n: int, rounds: int, dim: int = 384) -> dict:
    rnd = random.Random(3)
    centers = [[rnd.gauss(0, 1) for _ in range(dim)] for _ in range(max(10, n // 100))]
    vecs = [[c + rnd.gauss(0, 0.6) for c in rnd.choice(centers)] for _ in range(n)]
    queries = [[c + rnd.gauss(0, 0.6) for c in rnd.choice(centers)] for _ in range(20)]
    log(f"vectors: loading {n} x {dim}")
    db = relate.connect(":memory:")
    for i in range(0, n, 2000):
        db.execute("UNWIND $vs AS v CREATE (:Item {emb: v})", {"vs": vecs[i:i + 2000]})
    t0 = time.perf_counter()
    db.vector_search("Item", "emb", queries[0], k=10)
    out: dict = {"n": n, "dim": dim, "relate_column_build_s": time.perf_counter() - t0}
    exact = [[h["node_id"] for h in db.vector_search("Item", "emb", q, k=10)["hits"]] for q in queries]

    def recall(got_lists):
        return statistics.mean(len(set(g) & set(e)) / 10 for g, e in zip(got_lists, exact))

    out["relate_exact_numpy_ms"] = statistics.median(
        median_ms(lambda q=q: db.vector_search("Item", "emb", q, k=10), rounds) for q in queries[:5])
    out["relate_pruned_ms"] = statistics.median(
        median_ms(lambda q=q: db.vector_search("Item", "emb", q, k=10, method="pruned"), rounds) for q in queries[:5])
    out["relate_pruned_cpu_ms"] = statistics.median(
        median_cpu_ms(lambda q=q: db.vector_search("Item", "emb", q, k=10, method="pruned"), rounds)
        for q in queries[:5])
    out["load_vectors"] = os.getloadavg()[0]
    out["relate_pruned_recall10"] = recall(
        [[h["node_id"] for h in db.vector_search("Item", "emb", q, k=10, method="pruned")["hits"]] for q in queries])
    keep = V._numpy
    V._numpy = lambda: None
    out["relate_exact_python_ms"] = statistics.median(
        median_ms(lambda q=q: db.vector_search("Item", "emb", q, k=10), 2) for q in queries[:3])
    V._numpy = keep
    import numpy as np
    m = np.array(vecs, dtype=np.float32)
    m /= np.linalg.norm(m, axis=1, keepdims=True)

    def brute(q):
        s = m @ (np.asarray(q, dtype=np.float32) / np.linalg.norm(q))
        top = np.argpartition(-s, 10)[:10]
        return top[np.argsort(-s[top])]
    out["numpy_brute_ms"] = statistics.median(median_ms(lambda q=q: brute(q), rounds) for q in queries[:5])
    out["usearch"] = usearch_peer(m, np.asarray(queries, dtype=np.float32), exact, rounds)
    return out


def usearch_peer(m, qs, exact, rounds: int) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        import numpy as np
        np.save(Path(tmp) / "m.npy", m)
        np.save(Path(tmp) / "q.npy", qs)
        (Path(tmp) / "exact.json").write_text(json.dumps(exact))
        try:
            import usearch  # noqa: F401
            python = sys.executable
        except ImportError:
            from run import PEERS_PY, ensure_peers
            ensure_peers()
            python = str(PEERS_PY)
        proc = subprocess.run([python, __file__, "--usearch-child", tmp, "--rounds", str(rounds)],
                              capture_output=True, text=True)
        if proc.returncode:
            return {"error": proc.stderr.strip().splitlines()[-1:]}
        return json.loads(proc.stdout)


def usearch_child(tmp: str, rounds: int) -> None:
    import numpy as np
    from usearch.index import Index
    m = np.load(Path(tmp) / "m.npy")
    qs = np.load(Path(tmp) / "q.npy")
    exact = json.loads((Path(tmp) / "exact.json").read_text())
    t0 = time.perf_counter()
    index = Index(ndim=m.shape[1], metric="cos", dtype="f32")
    index.add(np.arange(len(m)), m)
    build = time.perf_counter() - t0
    got = [list(index.search(q, 10).keys) for q in qs]
    rec = statistics.mean(len(set(map(int, g)) & set(e)) / 10 for g, e in zip(got, exact))
    ms = statistics.median(median_ms(lambda q=q: index.search(q, 10), rounds) for q in qs[:5])
    print(json.dumps({"build_s": build, "top10_ms": ms, "recall10": rec}))


# ---------------------------------------------------------------- quality

JOBS = ["photographer", "carpenter", "teacher", "gardener", "painter", "baker", "engineer", "designer",
        "programmer", "singer", "dancer", "farmer", "writer", "translator", "plumber", "electrician",
        "surgeon", "pharmacist", "librarian", "sculptor", "architect", "journalist", "mechanic", "pilot"]
HOBBIES = ["hiking", "fishing", "knitting", "cycling", "climbing", "gardening", "sailing", "running",
           "painting", "skating", "swimming", "rowing", "baking", "camping", "reading", "drawing"]
CITIES = ["Lisbon", "Oslo", "Krakow", "Dublin", "Porto", "Lyon", "Munich", "Vienna", "Prague", "Seville",
          "Bergen", "Ghent", "Turin", "Malmo", "Tallinn", "Riga", "Basel", "Leeds", "Cork", "Graz"]
FORMS = {"photographer": "photography", "carpenter": "carpentry", "teacher": "teaching", "gardener": "gardens",
         "painter": "paints", "baker": "bakery", "engineer": "engineering", "designer": "designs",
         "programmer": "programming", "singer": "singing", "dancer": "dancing", "farmer": "farming",
         "writer": "writing", "translator": "translation", "plumber": "plumbing", "electrician": "electrical",
         "surgeon": "surgery", "pharmacist": "pharmacy", "librarian": "library", "sculptor": "sculpture",
         "architect": "architecture", "journalist": "journalism", "mechanic": "mechanics", "pilot": "piloting"}


def typo(rnd, w: str) -> str:
    i = rnd.randrange(1, len(w) - 1)
    return w[:i] + w[i + 1] + w[i] + w[i + 2:]


def quality() -> dict:
    rnd = random.Random(4)
    emb = HashingEmbedder()
    profiles, questions = [], []
    for i in range(2000):
        name = "".join(rnd.choice(SYL) for _ in range(3)).title()
        job, hobby, city = rnd.choice(JOBS), rnd.choice(HOBBIES), rnd.choice(CITIES)
        profiles.append(f"{name} works as a {job} in {city} and spends weekends {hobby}.")
        kind = i % 4
        if kind == 0:      # the profile's own words
            questions.append((f"{job} in {city} who likes {hobby}", i))
        elif kind == 1:    # another word form for the job
            questions.append((f"who does {FORMS[job]} in {city} and {hobby}", i))
        elif kind == 2:    # a typo in the job and the hobby
            questions.append((f"{typo(rnd, job)} {city} {typo(rnd, hobby)}", i))
        else:              # the name, misspelt, and the city
            questions.append((f"{typo(rnd, name.lower())} from {city}", i))
    db = relate.connect(":memory:")
    db.execute("UNWIND range(0, size($p) - 1) AS i CREATE (:Profile {i: i, text: $p[i], emb: $e[i]})",
               {"p": profiles, "e": emb.embed(profiles)})
    ids = dict(db.execute("MATCH (p:Profile) RETURN id(p), p.i").rows)
    model = embedders.get("static-model")   # the sentence model, where its package is installed
    if model is not None:
        db.execute("MATCH (p:Profile) SET p.sem = $e[p.i]", {"e": model.embed(profiles)})
    rec: dict[str, list[int]] = {"bm25": [], "vector": [], "rrf60": [], "rrf1": []}
    if model is not None:
        rec.update({"model": [], "model_rrf60": [], "all_rrf60": []})

    def fuse(lists, c: int) -> list[int]:
        fused: dict[int, float] = {}
        for lst in lists:
            for r, d in enumerate(lst):
                fused[d] = fused.get(d, 0.0) + 1.0 / (c + r + 1)
        return sorted(fused, key=lambda d: (-fused[d], d))[:5]

    for q, gold in questions:
        kw = [ids[h["node_id"]] for h in db.fulltext_search("Profile", "text", q, 50)["hits"]]
        vec = [ids[h["node_id"]] for h in db.vector_search("Profile", "emb", query_text=q, k=50)["hits"]]
        rec["bm25"].append(gold in kw[:5])
        rec["vector"].append(gold in vec[:5])
        rec["rrf60"].append(gold in fuse((kw, vec), 60))
        rec["rrf1"].append(gold in fuse((kw, vec), 1))
        if model is not None:
            sem = [ids[h["node_id"]] for h in db.vector_search("Profile", "sem", query_text=q, k=50,
                                                               embedder="static-model")["hits"]]
            rec["model"].append(gold in sem[:5])
            rec["model_rrf60"].append(gold in fuse((kw, sem), 60))
            rec["all_rrf60"].append(gold in fuse((kw, vec, sem), 60))
    return {"questions": len(questions), **{k: sum(v) / len(v) for k, v in rec.items()}}


# ---------------------------------------------------------------- report

def report(ft: dict, vec: dict, q: dict) -> str:
    u = vec["usearch"]
    lines = [
        "# Search: relate against SQLite FTS5, bm25s, numpy and usearch",
        "",
        f"`bench/search.py`, one run on {platform.python_implementation()} {platform.python_version()}, "
        f"{os.cpu_count()} cores ({time.strftime('%Y-%m-%d')}); medians of warm runs; load average "
        f"{os.getloadavg()[0]:.1f} at the end of the run (other work on the machine slows every column alike).",
        "",
        f"## Full text, {ft['docs']:,} documents (20 to 80 words, Zipf over 20,000 words)",
        "",
        f"Top-10 OR queries of three words: rare (median {ft['rare_postings']:,.0f} postings in all) and "
        f"common (median {ft['common_postings']:,.0f}).  relate's top 10 equals FTS5's (as sets) in "
        f"{ft['agree_with_fts5_rare']} rare and {ft['agree_with_fts5_common']} common queries: FTS5's idf is "
        "ln((N - n + 0.5) / (n + 0.5)), floored at 1e-6 for a word in more than half the documents, where "
        "relate (as Lucene and bm25s) adds 1 inside the logarithm, so the two rank common words apart.",
        "",
        "| | relate (declared index) | SQLite FTS5 | bm25s | relate / FTS5 |",
        "|---|---:|---:|---:|---:|",
        f"| rare terms, ms | {ft['relate_rare_ms']:.2f} | {ft['fts5_rare_ms']:.2f} | {ft['bm25s_rare_ms']:.2f} | "
        f"{ft['relate_rare_ms'] / ft['fts5_rare_ms']:.2f}x |",
        f"| common terms, ms | {ft['relate_common_ms']:.2f} | {ft['fts5_common_ms']:.2f} | {ft['bm25s_common_ms']:.2f} | "
        f"{ft['relate_common_ms'] / ft['fts5_common_ms']:.2f}x |",
        f"| index build, s | {ft['relate_build_s']:.2f} | {ft['fts5_build_s']:.2f} | {ft['bm25s_build_s']:.2f} | "
        f"{ft['relate_build_s'] / ft['fts5_build_s']:.2f}x |",
        "",
        f"Incremental upkeep, per update of one document's text: relate's `SET` statement with the index "
        f"{ft['relate_update_write_ms']:.3f} ms (the same statement with no index: "
        f"{ft['relate_update_plain_write_ms']:.3f} ms), and a `SET` followed by a search that catches the index "
        f"up {ft['relate_update_write_and_search_ms']:.3f} ms; FTS5 `UPDATE` + commit {ft['fts5_update_ms']:.3f} ms.",
        "",
        f"Target, full text within 3x of FTS5 on rare terms: "
        f"{'met' if ft['relate_rare_ms'] <= 3 * ft['fts5_rare_ms'] else 'missed'} "
        f"({ft['relate_rare_ms'] / ft['fts5_rare_ms']:.2f}x).",
        "",
        f"## Vectors, {vec['n']:,} x {vec['dim']} (clustered), top 10",
        "",
        "| path | ms | recall@10 |",
        "|---|---:|---:|",
        f"| relate exact (numpy) | {vec['relate_exact_numpy_ms']:.2f} | 1.000 |",
        f"| relate exact, pure Python (int8 bound, then floats) | {vec['relate_exact_python_ms']:.1f} | 1.000 |",
        f"| relate pruned (sign bits, then int8 copies, then floats), pure Python | {vec['relate_pruned_ms']:.2f} "
        f"(CPU {vec['relate_pruned_cpu_ms']:.2f}) | {vec['relate_pruned_recall10']:.3f} |",
        f"| numpy brute force (float32) | {vec['numpy_brute_ms']:.2f} | 1.000 |",
    ]
    if "error" in u:
        lines.append(f"| usearch HNSW | error: {u['error']} | |")
    else:
        lines.append(f"| usearch HNSW (build {u['build_s']:.2f} s) | {u['top10_ms']:.3f} | {u['recall10']:.3f} |")
    lines += [
        "",
        f"relate builds its vector column on the first search ({vec['relate_column_build_s']:.2f} s here) and "
        "keeps it up to date from then on.  The pruned path scores the 256 vectors whose sign bits are nearest "
        "the query's by their int8 copies (one `math.dist` call each, in C), and only the best 40 of those in "
        "floats.  Target, pure-Python path under 20 ms: "
        f"{'met' if vec['relate_pruned_ms'] < 20 else 'missed'} ({vec['relate_pruned_ms']:.1f} ms wall, pruned, "
        f"at load average {vec['load_vectors']:.1f}; {vec['relate_pruned_cpu_ms']:.1f} ms of CPU time, about what "
        "an idle machine takes).",
        "",
        f"## Retrieval quality, {q['questions']:,} generated questions over 2,000 profiles",
        "",
        "A quarter of the questions use the profile's own words, a quarter another form of the job word "
        "(photography for photographer), a quarter a typo in two words, a quarter a misspelt name.",
        "",
        "| ranking | recall@5 |",
        "|---|---:|",
        f"| BM25 alone (default analyzer) | {q['bm25']:.3f} |",
        f"| vectors alone (hashing embedder) | {q['vector']:.3f} |",
        f"| both, RRF k = 60 | {q['rrf60']:.3f} |",
        f"| both, RRF k = 1 | {q['rrf1']:.3f} |",
    ]
    if "model" in q:
        lines += [
            f"| vectors alone (static-model, 64 dimensions) | {q['model']:.3f} |",
            f"| BM25 + static-model, RRF k = 60 | {q['model_rrf60']:.3f} |",
            f"| BM25 + hashing + static-model, RRF k = 60 | {q['all_rrf60']:.3f} |",
        ]
    lines += [
        "",
        "The hashing embedder shares character n-grams, so it finds word forms and typos that BM25's whole "
        "words miss; it knows no meaning (no synonyms).",
    ]
    return "\n".join(lines) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--docs", type=int, default=50000)
    ap.add_argument("--vectors", type=int, default=20000)
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--out", default=str(HERE / "results" / "search.md"))
    ap.add_argument("--usearch-child")
    a = ap.parse_args()
    if a.usearch_child:
        usearch_child(a.usearch_child, a.rounds)
        return
    ft = fulltext(a.docs, a.rounds)
    log(json.dumps(ft))
    vec = vectors(a.vectors, a.rounds)
    log(json.dumps(vec))
    q = quality()
    log(json.dumps(q))
    text = report(ft, vec, q)
    print(text)
    if a.out:
        Path(a.out).write_text(text)


if __name__ == "__main__":
    main()
