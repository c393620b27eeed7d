"""Two runs' figures -> one PNG of how each query's median grows from the smaller scale to the larger.

    bench/.venv-peers/bin/python bench/growth.py bench/results/S.json bench/results/M.json bench/results/SM-growth.png

One panel per query, one line per engine from its median at the first scale to its median at the
second (log scale, so equal slopes mean equal growth factors); the dotted grey line is what a cost
proportional to the graph's size would give from the floor's first figure.  An engine missing at
either scale (unsupported, wrong answer, failed) has no line in that panel.
"""
from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from chart import QUERIES  # noqa: E402

MIXED = ("Q1s_w", "Q4_w", "Q5_w")


def main(small: str, large: str, dst: str) -> None:
    a = json.loads(Path(small).read_text())["engines"]
    b = json.loads(Path(large).read_text())["engines"]
    sa, sb = Path(small).stem, Path(large).stem
    names = [n for n in b if n in a]
    queries = [q for q in QUERIES + MIXED if any(q in a[n] and q in b[n] for n in names)]
    cols = 5
    rows = math.ceil(len(queries) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(3.2 * cols, 2.9 * rows), dpi=100, squeeze=False)
    colours = plt.get_cmap("tab20").colors
    style = {n: colours[(2 * i) % 20 if i < 10 else 2 * (i - 10) + 1] for i, n in enumerate(names)}
    for ax, q in zip(axes.flat, queries):
        for n in names:
            if q in a[n] and q in b[n]:
                ax.plot([0, 1], [a[n][q], b[n][q]], marker="o", ms=3, color=style[n],
                        lw=2.2 if n.startswith("relate") else 1.2, label=n)
        if q in a.get("floor", {}):
            ax.plot([0, 1], [a["floor"][q], 10 * a["floor"][q]], ls=":", color="grey", lw=1)
        ax.set_yscale("log")
        ax.set_xticks([0, 1], [sa, sb])
        ax.set_xlim(-0.15, 1.15)
        ax.set_title(q, fontsize=10)
        ax.grid(axis="y", which="major", alpha=0.3)
    for ax in list(axes.flat)[len(queries):]:
        ax.axis("off")
    handles, labels = axes.flat[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=min(7, len(labels)), fontsize=9)
    fig.suptitle(f"median seconds at {sa} and {sb} per engine (log scale); dotted: the floor's {sa} "
                 f"figure times ten", fontsize=11)
    fig.tight_layout(rect=(0, 0.06, 1, 0.96))
    fig.savefig(dst)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3])
