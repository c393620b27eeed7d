"""The graph -> plain CPython dicts and lists, and each query hand-written against them.

This is the floor a pure-Python engine can approach: no parsing, no planning, no generic row
machinery, properties of a label in columns, just the loops a programmer would write for each
question.  Its answers are the
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
        # Nodes are slots; each label keeps its properties as columns (one list per key), the
        # fastest layout a scan in CPython has.  Relationships are slots with a type and props.
        self.labels: list[str] = []           # node slot -> label
        self.key: list[int] = []              # node slot -> its `id` property (both labels have one)
        self.out: list[list[tuple[int, int]]] = []   # node slot -> [(rel slot, target slot)]
        self.rel_types: list[str] = []
        self.rel_props: list[dict] = []
        self.p_slot: list[int] = []           # :Person columns, one row per person
        self.p_id: list[int] = []
        self.p_name: list[str] = []
        self.p_age: list[int] = []
        self.p_city: list[str] = []
        self.by_id: dict[int, int] = {}       # the index on :Person(id): id -> person row
        self.post_title: list[str] = []
        self.post_by_id: dict[int, int] = {}  # id -> node slot
        for pid, name, age, city in g.persons:
            self._person(pid, name, age, city)
        for pid, title in g.posts:
            self.post_by_id[pid] = self._node("Post", pid)
            self.post_title.append(title)
        slot = self.p_slot
        for a, b, since in g.knows:
            self._rel(slot[self.by_id[a]], slot[self.by_id[b]], "KNOWS", {"since": since})
        for a, b in g.created:
            self._rel(slot[self.by_id[a]], self.post_by_id[b], "CREATED", {})
        for a, b in g.likes:
            self._rel(slot[self.by_id[a]], self.post_by_id[b], "LIKES", {})

    def _node(self, label: str, key: int) -> int:
        self.labels.append(label)
        self.key.append(key)
        self.out.append([])
        return len(self.labels) - 1

    def _person(self, pid: int, name: str, age: int, city: str) -> None:
        self.by_id[pid] = len(self.p_id)
        self.p_slot.append(self._node("Person", pid))
        self.p_id.append(pid)
        self.p_name.append(name)
        self.p_age.append(age)
        self.p_city.append(city)

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

    def _slot(self, pid):
        row = self.by_id.get(pid)
        return None if row is None else self.p_slot[row]

    def Q1i(self, p):
        row = self.by_id.get(p["id"])
        return [] if row is None else [(self.p_name[row],)]

    def Q1s(self, p):
        want = p["name"]
        return [(i,) for i, n in zip(self.p_id, self.p_name) if n == want]

    def Q2(self, p):
        n = self._slot(p["id"])
        key = self.key
        return [] if n is None else [(key[t],) for _, t in self._knows(n)]

    def Q3(self, p):
        n = self._slot(p["id"])
        me = p["id"]
        key = self.key
        seen = set()
        for r1, m in self._knows(n):
            for r2, f in self._knows(m):
                if r2 != r1 and key[f] != me:
                    seen.add(f)
        return [(len(seen),)]

    def Q4(self, p):
        return sorted(Counter(self.p_city).items(), key=lambda kv: (-kv[1], kv[0]))

    def Q5(self, p):
        city, age = p["city"], p["age"]
        hits = [(i, a) for i, a, c in zip(self.p_id, self.p_age, self.p_city) if c == city and a >= age]
        return heapq.nsmallest(10, hits, key=lambda r: (-r[1], r[0]))

    def Q6(self, p):
        # Paths of 1 to 3 KNOWS hops with no relationship used twice (openCypher's trail rule);
        # an explicit stack, no recursion.
        start = self._slot(p["id"])
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
        a, b = self._slot(p["a"]), self._slot(p["b"])
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

    def write_other(self, id: int, title: str) -> None:
        self.post_by_id[id] = self._node("Post", id)
        self.post_title.append(title)

    def write_update(self, id: int, age: int) -> None:
        self.p_age[self.by_id[id]] = age

    def write_one(self, rows: list[dict]) -> None:
        for r in rows:
            self._person(r["id"], r["name"], r["age"], r["city"])

    write_unwind = write_one

    def count_range(self, lo: int, hi: int) -> int:
        return sum(1 for i in self.p_id if lo <= i < hi)

    def close(self) -> None:
        pass
