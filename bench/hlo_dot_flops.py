#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""bench/hlo_dot_flops.py — an independent count of the matmul FLOPs of one
step of an XLA HLO module, loops counted as they run: to check passline's
DetailDynInst Total_flops against.

It reads the HLO text itself (no passline code): every dot's FLOPs are
2 x the result's elements x the product of the lhs contracting extents;
each computation runs as often as its callers do from ENTRY (a while's body
N times and its condition N + 1, N its trip count; call, fusion,
async-start and conditional branches once per execution of the caller;
to_apply of any other op never). N is backend_config's known_trip_count,
else the counted loop: the tuple element the condition compares with a
constant, its initial constant in the while's operand tuple and its step
in the body's root tuple. A loop it cannot count is an error (exit 2).

usage: hlo_dot_flops.py FILE.hlo [--passline PASSLINE --plugin-dir DIR]
Prints "dot_flops N"; with --passline also "Total_flops N" and
"ratio R" (Total_flops / dot_flops).
"""
import argparse
import re
import subprocess
import sys

SHAPE = re.compile(r'^([a-z0-9]+)\[([0-9,]*)\]')
INST = re.compile(r'^\s*(ROOT\s+)?%?([\w.\-]+)\s*=\s*(.*)$')
HEADER = re.compile(r'^(ENTRY\s+)?%?([\w.\-]+)\s*(\(.*)?\{\s*$')


def dims(shape_text):
    m = SHAPE.match(shape_text)
    if not m:
        return None
    return [int(d) for d in m.group(2).split(',') if d]


def split_type_and_rest(rhs):
    """'bf16[2,3]{1,0} dot(...), attrs' -> ('bf16[2,3]{1,0}', 'dot(...), attrs').
    A tuple type '(a, b)' is skipped by bracket depth."""
    depth = 0
    for i, ch in enumerate(rhs):
        if ch in '([{':
            depth += 1
        elif ch in ')]}':
            depth -= 1
        elif ch == ' ' and depth == 0:
            return rhs[:i], rhs[i + 1:]
    return rhs, ''


def top_level_split(text):
    """Splits at the commas outside brackets."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in '([{':
            depth += 1
        elif ch in ')]}':
            depth -= 1
        elif ch == ',' and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return parts


def parse(path):
    comps = {}
    entry = None
    cur = None
    with open(path) as fh:
        text = fh.read()
    text = re.sub(r'/\*.*?\*/', '', text, flags=re.S)
    for line in text.split('\n'):
        s = line.strip()
        if not s or s.startswith('HloModule') or s.startswith('//'):
            continue
        if cur is None:
            m = HEADER.match(s)
            if m:
                cur = {'name': m.group(2), 'insts': {}, 'order': [], 'root': None}
                comps[cur['name']] = cur
                if m.group(1):
                    entry = cur['name']
            continue
        if s == '}':
            cur = None
            continue
        m = INST.match(s)
        if not m:
            continue
        name = m.group(2)
        typ, rest = split_type_and_rest(m.group(3))
        om = re.match(r'([\w\-]+)\((.*)$', rest)
        if not om:
            continue
        opcode = om.group(1)
        # operands: up to the matching ')'
        depth, i, body = 1, 0, om.group(2)
        while i < len(body) and depth:
            if body[i] in '([{':
                depth += 1
            elif body[i] in ')]}':
                depth -= 1
            i += 1
        operands = [o.split()[-1].lstrip('%') for o in top_level_split(body[:i - 1])
                    if o.strip()]
        attrs = body[i:]
        inst = {'name': name, 'type': typ, 'op': opcode, 'operands': operands,
                'attrs': attrs, 'operand_text': body[:i - 1]}
        cur['insts'][name] = inst
        cur['order'].append(name)
        if m.group(1):
            cur['root'] = name
    for c in comps.values():
        if c['root'] is None and c['order']:
            c['root'] = c['order'][-1]
    return comps, entry


def attr(inst, key):
    m = re.search(r'(?:^|[ ,])' + key + r'=(\{[^}]*\}|%?[\w.\-]+)', inst['attrs'])
    if not m:
        return None
    return [n.lstrip('%') for n in re.findall(r'%?[\w.\-]+', m.group(1))]


def constant_of(comp, name):
    inst = comp['insts'].get(name)
    if inst and inst['op'] == 'constant':
        m = re.match(r'\s*(-?\d+)\s*$', inst['operand_text'])
        if m:
            return int(m.group(1))
    return None


def gte_index(comp, name):
    inst = comp['insts'].get(name)
    if inst and inst['op'] == 'get-tuple-element':
        m = re.search(r'index=(\d+)', inst['attrs'])
        return int(m.group(1)) if m else None
    return None


def trip_count(comps, caller, w):
    m = re.search(r'"known_trip_count":\{"n":"(\d+)"\}', w['attrs'])
    if m:
        return int(m.group(1))
    cond = comps[attr(w, 'condition')[0]]
    body = comps[attr(w, 'body')[0]]
    root = cond['insts'][cond['root']]
    if root['op'] != 'compare':
        raise ValueError('condition root is not a compare')
    direction = re.search(r'direction=(\w+)', root['attrs']).group(1)
    a, b = root['operands']
    k, bound = gte_index(cond, a), constant_of(cond, b)
    if k is None or bound is None:
        k, bound = gte_index(cond, b), constant_of(cond, a)
        direction = {'LT': 'GT', 'GT': 'LT', 'LE': 'GE', 'GE': 'LE'}.get(direction, direction)
    if k is None or bound is None:
        raise ValueError('condition does not compare an element with a constant')
    init_tuple = caller['insts'][w['operands'][0]]
    init = constant_of(caller, init_tuple['operands'][k])
    upd = body['insts'][body['insts'][body['root']]['operands'][k]]
    if upd['op'] != 'add':
        raise ValueError('counter is not incremented by add')
    x, y = upd['operands']
    step = constant_of(body, y) if gte_index(body, x) == k else constant_of(body, x)
    if init is None or step is None or step <= 0 or direction not in ('LT', 'LE'):
        raise ValueError('not a counted loop this script knows')
    end = bound if direction == 'LT' else bound + 1
    return max(0, -(-(end - init) // step))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('file')
    ap.add_argument('--passline')
    ap.add_argument('--plugin-dir')
    args = ap.parse_args()
    comps, entry = parse(args.file)
    runs = {name: 0 for name in comps}
    # callers before callees: a computation is defined after its callees,
    # so walking definitions backwards from ENTRY hands counts down
    names = list(comps)
    runs[entry] = 1
    for name in reversed(names):
        c = comps[name]
        if not runs[name]:
            continue
        for iname in c['order']:
            inst = c['insts'][iname]
            op = inst['op']
            if op == 'while':
                try:
                    n = trip_count(comps, c, inst)
                except (ValueError, KeyError, IndexError, AttributeError) as e:
                    print('%s: loop %s: %s' % (args.file, iname, e), file=sys.stderr)
                    sys.exit(2)
                runs[attr(inst, 'body')[0]] += runs[name] * n
                runs[attr(inst, 'condition')[0]] += runs[name] * (n + 1)
            elif op == 'call':
                runs[attr(inst, 'to_apply')[0]] += runs[name]
            elif op == 'conditional':
                for key in ('branch_computations', 'true_computation', 'false_computation'):
                    for callee in attr(inst, key) or []:
                        runs[callee] += runs[name]
            elif op in ('fusion', 'async-start'):
                for callee in attr(inst, 'calls') or []:
                    runs[callee] += runs[name]
    total = 0
    for name, c in comps.items():
        for inst in c['insts'].values():
            if inst['op'] != 'dot' or not runs[name]:
                continue
            out = dims(inst['type'])
            lhs_text = top_level_split(inst['operand_text'])[0].strip()
            lhs = dims(lhs_text) if SHAPE.match(lhs_text) else dims(
                c['insts'][inst['operands'][0]]['type'])
            contracting = attr(inst, 'lhs_contracting_dims') or []
            k = 1
            for d in contracting:
                k *= lhs[int(d)]
            n = 1
            for d in out:
                n *= d
            total += 2 * n * k * runs[name]
    print('dot_flops %d' % total)
    if args.passline:
        cmd = [args.passline, '--passes=DetailDynInst', args.file, '-o', '/dev/null',
               '--stats-json', '-']
        if args.plugin_dir:
            cmd[1:1] = ['--plugin-dir', args.plugin_dir]
        out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
        flops = int(re.search(r'"Total_flops": (\d+)', out).group(1))
        print('Total_flops %d' % flops)
        print('ratio %.4f' % (flops / total if total else float('inf')))


if __name__ == '__main__':
    main()
