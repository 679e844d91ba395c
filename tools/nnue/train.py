#!/usr/bin/env python3
"""Trains Tabula's Quoridor evaluation network (src/games/quoridor/nnue.rs)
from the training records `datagen features` writes, and writes the weights
file the engine embeds.

The network: sparse inputs (walls bucketed by the mover's pawn region, both
pawns, hands, path lengths) -> HIDDEN clipped-ReLU units -> one output, plus
a linear part over the hand-made evaluation terms (started at the engine's
own weights). Values are in steps (100 centi-steps) inside the trainer. The
target blends the search score (through a logistic curve of scale K) with
the game's result; the loss is the squared error of the predicted win
probability (Texel-style), minimised with Adam on mini-batches.

usage: train.py RECORDS... --out FILE [--epochs N] [--lambda L] [--seed S] [--init WEIGHTS]
"""
import argparse
import struct
import sys

import numpy as np
import scipy.sparse as sp

INPUTS = 9 * 128 + 81 * 2 + 11 * 2 + 25 * 2
HIDDEN = 32
TERMS = 19
RECORD_INPUTS = 48
# The engine's hand-made weights (src/games/quoridor/eval.rs WEIGHTS), in
# centi-steps: the linear part starts from them.
HAND_WEIGHTS = [100, 34, 0, 8, -268, -27, 920, 32, 80,
                113, 88, 50, -43, -75, -83, -99, -148, -221, -221]
# Fixed point of the engine (nnue.rs): a full activation, output scale.
ACTIVATION_ONE = 256
OUTPUT_SCALE = 32

RECORD = np.dtype([("inputs", "<u2", RECORD_INPUTS), ("terms", "<i4", TERMS),
                   ("score", "<f4"), ("result", "<f4")])


def load(paths):
    parts = [np.fromfile(p, dtype=RECORD) for p in paths]
    data = np.concatenate(parts)
    return data


def sparse_inputs(inputs):
    mask = inputs != 0xFFFF
    counts = mask.sum(axis=1)
    indptr = np.concatenate([[0], np.cumsum(counts)])
    indices = inputs[mask].astype(np.int32)
    values = np.ones(len(indices), dtype=np.float32)
    return sp.csr_matrix((values, indices, indptr), shape=(len(inputs), INPUTS))


def sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def fit_scale(score, result):
    """The logistic scale K (centi-steps) by which scores best predict results."""
    best = None
    for k in np.arange(50, 1500, 10):
        err = np.mean((sigmoid(score / k) - result) ** 2)
        if best is None or err < best[1]:
            best = (k, err)
    return best[0]


class Adam:
    def __init__(self, params, lr):
        self.lr, self.t = lr, 0
        self.m = [np.zeros_like(p) for p in params]
        self.v = [np.zeros_like(p) for p in params]

    def step(self, params, grads):
        self.t += 1
        b1, b2, eps = 0.9, 0.999, 1e-8
        for p, g, m, v in zip(params, grads, self.m, self.v):
            m *= b1
            m += (1 - b1) * g
            v *= b2
            v += (1 - b2) * g * g
            mh = m / (1 - b1 ** self.t)
            vh = v / (1 - b2 ** self.t)
            p -= self.lr * mh / (np.sqrt(vh) + eps)


def forward(params, x, terms):
    w1, b1, w2, b2, v = params
    pre = x @ w1 + b1
    h = np.clip(pre, 0.0, 1.0)
    out = h @ w2 + b2 + terms @ v
    return pre, h, out


def loss_and_grads(params, x, terms, target, scale):
    w1, b1, w2, b2, v = params
    pre, h, out = forward(params, x, terms)
    pred = sigmoid(out * 100.0 / scale)
    n = len(target)
    diff = pred - target
    loss = float(np.mean(diff ** 2))
    dout = (2.0 / n) * diff * pred * (1 - pred) * (100.0 / scale)
    g_w2 = h.T @ dout
    g_b2 = np.array([dout.sum()], dtype=np.float32)
    g_v = terms.T @ dout
    dh = np.outer(dout, w2) * ((pre > 0) & (pre < 1))
    g_w1 = np.asarray(x.T @ dh)
    g_b1 = dh.sum(axis=0)
    return loss, [g_w1.astype(np.float32), g_b1.astype(np.float32), g_w2.astype(np.float32),
                  g_b2, g_v.astype(np.float32)]


def write_weights(path, params):
    w1, b1, w2, b2, v = params
    q_w1 = np.clip(np.rint(w1 * ACTIVATION_ONE), -32768, 32767).astype("<i2")
    q_b1 = np.rint(b1 * ACTIVATION_ONE).astype("<i4")
    q_w2 = np.rint(w2 * 100.0 * OUTPUT_SCALE).astype("<i4")
    q_b2 = int(np.rint(b2[0] * 100.0))
    q_v = np.rint(v * 100.0).astype("<i4")
    with open(path, "wb") as f:
        f.write(b"TQN1")
        f.write(struct.pack("<3I", INPUTS, HIDDEN, TERMS))
        f.write(q_w1.tobytes())
        f.write(q_b1.tobytes())
        f.write(q_w2.tobytes())
        f.write(struct.pack("<i", q_b2))
        f.write(q_v.tobytes())


def read_weights(path):
    """The float parameters of a weights file (the inverse of write_weights)."""
    raw = open(path, "rb").read()
    if raw[:4] != b"TQN1" or struct.unpack_from("<3I", raw, 4) != (INPUTS, HIDDEN, TERMS):
        raise SystemExit(f"{path}: not a network of this shape")
    at = 16

    def take(dtype, count):
        nonlocal at
        part = np.frombuffer(raw, dtype=dtype, count=count, offset=at)
        at += part.nbytes
        return part.astype(np.float32)

    w1 = take("<i2", INPUTS * HIDDEN).reshape(INPUTS, HIDDEN) / ACTIVATION_ONE
    b1 = take("<i4", HIDDEN) / ACTIVATION_ONE
    w2 = take("<i4", HIDDEN) / (100.0 * OUTPUT_SCALE)
    b2 = take("<i4", 1) / 100.0
    v = take("<i4", TERMS) / 100.0
    if at != len(raw):
        raise SystemExit(f"{path}: {len(raw) - at} bytes more than a network of this shape")
    return [w1, b1, w2, b2, v]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("records", nargs="+")
    ap.add_argument("--out", required=True)
    ap.add_argument("--epochs", type=int, default=20)
    ap.add_argument("--batch", type=int, default=4096)
    ap.add_argument("--lr", type=float, default=2e-3)
    ap.add_argument("--lambda", dest="lam", type=float, default=0.5,
                    help="weight of the search score in the target (the rest: the result)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--validation", type=float, default=0.05)
    ap.add_argument("--init", help="start from this weights file instead of random weights")
    args = ap.parse_args()

    rng = np.random.default_rng(args.seed)
    data = load(args.records)
    # Mirror pairs are adjacent: split by pairs so that no position's twin
    # is on the other side of the split.
    pairs = len(data) // 2
    order = rng.permutation(pairs)
    held = int(pairs * args.validation)
    val_idx = np.concatenate([2 * order[:held], 2 * order[:held] + 1])
    train_idx = np.concatenate([2 * order[held:], 2 * order[held:] + 1])
    x_all = sparse_inputs(data["inputs"])
    terms_all = data["terms"].astype(np.float32)
    score = data["score"].astype(np.float32)
    result = data["result"].astype(np.float32)
    scale = fit_scale(score[train_idx], result[train_idx])
    target_all = args.lam * sigmoid(score / scale) + (1 - args.lam) * result
    print(f"{len(data)} records ({len(train_idx)} training, {len(val_idx)} validation); scale K = {scale}",
          flush=True)

    params = [
        (rng.standard_normal((INPUTS, HIDDEN)) * 0.05).astype(np.float32),
        np.full(HIDDEN, 0.25, dtype=np.float32),
        (rng.standard_normal(HIDDEN) * 0.1).astype(np.float32),
        np.zeros(1, dtype=np.float32),
        np.array(HAND_WEIGHTS, dtype=np.float32) / 100.0,
    ]

    if args.init:
        params = [p.astype(np.float32) for p in read_weights(args.init)]

    def evaluate(idx):
        _, _, out = forward(params, x_all[idx], terms_all[idx])
        pred = sigmoid(out * 100.0 / scale)
        hand = sigmoid((terms_all[idx] @ np.array(HAND_WEIGHTS, dtype=np.float32)) / scale)
        return (float(np.mean((pred - target_all[idx]) ** 2)),
                float(np.mean((hand - target_all[idx]) ** 2)))

    if args.init:
        val, hand = evaluate(val_idx)
        print(f"start ({args.init}): validation {val:.6f} (hand-made evaluation {hand:.6f})", flush=True)
    opt = Adam(params, args.lr)
    for epoch in range(args.epochs):
        if epoch == int(args.epochs * 0.7):
            opt.lr /= 4
        perm = rng.permutation(train_idx)
        total, batches = 0.0, 0
        for start in range(0, len(perm), args.batch):
            b = perm[start:start + args.batch]
            loss, grads = loss_and_grads(params, x_all[b], terms_all[b], target_all[b], scale)
            opt.step(params, grads)
            # Keep the first layer within what 16-bit integers hold.
            np.clip(params[0], -127.0, 127.0, out=params[0])
            total += loss
            batches += 1
        val, hand = evaluate(val_idx)
        print(f"epoch {epoch + 1}: training {total / batches:.6f} validation {val:.6f} "
              f"(hand-made evaluation {hand:.6f})", flush=True)
    write_weights(args.out, params)
    print(f"wrote {args.out}; term weights {np.rint(params[4] * 100).astype(int).tolist()}")


if __name__ == "__main__":
    sys.exit(main())
