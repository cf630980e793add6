#!/usr/bin/env python3
"""Fits the recall confidence (server/src/search/recall.rs, WEIGHTS) by logistic regression.

Usage: fit_recall.py FEATURES.tsv [FEATURES.tsv ...]

Each file is what `memory-index-lsp eval SET --features OUT` writes: one row
per ranked candidate (first five per case) with its features and whether it
is the right decision. Exact matches (all features zero) are left out: their
confidence is fixed. The model is pointwise: P(this candidate is right |
its features), L2-regularised, fitted by Newton's method; the same value
ranks the candidates and is shown as the confidence. Prints the weights as
the Rust constant to paste. Pure Python, no dependencies. Never fit on
prompts-holdout.tsv: it is the untuned slice.
"""
import math
import sys

L2 = 1.0  # ridge penalty on the feature weights (not the intercept)


def load(paths):
    rows = []
    names = None
    for p in paths:
        with open(p) as f:
            header = f.readline().rstrip("\n").split("\t")
            # Feature columns sit between `confidence` and the trailing `heading`.
            end = header.index("heading") if "heading" in header else len(header)
            names = header[5:end]
            for line in f:
                c = line.rstrip("\n").split("\t")
                x = [float(v) for v in c[5:end]]
                if all(v == 0.0 for v in x):
                    continue
                rows.append(([1.0] + x, int(c[3])))
    return names, rows


def solve(a, b):
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for col in range(n):
        piv = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[piv] = m[piv], m[col]
        for r in range(n):
            if r != col and m[col][col] != 0:
                f = m[r][col] / m[col][col]
                for k in range(col, n + 1):
                    m[r][k] -= f * m[col][k]
    return [m[i][n] / m[i][i] if m[i][i] else 0.0 for i in range(n)]


def fit(rows, dims):
    w = [0.0] * dims
    for _ in range(50):
        grad = [0.0] * dims
        hess = [[0.0] * dims for _ in range(dims)]
        for x, y in rows:
            z = sum(a * b for a, b in zip(w, x))
            p = 1.0 / (1.0 + math.exp(-max(-30, min(30, z))))
            for i in range(dims):
                grad[i] += (p - y) * x[i]
                for j in range(dims):
                    hess[i][j] += p * (1 - p) * x[i] * x[j]
        for i in range(1, dims):
            grad[i] += L2 * w[i]
            hess[i][i] += L2
        step = solve(hess, grad)
        w = [a - b for a, b in zip(w, step)]
        if max(abs(s) for s in step) < 1e-9:
            break
    return w


def main():
    names, rows = load(sys.argv[1:])
    if not rows:
        sys.exit("no rows: pass files written by `eval --features`")
    w = fit(rows, len(rows[0][0]))
    pos = sum(y for _, y in rows)
    print(f"// {len(rows)} candidates ({pos} right); features: intercept, {', '.join(names)}")
    print("pub const WEIGHTS: [f64; %d] = [%s];" % (len(w), ", ".join(f"{v:.3}" for v in w)))


if __name__ == "__main__":
    main()
