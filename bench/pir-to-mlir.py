#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""bench/pir-to-mlir.py -- writes a .pir module as MLIR's generic form, so
that `make bench` can time mlir-opt parsing and printing the same module.

For the canonical text pl-genmodel writes: a function becomes an
unregistered "pl.func" op whose region's block takes the arguments; an op
without a dialect prefix becomes "pl.<op>"; a type dt[d0,d1] becomes
tensor<d0xd1xdt> (bool as i1, unsigned as ui*, 8-bit floats as i8).
Usage: pir-to-mlir.py IN.pir OUT.mlir
"""
import re
import sys

DTYPES = {"bool": "i1", "f8e4m3": "i8", "f8e5m2": "i8", "u8": "ui8", "u16": "ui16",
          "u32": "ui32", "u64": "ui64"}
TYPE = re.compile(r"([a-z0-9]+)\[([0-9,]*)\]")
FLOAT_NO_POINT = re.compile(r"(?<![\w.\"])(-?[0-9]+)([eE][-+]?[0-9]+)")


def mlir_type(t):
    m = TYPE.fullmatch(t.strip())
    dt = DTYPES.get(m.group(1), m.group(1))
    dims = m.group(2)
    return "tensor<%s%s>" % ("".join(d + "x" for d in dims.split(",")) if dims else "", dt)


def split_top(s):
    """s split at commas outside brackets and quotes."""
    out, depth, cur, q = [], 0, [], False
    for i, c in enumerate(s):
        if q:
            cur.append(c)
            if c == "\\":
                continue
            if c == '"' and s[i - 1] != "\\":
                q = False
            continue
        if c == '"':
            q = True
        elif c in "[(":
            depth += 1
        elif c in "])":
            depth -= 1
        elif c == "," and depth == 0:
            out.append("".join(cur).strip())
            cur = []
            continue
        cur.append(c)
    if "".join(cur).strip():
        out.append("".join(cur).strip())
    return out


def attrs(text):
    return FLOAT_NO_POINT.sub(r"\1.0\2", text)


def main():
    src, dst = sys.argv[1], sys.argv[2]
    out = open(dst, "w")
    types = {}
    fattrs = ""
    fname = ""
    for line in open(src):
        line = line.rstrip("\n")
        if line.startswith("func @"):
            head = line[len("func @"):]
            fname, rest = head.split("(", 1)
            args, rest = rest.rsplit(")", 1)
            fattrs = ""
            if rest.strip().startswith("attributes"):
                fattrs = rest.strip()[len("attributes"):].strip()[1:].rsplit("}", 1)[0].strip()
            types = {}
            blk = []
            for a in split_top(args):
                n, t = a.split(":", 1)
                types[n.strip()] = mlir_type(t)
                blk.append("%s: %s" % (n.strip(), types[n.strip()]))
            out.write('"pl.func"() ({\n^bb0(%s):\n' % ", ".join(blk))
        elif line == "}":
            extra = (", " + attrs(fattrs)) if fattrs else ""
            out.write('}) {sym_name = "%s"%s} : () -> ()\n' % (fname, extra))
        elif line.startswith("  "):
            s = line.strip()
            results = []
            if s.startswith("%") and " = " in s.split("{")[0]:
                lhs, s = s.split(" = ", 1)
                results = [r.strip() for r in lhs.split(",")]
            rtypes = []
            if " : " in s:
                cut = s.rindex(" : ")
                if "}" not in s[cut:]:
                    tt = s[cut + 3:].strip()
                    s = s[:cut]
                    if tt.startswith("("):
                        tt = tt[1:-1]
                    rtypes = [mlir_type(t) for t in split_top(tt)]
            dict_text = ""
            if "{" in s:
                i = s.index(" {")
                dict_text = s[i + 1:]
                s = s[:i]
            parts = s.split(" ", 1)
            op = parts[0]
            operands = [o.strip() for o in parts[1].split(",")] if len(parts) > 1 else []
            if "." not in op:
                op = "pl." + op
            for r, t in zip(results, rtypes):
                types[r] = t
            res = ", ".join(results) + " = " if results else ""
            otypes = ", ".join(types[o] for o in operands)
            rt = rtypes[0] if len(rtypes) == 1 else "(%s)" % ", ".join(rtypes)
            out.write('  %s"%s"(%s) %s: (%s) -> %s\n' % (
                res, op, ", ".join(operands), (attrs(dict_text) + " ") if dict_text else "",
                otypes, rt))
    out.close()


main()
