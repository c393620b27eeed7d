"""A seed and a scale name -> the benchmark's social graph, as plain tuples every engine loads.

Scale S: 10,000 :Person {id, name, age, city}, 50,000 :KNOWS {since} between distinct people (no
self-loops, no parallel pairs), 5,000 :Post {id, title}, one :CREATED per post and 20,000 :LIKES
(distinct person/post pairs).  Scale M multiplies every count by ten; T is a tiny scale for tests.
The same seed and scale give the same graph on every run and every Python (only `random.Random`
with an integer seed is used, whose sequence Python keeps stable), and the query parameters are
drawn from the graph itself so each one has a non-trivial answer.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

SCALES = {"T": 200, "S": 10_000, "M": 100_000}
CITIES = ("Amsterdam", "Berlin", "Cairo", "Delhi", "Edinburgh", "Florence", "Geneva", "Hanoi",
          "Istanbul", "Jakarta", "Kyoto", "Lima", "Madrid", "Nairobi", "Oslo", "Porto",
          "Quito", "Riga", "Seoul", "Tunis")
FIRST = ("Ada", "Ben", "Cleo", "Dan", "Eva", "Finn", "Gus", "Hana", "Ivo", "Jun", "Kai", "Lea",
         "Mia", "Noa", "Otto", "Pia", "Quin", "Rui", "Sara", "Tom")


@dataclass(frozen=True)
class Graph:
    scale: str
    persons: tuple[tuple[int, str, int, str], ...]   # (id, name, age, city)
    knows: tuple[tuple[int, int, int], ...]          # (from person id, to person id, since)
    posts: tuple[tuple[int, str], ...]               # (id, title)
    created: tuple[tuple[int, int], ...]             # (person id, post id)
    likes: tuple[tuple[int, int], ...]               # (person id, post id)
    params: dict                                     # query name -> list of parameter maps


def generate(scale: str = "S", seed: int = 42) -> Graph:
    n = SCALES[scale]
    rng = random.Random(seed)
    persons = tuple((i, f"{FIRST[i % len(FIRST)]}-{i}", 18 + rng.randrange(63),
                     CITIES[rng.randrange(len(CITIES))]) for i in range(n))
    pairs: set[tuple[int, int]] = set()
    knows = []
    while len(knows) < 5 * n:
        a, b = rng.randrange(n), rng.randrange(n)
        if a != b and (a, b) not in pairs:
            pairs.add((a, b))
            knows.append((a, b, 2000 + rng.randrange(26)))
    n_posts = n // 2
    posts = tuple((n + j, f"post {j}") for j in range(n_posts))
    created = tuple((rng.randrange(n), n + j) for j in range(n_posts))
    liked: set[tuple[int, int]] = set()
    likes = []
    while len(likes) < 2 * n:
        pair = (rng.randrange(n), n + rng.randrange(n_posts))
        if pair not in liked:
            liked.add(pair)
            likes.append(pair)
    return Graph(scale, persons, tuple(knows), posts, created, tuple(likes),
                 _params(rng, persons, knows))


def _params(rng: random.Random, persons, knows) -> dict:
    n = len(persons)
    out: dict[int, list[int]] = {}
    for a, b, _ in knows:
        out.setdefault(a, []).append(b)
    ids = []
    while len(ids) < 5:   # starting points with at least two friends, so answers are not empty
        i = rng.randrange(n)
        if len(out.get(i, ())) >= 2 and i not in ids:
            ids.append(i)
    starts = ids
    # Q7 pairs: a person and someone 3 to 5 hops away (found by a breadth-first walk), so the
    # search has real work to do and a path always exists.
    pairs = []
    for a in ids:
        depth = {a: 0}
        frontier = [a]
        far = None
        while frontier and far is None:
            nxt = []
            for x in frontier:
                for y in out.get(x, ()):
                    if y not in depth:
                        depth[y] = depth[x] + 1
                        nxt.append(y)
            frontier = nxt
            at4 = [y for y in nxt if depth[y] >= 4]
            if at4:
                far = at4[len(at4) // 2]
        pairs.append({"a": a, "b": far if far is not None else (a + 1) % n})
    return {
        "Q1i": [{"id": i} for i in ids],
        "Q1s": [{"name": persons[i][1]} for i in ids],
        "Q2": [{"id": i} for i in starts],
        "Q3": [{"id": i} for i in starts],
        "Q4": [{}],
        "Q5": [{"city": CITIES[k], "age": 30 + 5 * k % 25} for k in (0, 3, 7, 11, 19)],
        "Q6": [{"id": i} for i in starts],
        "Q7": pairs,
    }


def write_rows(graph: Graph, start: int, count: int = 1000) -> list[dict]:
    """The Q8 rows: `count` new people with ids from `start`, past every id in the graph."""
    return [{"id": i, "name": f"new-{i}", "age": 18 + i % 63, "city": CITIES[i % len(CITIES)]}
            for i in range(start, start + count)]
