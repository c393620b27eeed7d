"""The graph -> plain CPython dicts and lists, and each query hand-written against them.

This is the floor a pure-Python engine can approach: no parsing, no planning, no generic row
machinery, just the loops a programmer would write for each question.  Its answers are the
reference every other engine is checked against.
"""
from __future__ import annotations

import heapq
from collections import Counter

from queries import READ_QUERIES


class Engine:
    name = "floor"
    supports = READ_QUERIES

    def load(self, g) -> None:
        self.props: list[dict] = []           # node slot -> property map
        self.labels: list[str] = []
        self.out: list[list[tuple[int, int]]] = []   # node slot -> [(rel slot, target slot)]
        self.rel_props: list[dict] = []
        self.rel_types: list[str] = []
        self.by_id: dict[int, int] = {}       # the index on :Person(id)
        self.post_by_id: dict[int, int] = {}
        for pid, name, age, city in g.persons:
            self.by_id[pid] = self._node("Person", {"id": pid, "name": name, "age": age, "city": city})
        for pid, title in g.posts:
            self.post_by_id[pid] = self._node("Post", {"id": pid, "title": title})
        for a, b, since in g.knows:
            self._rel(self.by_id[a], self.by_id[b], "KNOWS", {"since": since})
        for a, b in g.created:
            self._rel(self.by_id[a], self.post_by_id[b], "CREATED", {})
        for a, b in g.likes:
            self._rel(self.by_id[a], self.post_by_id[b], "LIKES", {})

    def _node(self, label: str, props: dict) -> int:
        self.props.append(props)
        self.labels.append(label)
        self.out.append([])
        return len(self.props) - 1

    def _rel(self, a: int, b: int, rtype: str, props: dict) -> None:
        self.rel_props.append(props)
        self.rel_types.append(rtype)
        self.out[a].append((len(self.rel_props) - 1, b))

    def _knows(self, n: int):
        types = self.rel_types
        labels = self.labels
        return [(r, t) for r, t in self.out[n] if types[r] == "KNOWS" and labels[t] == "Person"]

    def query(self, name: str, p: dict) -> list[tuple]:
        return getattr(self, name)(p)

    def Q1i(self, p):
        n = self.by_id.get(p["id"])
        return [] if n is None else [(self.props[n]["name"],)]

    def Q1s(self, p):
        want = p["name"]
        labels = self.labels
        return [(props["id"],) for n, props in enumerate(self.props)
                if labels[n] == "Person" and props.get("name") == want]

    def Q2(self, p):
        n = self.by_id.get(p["id"])
        return [] if n is None else [(self.props[t]["id"],) for _, t in self._knows(n)]

    def Q3(self, p):
        n = self.by_id[p["id"]]
        seen = set()
        for r1, m in self._knows(n):
            for r2, f in self._knows(m):
                if r2 != r1 and self.props[f]["id"] != p["id"]:
                    seen.add(f)
        return [(len(seen),)]

    def Q4(self, p):
        labels = self.labels
        counts = Counter(props.get("city") for n, props in enumerate(self.props)
                         if labels[n] == "Person")
        return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))

    def Q5(self, p):
        city, age = p["city"], p["age"]
        labels = self.labels
        hits = [(props["id"], props["age"]) for n, props in enumerate(self.props)
                if labels[n] == "Person" and props.get("city") == city and props["age"] >= age]
        return heapq.nsmallest(10, hits, key=lambda r: (-r[1], r[0]))

    def Q6(self, p):
        # Paths of 1 to 3 KNOWS hops with no relationship used twice (openCypher's trail rule);
        # an explicit stack, no recursion.
        start = self.by_id[p["id"]]
        count = 0
        stack = [(start, 0, ())]
        while stack:
            node, depth, used = stack.pop()
            for r, t in self._knows(node):
                if r in used:
                    continue
                count += 1
                if depth + 1 < 3:
                    stack.append((t, depth + 1, used + (r,)))
        return [(count,)]

    def Q7(self, p):
        a, b = self.by_id[p["a"]], self.by_id[p["b"]]
        if a == b:
            return []
        depth = {a: 0}
        frontier = [a]
        while frontier and depth[frontier[0]] < 10:
            nxt = []
            for x in frontier:
                for _, y in self._knows(x):
                    if y not in depth:
                        depth[y] = depth[x] + 1
                        if y == b:
                            return [(depth[y],)]
                        nxt.append(y)
            frontier = nxt
        return []

    def write_one(self, rows: list[dict]) -> None:
        for r in rows:
            self.by_id[r["id"]] = self._node("Person", dict(r))

    def write_unwind(self, rows: list[dict]) -> None:
        for r in rows:
            self.by_id[r["id"]] = self._node("Person", {"id": r["id"], "name": r["name"],
                                                        "age": r["age"], "city": r["city"]})

    def count_range(self, lo: int, hi: int) -> int:
        return sum(1 for n, props in enumerate(self.props)
                   if self.labels[n] == "Person" and lo <= props["id"] < hi)

    def close(self) -> None:
        pass
