#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tests/reduce_scatter_reference.py -- which all-reduces of an XLA HLO dump
XLA's ReduceScatterCreator turns into reduce-scatters, worked out apart
from passline's C code, to check it: not by matching XLA's patterns, but by
running the offset computation of the dynamic-slice on every device of
every replica group and asking whether the j-th device of a group reads the
j-th shard. An all-reduce counts when it has one user, a dynamic-slice of
it (or a reshape of it whose one user is one, the reshape leaving the cut
dimension alone), that cuts one dimension by the group size; and its offset
there is built only of what XLA's matcher reads (partition-id, replica-id,
constants, iota and constant tables read by dynamic-slice, reshape,
bitcast, copy, convert, multiply, add, subtract, clamp).

Reads one .hlo file with one instruction per line (as XLA dumps it) and
prints "created N" and, per computation that loses flops, "flops NAME K":
the flops passline counts (one per element) of the instructions the
rewrite removes (the dynamic-slice, a reshape) less those it adds (a
reshape, a slice)."""
import re
import sys

INST = re.compile(r'^\s*(?:ROOT\s+)?%?([\w.\-]+)\s*=\s*(.*)$')
COMP = re.compile(r'^\s*(?:ENTRY\s+)?%?([\w.\-]+)\s*(?:\(.*\)\s*->\s*.*)?\{\s*$')
ARRAY = re.compile(r'^([a-z0-9]+)\[([0-9,]*)\]')
MOVES = ('reshape', 'bitcast', 'copy', 'convert')


def split_top(s):
    """s split at the commas outside brackets."""
    out, depth, cur = [], 0, ''
    for ch in s:
        if ch in '([{':
            depth += 1
        elif ch in ')]}':
            depth -= 1
        if ch == ',' and depth == 0:
            out.append(cur.strip())
            cur = ''
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def parse_rhs(rhs):
    """(shape text, opcode, operand text, attribute text) of 'SHAPE op(...), attrs'."""
    depth = 0
    i = 0
    while i < len(rhs):  # the shape: up to the first space outside brackets
        ch = rhs[i]
        if ch in '([{':
            depth += 1
        elif ch in ')]}':
            depth -= 1
        elif ch == ' ' and depth == 0:
            break
        i += 1
    shape, rest = rhs[:i], rhs[i:].strip()
    m = re.match(r'([a-z][a-z0-9\-]*)\(', rest)
    if not m:
        return shape, None, '', ''
    j, depth = m.end(), 1
    while j < len(rest) and depth:
        depth += {'(': 1, ')': -1}.get(rest[j], 0)
        j += 1
    return shape, m.group(1), rest[m.end():j - 1], rest[j:]


def dims_of(shape):
    m = ARRAY.match(shape)
    if not m:
        return None, None
    return m.group(1), [int(x) for x in m.group(2).split(',') if x]


def attr(attrs, key):
    """The value of key=... at the top level of the attribute text."""
    for part in split_top(attrs.lstrip(', ')):
        if part.startswith(key + '='):
            return part[len(key) + 1:]
    return None


def groups_of(text):
    """Replica groups as lists of ids; [] for none (every device)."""
    if text is None or text.replace(' ', '') == '{}':
        return []
    text = text.replace(' ', '')
    m = re.match(r'^\[(\d+),(\d+)\]<=\[([\d,]+)\](?:T\(([\d,]+)\))?$', text)
    if m:
        g, s = int(m.group(1)), int(m.group(2))
        d = [int(x) for x in m.group(3).split(',')]
        perm = [int(x) for x in m.group(4).split(',')] if m.group(4) else list(range(len(d)))
        # the iota of shape d, transposed by perm, read in order
        strides = [1] * len(d)
        for k in range(len(d) - 2, -1, -1):
            strides[k] = strides[k + 1] * d[k + 1]
        tdims = [d[p] for p in perm]
        ids = []
        for n in range(g * s):
            idx, rem = [], n
            for k in range(len(tdims) - 1, -1, -1):
                idx.append(rem % tdims[k])
                rem //= tdims[k]
            idx.reverse()
            ids.append(sum(idx[k] * strides[perm[k]] for k in range(len(d))))
        return [ids[k * s:(k + 1) * s] for k in range(g)]
    return [[int(x) for x in grp.split(',') if x]
            for grp in re.findall(r'\{([\d,]*)\}', text[1:-1])]


class Comp:
    def __init__(self, name):
        self.name = name
        self.insts = {}
        self.order = []
        self.users = {}


def read(path):
    comps, cur, header = [], None, ''
    for line in open(path):
        line = re.sub(r'/\*.*?\*/', '', line)  # /*index=5*/ and the like
        if line.startswith('HloModule'):
            header = line
            continue
        if cur is None:
            m = COMP.match(line)
            if m and '=' not in line.split('{')[0]:
                cur = Comp(m.group(1))
                comps.append(cur)
            continue
        if line.strip() == '}':
            cur = None
            continue
        m = INST.match(line)
        if not m:
            continue
        name = m.group(1)
        shape, op, operands, attrs = parse_rhs(m.group(2))
        ops = [] if op in ('constant', 'iota') else \
            [o.split()[-1].lstrip('%') for o in split_top(operands)]
        cur.insts[name] = dict(shape=shape, op=op, ops=ops, raw=operands, attrs=attrs)
        cur.order.append(name)
        for k, o in enumerate(ops):
            cur.users.setdefault(o, []).append((name, k))
    return header, comps


def literal(inst):
    return [int(x) for x in re.findall(r'-?\d+', inst['raw'])]


def evaluate(comp, name, r, p, depth=0):
    """The scalar the instruction gives on replica r, partition p; None when
    it is built of something else."""
    i = comp.insts.get(name)
    if i is None or depth > 50:
        return None
    op = i['op']
    ev = lambda k: evaluate(comp, i['ops'][k], r, p, depth + 1)
    if op == 'partition-id':
        return p
    if op == 'replica-id':
        return r
    if op == 'constant':
        v = literal(i)
        return v[0] if len(v) == 1 else None
    if op in MOVES:
        return ev(0)
    if op in ('multiply', 'add', 'subtract'):
        a, b = ev(0), ev(1)
        if a is None or b is None:
            return None
        return a * b if op == 'multiply' else a + b if op == 'add' else a - b
    if op == 'clamp':
        lo, x, hi = ev(0), ev(1), ev(2)
        return None if None in (lo, x, hi) else min(max(x, lo), hi)
    if op == 'dynamic-slice' and len(i['ops']) == 2:
        t = comp.insts.get(i['ops'][0])
        _, tdims = dims_of(t['shape']) if t else (None, None)
        idx = ev(1)
        if idx is None or not tdims or len(tdims) != 1 or t['op'] not in ('constant', 'iota'):
            return None
        idx = min(max(idx, 0), tdims[0] - 1)  # as a dynamic-slice clamps
        return idx if t['op'] == 'iota' else literal(t)[idx]
    return None


def unmodified(a, b, out_dim):
    """The dimension of shape a that dimension out_dim of shape b is, when
    a reshape from a to b leaves it whole (a run of equal products with one
    dimension on each side)."""
    i = j = 0
    pa = pb = 1
    while i < len(a) or j < len(b):
        si, sj = i, j
        pa, pb = (a[i] if i < len(a) else 1), (b[j] if j < len(b) else 1)
        i, j = i + 1, j + 1
        while pa != pb:
            if pa < pb and i < len(a):
                pa *= a[i]
                i += 1
            elif pb < pa and j < len(b):
                pb *= b[j]
                j += 1
            else:
                return None
        if j - sj == 1 and i - si == 1 and sj == out_dim:
            return si
    return None


def main():
    header, comps = read(sys.argv[1])
    nrep = re.search(r'replica_count=(\d+)', header)
    npart = re.search(r'num_partitions=(\d+)', header)
    allops = [i for c in comps for i in c.insts.values()]
    if nrep or npart:
        R, P = int(nrep.group(1)) if nrep else 1, int(npart.group(1)) if npart else 1
    else:  # the devices the groups name
        top = max([x for i in allops if attr(i['attrs'], 'replica_groups')
                   for g in groups_of(attr(i['attrs'], 'replica_groups')) for x in g] + [0]) + 1
        by_part = any(i['op'] == 'partition-id' or attr(i['attrs'], 'channel_id')
                      for i in allops)
        R, P = (1, top) if by_part else (top, 1)
    created = 0
    for c in comps:
        lost = 0
        for name in c.order:
            i = c.insts[name]
            if i['op'] != 'all-reduce':
                continue
            _, d = dims_of(i['shape'])
            if d is None or not any(x > 1 for x in d) or attr(i['attrs'], 'constrain_layout') == 'true':
                continue
            users = c.users.get(name, [])
            if len(users) != 1:
                continue
            user, k = users[0]
            reshape = None
            if c.insts[user]['op'] == 'reshape':
                reshape = user
                users = c.users.get(user, [])
                if len(users) != 1:
                    continue
                user, k = users[0]
            ds = c.insts[user]
            if ds['op'] != 'dynamic-slice' or k != 0:
                continue
            _, din = dims_of(c.insts[reshape]['shape']) if reshape else (None, d)
            _, dout = dims_of(ds['shape'])
            cut = [x for x in range(len(din)) if din[x] != dout[x]]
            if len(cut) != 1:
                continue
            cut = cut[0]
            groups = groups_of(attr(i['attrs'], 'replica_groups'))
            channel = attr(i['attrs'], 'channel_id') is not None
            glob = attr(i['attrs'], 'use_global_device_ids') == 'true'
            # each group as the (replica, partition) pairs of its devices,
            # one list per other coordinate the group is repeated over
            if not channel:
                gs = groups or [list(range(R))]
                devs = [[(x, p) for x in g] for g in gs for p in range(P)]
            elif glob:
                devs = [[(x // P, x % P) for x in g] for g in groups]
            else:
                if len(groups) != R or any(len(g) != 1 for g in groups):
                    continue
                devs = [[(g[0], x) for x in range(P)] for g in groups]
            size = len(devs[0])
            if size < 2 or any(len(g) != size for g in devs):
                continue
            shard = dout[cut]
            if din[cut] // shard != size:
                continue
            src = unmodified(d, din, cut) if reshape else cut
            if src is None or d[src] // size != shard:
                continue
            off = ds['ops'][cut + 1]
            if not all(evaluate(c, off, r, p) == j * shard
                       for g in devs for j, (r, p) in enumerate(g)):
                continue
            created += 1
            n = 1
            for x in dout:
                n *= x
            lost += n  # the dynamic-slice goes; a reshape is made again in its shape
            if reshape:
                n = 1
                for x in din:
                    n *= x
                lost += n
                n = 1
                for x in dout:
                    n *= x
                lost -= n
            if d[src] % size:
                n = 1
                for x in d:
                    n *= x
                lost -= n // d[src] * (shard * size)
        if lost:
            print('flops %s %d' % (c.name, lost))
    print('created %d' % created)


main()
