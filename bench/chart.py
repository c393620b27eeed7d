"""bench/results/<scale>.json -> a PNG bar chart of the medians, one group per query, log scale.

Run with the peers' venv (matplotlib lives there, never in the project's dependencies):
    bench/.venv-peers/bin/python bench/chart.py bench/results/S.json bench/results/S.png
"""
from __future__ import annotations

import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

QUERIES = ("Q1i", "Q1s", "Q2", "Q3", "Q4", "Q5", "Q6", "Q7", "Q8_one", "Q8_unwind", "load")


def main(src: str, dst: str) -> None:
    engines = json.load(open(src))["engines"]
    names = list(engines)
    fig, ax = plt.subplots(figsize=(14, 6), dpi=100)
    width = 0.8 / max(1, len(names))
    colours = plt.get_cmap("tab20").colors  # 20 distinct colours: more engines than tab10 has
    for i, name in enumerate(names):
        xs, ys = [], []
        for j, q in enumerate(QUERIES):
            if q in engines[name]:
                xs.append(j + (i - (len(names) - 1) / 2) * width)
                ys.append(engines[name][q])
        ax.bar(xs, ys, width=width, label=name, color=colours[(2 * i) % 20 if i < 10 else 2 * (i - 10) + 1])
    ax.set_yscale("log")
    ax.set_xticks(range(len(QUERIES)), QUERIES)
    ax.set_ylabel("median seconds (log scale; lower is faster)")
    ax.set_title(f"relate and peers, {src.rsplit('/', 1)[-1].split('.')[0]} scale: missing bar = "
                 "unsupported, wrong answer or failed")
    ax.legend(ncol=4, fontsize=9)
    ax.grid(axis="y", which="major", alpha=0.3)
    fig.tight_layout()
    fig.savefig(dst)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
