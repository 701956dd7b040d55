#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tests/timeline_check.py -- reads back what the Timeline pass wrote.

  timeline_check.py trace FILE.json
      parses the Chrome trace-event JSON and prints one line per event:
      "M tid name value" for metadata, "X tid name cat ts dur" for complete
      events; exits 1 when the file is not what Perfetto expects.
  timeline_check.py png FILE.svg FILE.png
      checks a browser's rendering of the SVG: the picture is not blank,
      and at the centre of every box of the SVG (a rect with a tooltip, at
      least 3 pixels wide) the PNG has the box's colour; prints one line
      per lane ("lane Y: N boxes seen", Y on the page) and exits 1 on a
      mismatch. Nested pictures (passline --compare-svg) are placed by
      their groups' translate() and their svg's x and y.
  timeline_check.py stack FILE.svg
      the stacked picture of passline --compare-svg: per strategy its
      name, makespan, span and where the last box of its first panel (the
      step, or the function) ends; the number of axes.
  timeline_check.py axes FILE.svg
      per strategy of a --compare-svg picture, one line per panel's time
      axis: "NAME K x:label x:label ...", its ticks.
  timeline_check.py lanes FILE.svg
      the lane labels of a picture, per panel ("panel K: LABEL | LABEL");
      exits 1 when a group's label differs between panels, two groups
      share a number, or a panel's numbered lanes are not in order.
Only the standard library: json, zlib, xml.etree.
"""
import json
import struct
import sys
import xml.etree.ElementTree as ET
import zlib

SVG = "{http://www.w3.org/2000/svg}"
CLASSES = ("contract", "load_store", "compute", "all_gather", "reduce_scatter", "all_reduce",
           "exposed", "done", "all_to_all", "collective_permute", "collective_broadcast",
           "collective", "span")


def trace(path):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    events = doc["traceEvents"]
    assert isinstance(events, list) and events, "traceEvents is a non-empty list"
    for e in events:
        assert e["pid"] == 1 and e["ph"] in ("M", "X"), e
        if e["ph"] == "M":
            value = e["args"].get("name", e["args"].get("sort_index"))
            print("M", e.get("tid", "-"), e["name"], value)
        else:
            assert isinstance(e["ts"], (int, float)) and e["ts"] >= 0, e
            assert isinstance(e["dur"], (int, float)) and e["dur"] >= 0, e
            assert isinstance(e["tid"], int), e
            # what Perfetto's JSON importer reads: a string name and
            # category, an object of args
            assert isinstance(e["name"], str) and e["name"], e
            assert isinstance(e["cat"], str) and e["cat"], e
            assert isinstance(e["args"], dict), e
            assert e["args"]["op"], e
            assert isinstance(e["args"]["exposed_ns"], int), e
            assert e["args"]["class"] in CLASSES, e
            print("X", e["tid"], e["name"], e["cat"], "%.3f" % e["ts"], "%.3f" % e["dur"])


def read_png(path):
    """(width, height, rows of (r, g, b)) of an 8-bit RGB or RGBA PNG."""
    with open(path, "rb") as f:
        data = f.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "a PNG file"
    pos, idat, head = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            head = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    width, height, depth, ctype, _, _, interlace = head
    assert depth == 8 and ctype in (2, 6) and interlace == 0, head
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev, at = [], bytearray(stride), 0
    for _ in range(height):
        ftype, line = raw[at], bytearray(raw[at + 1:at + 1 + stride])
        at += 1 + stride
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if ftype == 1:
                line[i] = (line[i] + a) & 255
            elif ftype == 2:
                line[i] = (line[i] + b) & 255
            elif ftype == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif ftype == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[i] = (line[i] + pred) & 255
        rows.append([tuple(line[x * bpp:x * bpp + 3]) for x in range(width)])
        prev = line
    return width, height, rows


def colour(hexa):
    return tuple(int(hexa[k:k + 2], 16) for k in (1, 3, 5))


def offset(e):
    """What e moves its children by: translate(X,Y) of a group, x and y of
    a nested svg."""
    t = e.get("transform", "")
    if t.startswith("translate(") and t.endswith(")"):
        parts = t[len("translate("):-1].replace(",", " ").split()
        return float(parts[0]), float(parts[1]) if len(parts) > 1 else 0.0
    if e.tag == SVG + "svg":
        return float(e.get("x", 0)), float(e.get("y", 0))
    return 0.0, 0.0


def placed_rects(e, dx=0.0, dy=0.0, top=True):
    """Every rect under e with where it lands on the page (the stacked
    pictures of passline --compare-svg nest one svg per strategy)."""
    for c in e:
        if c.tag == SVG + "rect":
            yield c, dx, dy
        else:
            ox, oy = offset(c)
            yield from placed_rects(c, dx + ox, dy + oy, False)


def stack(svg_path):
    """The structure of passline --compare-svg's picture: one line per
    strategy, "NAME makespan span right", right the end of its last box
    (pixels from the plot's left edge); then "axes N", the time axes."""
    root = ET.parse(svg_path).getroot()
    axes = 0
    for g in root.findall(SVG + "g"):
        assert g.get("class") == "strategy", g.attrib
        inner = g.findall(SVG + "svg")
        assert len(inner) == 1, "one picture per strategy"
        right = 0.0
        first_axis = min((float(l.get("y1")) for l in inner[0].iter(SVG + "line")
                          if l.get("x1") == "120" and l.get("x2") == "1160"),
                         default=float("inf"))
        for r, _, _ in placed_rects(inner[0]):
            if r.find(SVG + "title") is not None and float(r.get("y")) < first_axis:
                right = max(right, float(r.get("x")) + float(r.get("width")) - 120)
        print(g.get("data-pipeline"), g.get("data-makespan-ns"), g.get("data-span-ns"),
              "%.2f" % right)
    for line in root.iter(SVG + "line"):
        if line.get("x1") == "120" and line.get("x2") == "1160" and \
                line.get("y1") == line.get("y2"):
            axes += 1
    print("axes", axes)


def axes(svg_path):
    """Each strategy's time axes, as their ticks."""
    root = ET.parse(svg_path).getroot()
    for g in root.findall(SVG + "g"):
        inner = g.find(SVG + "svg")
        k, ticks = 0, None
        for e in inner:
            if e.tag == SVG + "line" and e.get("x1") == "120" and e.get("x2") == "1160":
                if ticks is not None:
                    print(g.get("data-pipeline"), k, " ".join(ticks))
                    k += 1
                ticks = []
            elif e.tag == SVG + "text" and e.get("text-anchor") == "middle" and \
                    ticks is not None:
                ticks.append("%s:%s" % (e.get("x"), e.text))
        if ticks is not None:
            print(g.get("data-pipeline"), k, " ".join(ticks))


def lanes(svg_path):
    """The lane labels per panel; 1 when a group is labelled two ways, two
    groups share a number, or a panel's numbered lanes are out of order."""
    root = ET.parse(svg_path).getroot()
    panels, label_of, name_of = [], {}, {}
    bad = 0
    for t in root.iter(SVG + "text"):
        if t.get("text-anchor") != "end":
            continue
        title = t.find(SVG + "title")
        label = (title.tail if title is not None else t.text) or ""
        if label == "compute":
            panels.append([])
            continue
        name = title.text if title is not None else label
        if label_of.setdefault(name, label) != label:
            print("%s is labelled %r and %r" % (name, label_of[name], label))
            bad = 1
        if label.startswith("@"):
            number = label.split()[0]
            if name_of.setdefault(number, name) != name:
                print("%s is %s and %s" % (number, name_of[number], name))
                bad = 1
        panels[-1].append((float(t.get("y")), label))
    for k, p in enumerate(panels):
        numbers = [int(l.split()[0][1:]) for _, l in sorted(p) if l.startswith("@")]
        if numbers != sorted(numbers):
            print("panel %d: lanes out of order" % k)
            bad = 1
        print("panel %d: %s" % (k, " | ".join(l for _, l in sorted(p))))
    return bad


def png(svg_path, png_path):
    root = ET.parse(svg_path).getroot()
    width, height, rows = read_png(png_path)
    assert (width, height) == (int(root.get("width")), int(root.get("height"))), \
        "the PNG has the SVG's size"
    white = sum(1 for r in rows for p in r if p == (255, 255, 255))
    colours = {p for r in rows for p in r}
    bad = 0
    if white > 0.95 * width * height or len(colours) < 8:
        print("blank picture: %d white pixels, %d colours" % (white, len(colours)))
        bad += 1
    lanes = {}
    for r, dx, dy in placed_rects(root):
        if r.find(SVG + "title") is None:
            continue
        x, y = float(r.get("x")) + dx, float(r.get("y")) + dy
        w, h = float(r.get("width")), float(r.get("height"))
        if w < 3:
            continue
        cx, cy = int(x + w / 2), int(y + h / 2)
        want, got = colour(r.get("fill")), rows[cy][cx]
        if max(abs(a - b) for a, b in zip(want, got)) > 6:
            print("at (%d, %d): want %s, got %s (%s)" %
                  (cx, cy, r.get("fill"), got, r.find(SVG + "title").text))
            bad += 1
        lanes[int(y)] = lanes.get(int(y), 0) + 1
    for y in sorted(lanes):
        print("lane %d: %d boxes seen" % (y, lanes[y]))
    return 1 if bad else 0


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "trace":
        try:
            trace(sys.argv[2])
        except (AssertionError, KeyError, ValueError, TypeError) as e:
            print("bad trace:", repr(e))
            sys.exit(1)
    elif len(sys.argv) == 3 and sys.argv[1] == "stack":
        stack(sys.argv[2])
    elif len(sys.argv) == 3 and sys.argv[1] == "axes":
        axes(sys.argv[2])
    elif len(sys.argv) == 3 and sys.argv[1] == "lanes":
        sys.exit(lanes(sys.argv[2]))
    elif len(sys.argv) == 4 and sys.argv[1] == "png":
        sys.exit(png(sys.argv[2], sys.argv[3]))
    else:
        sys.exit("usage: timeline_check.py trace FILE | stack SVG | axes SVG | lanes SVG | "
                 "png SVG PNG")
