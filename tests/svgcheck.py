"""Checks of git-abbrev's SVG charts that every chart test shares.

A chart is read back with xml.etree and measured: the x axis's ticks, the
log scale of the y axis from its ticks, and where two lengths' points sit
on it.  Problems are collected in `bad` (expect() adds one) so that a test
reports them all at the end.  Used by t-formats.sh (report, model, history)
and t-policy.sh.
"""
import math
import re

bad = []


def expect(cond, msg):
    if not cond:
        bad.append(msg)
    return cond


NS = "{http://www.w3.org/2000/svg}"


def classes(e):
    return e.get("class", "").split()


def centre(e):
    """Centre of a point marker: circle, rect (others are not used here)."""
    if e.tag == NS + "circle":
        return float(e.get("cx")), float(e.get("cy"))
    return (float(e.get("x")) + float(e.get("width")) / 2,
            float(e.get("y")) + float(e.get("height")) / 2)


SUPERSCRIPT = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻",
                            "0123456789-")


def tick_value(text):
    """The number a tick label reads as: "1,000", "0.001", "10⁹", "2.5×10⁹", "10⁻⁵".

    A label in C's exponent form ("1e+09", "1e-05") is not how people read
    numbers: it is reported, and still read."""
    t = text.replace(",", "")
    m = re.fullmatch("(?:(-?[0-9.]+)×|(-?))10([⁰¹²³⁴-⁹⁻]+)", t)
    if m:
        mant = float(m.group(1)) if m.group(1) else (-1.0 if m.group(2) else 1.0)
        return mant * 10 ** int(m.group(3).translate(SUPERSCRIPT))
    expect("e" not in t, "svg: tick label %r in C's exponent form" % text)
    return float(t)


def y_ticks(root):
    """[(log10 value, y)] of the y axis's ticks, in the chart's order."""
    ticks = []
    for g in root.iter(NS + "g"):
        if {"axis", "y"} <= set(classes(g)):
            for t in g.iter(NS + "g"):
                if "tick" in classes(t):
                    v = tick_value(t.find(NS + "text").text)
                    ticks.append((math.log10(v), float(t.find(NS + "line").get("y1"))))
    return ticks


def y_log_scale(root):
    """(l0, y0, b) of the y axis's ticks: y = y0 + b (log10 v - l0)."""
    ticks = y_ticks(root)
    if not expect(len(ticks) >= 2, "svg: fewer than 2 y ticks"):
        return None
    (l0, y0), (l1, y1) = ticks[0], ticks[-1]
    return l0, y0, (y1 - y0) / (l1 - l0)


def x_ticks(root):
    """{label: x} of the x axis's ticks."""
    out = {}
    for g in root.iter(NS + "g"):
        if {"axis", "x"} <= set(classes(g)):
            for t in g.iter(NS + "g"):
                if "tick" in classes(t):
                    out[t.find(NS + "text").text] = float(t.find(NS + "line").get("x1"))
    return out


def check_12_16(root, what, y12, y16, v12, v16):
    """12 and 16 on the x axis, and y12 - y16 the model's ratio v12 / v16 on the log axis."""
    xt = x_ticks(root)
    expect("12" in xt and "16" in xt, "%s: x axis ticks %s lack 12 or 16" % (what, sorted(xt)))
    sc = y_log_scale(root)
    bottom = max(y for g in root.iter(NS + "rect") if "frame" in classes(g)
                 for y in [float(g.get("y")) + float(g.get("height"))])
    # a model value below the axis is clipped: nothing to measure there
    if sc and v12 > 0 and v16 > 0 and sc[1] + sc[2] * (math.log10(v16) - sc[0]) <= bottom + 0.5:
        want = sc[2] * math.log10(v16 / v12)
        expect(abs((y16 - y12) - want) < 0.3 and (v12 / v16 < 10 or abs(y16 - y12) > 20),
               "%s: 16 sits %.1f px from 12, the model's ratio %.4g says %.1f"
               % (what, y16 - y12, v12 / v16, want))


# ---- text boxes: no text may overlap another ------------------------------
#
# A browser's text metrics are not available here, so each <text> gets an
# approximate box (approximate on purpose, a little wider than drawn):
# its font size from the chart's style (svg.c's svg_begin: 16 px titles,
# 13 px axis labels, 11 px tick labels, 12 px otherwise); most chars 0.62
# of the font size wide (DejaVu Sans, the first font asked for, draws
# digits and lower case 0.55-0.64 em wide), narrow ones (i, l, t, r,
# punctuation, space, superscripts) 0.36, capitals, m, w and % 0.78, bold
# 10% wider; from 0.75 em above the baseline to 0.22 em below it.
# Measured against Chromium's rendering of the policy chart's notes, this
# is 2-3% wider than drawn.  Two boxes that overlap by more than
# OVERLAP_PX both ways are an overlap; so is a text crossing the plot
# frame's edge, or leaving the page.

OVERLAP_PX = 1.0
LINE_GAP_PX = 1.0
NARROW = set("⁰¹²³⁴⁵⁶⁷⁸⁹⁻ .,:;'!|iljtfr()[]")
WIDE = set("ABCDEFGHKMNOQRUVWXYmw%@")


def font_size(cls, parents):
    if "title" in cls:
        return 16.0
    if "axis-label" in cls:
        return 13.0
    if any("tick" in classes(p) for p in parents):
        return 11.0
    return 12.0


def text_width(s, size, bold=False):
    w = 0.0
    for ch in s:
        w += 0.36 if ch in NARROW else 0.78 if ch in WIDE else 0.62
    if bold:
        w *= 1.1
    return w * size


def text_boxes(root):
    """[(x0, y0, x1, y1, text)] of every <text> of the chart (tooltips are not text)."""
    out = []

    def walk(e, parents):
        for c in e:
            if c.tag == NS + "text":
                s = "".join(c.itertext())
                if not s.strip():
                    continue
                cls = classes(c)
                size = font_size(cls, parents)
                w = text_width(s, size, "title" in cls)
                anchor = c.get("text-anchor") or "start"
                tr = c.get("transform", "")
                m = re.match(r"translate\(([-0-9.]+)[ ,]+([-0-9.]+)\)\s*rotate\(-90\)", tr)
                if m:
                    # turned along the left side: the box is upright
                    x, y = float(m.group(1)), float(m.group(2))
                    off = {"start": 0, "middle": w / 2, "end": w}[anchor]
                    out.append((x - 0.75 * size, y + off - w, x + 0.22 * size, y + off, s))
                    continue
                x, y = float(c.get("x", 0)), float(c.get("y", 0))
                x0 = x - {"start": 0, "middle": w / 2, "end": w}[anchor]
                out.append((x0, y - 0.75 * size, x0 + w, y + 0.22 * size, s))
            elif c.tag != NS + "title":
                walk(c, parents + [c])

    walk(root, [root])
    return out


def check_text_overlap(root, what):
    """No two texts overlap, none crosses the plot frame's edges, all inside the page."""
    boxes = text_boxes(root)
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            if (min(a[2], b[2]) - max(a[0], b[0]) > OVERLAP_PX and
                    min(a[3], b[3]) - max(a[1], b[1]) > OVERLAP_PX):
                expect(False, "%s: text %r overlaps text %r" % (what, a[4], b[4]))
    width, height = float(root.get("width")), float(root.get("height"))
    for a in boxes:
        expect(a[0] >= -OVERLAP_PX and a[1] >= -OVERLAP_PX and a[2] <= width + OVERLAP_PX and
               a[3] <= height + OVERLAP_PX, "%s: text %r leaves the %gx%g page"
               % (what, a[4], width, height))
    for r in root.iter(NS + "rect"):
        if "frame" not in classes(r):
            continue
        fx0, fy0 = float(r.get("x")), float(r.get("y"))
        fx1, fy1 = fx0 + float(r.get("width")), fy0 + float(r.get("height"))
        for a in boxes:
            inside_x = a[0] < fx1 and a[2] > fx0
            inside_y = a[1] < fy1 and a[3] > fy0
            crosses = ((inside_x and any(a[1] + OVERLAP_PX < y < a[3] - OVERLAP_PX
                                         for y in (fy0, fy1))) or
                       (inside_y and any(a[0] + OVERLAP_PX < x < a[2] - OVERLAP_PX
                                         for x in (fx0, fx1))))
            expect(not crosses, "%s: text %r crosses the plot's frame" % (what, a[4]))


# ---- lines: none may pass through a text -----------------------------------
#
# Every stroked line of the chart, as drawn: <line>, <polyline>, and <path>s
# of straight segments (M, L, Z) that are not filled (a filled path is a
# marker or a band).  Grid lines are behind everything and meant to be read
# through, so they are left out.  A line clipped to the plot (clip-path on
# it or on a group around it) is cut to its clip rectangle first: what is
# outside is not drawn.  A line crosses a text when its centre line, widened
# by half its stroke width, comes within LINE_GAP_PX of the text's box
# (text_boxes): a line that touches a text's glyphs is as hard to read
# as one through them.

def _clip_rects(root):
    """{id: (x0, y0, x1, y1)} of the chart's clipPaths (one <rect> each)."""
    out = {}
    for cp in root.iter(NS + "clipPath"):
        r = cp.find(NS + "rect")
        if r is not None:
            x, y = float(r.get("x", 0)), float(r.get("y", 0))
            out[cp.get("id")] = (x, y, x + float(r.get("width")), y + float(r.get("height")))
    return out


def _points(e):
    """The vertices of a line element as a list of runs [[(x, y), ...], ...]."""
    if e.tag == NS + "line":
        return [[(float(e.get("x1", 0)), float(e.get("y1", 0))),
                 (float(e.get("x2", 0)), float(e.get("y2", 0)))]]
    if e.tag == NS + "polyline":
        nums = [float(v) for v in re.split(r"[ ,]+", e.get("points", "").strip()) if v]
        return [list(zip(nums[0::2], nums[1::2]))]
    runs = []
    for cmd, args in re.findall(r"([MLZmlz])([^MLZmlz]*)", e.get("d", "")):
        nums = [float(v) for v in re.split(r"[ ,]+", args.strip()) if v]
        if cmd == "M":
            runs.append([])
        if cmd in "ML":
            runs[-1].extend(zip(nums[0::2], nums[1::2]))
        elif cmd in "Zz" and runs and runs[-1]:
            runs[-1].append(runs[-1][0])
        else:
            return []  # relative commands: not used by the charts
    return runs


def line_segments(root):
    """[(x0, y0, x1, y1, half_width, what)] of every stroked line, cut to its clip."""
    clips = _clip_rects(root)
    out = []

    def walk(e, clip, grid):
        for c in e:
            cl = classes(c)
            cid = re.match(r"url\(#([^)]+)\)", c.get("clip-path", ""))
            cclip = clips.get(cid.group(1)) if cid else clip
            cgrid = grid or "grid" in cl
            if c.tag in (NS + "line", NS + "polyline", NS + "path") and not cgrid:
                stroke = c.get("stroke")
                filled = c.get("fill") not in (None, "none") or (
                    c.tag == NS + "path" and c.get("fill") is None)
                if stroke not in (None, "none") and not (c.tag == NS + "path" and filled):
                    hw = float(c.get("stroke-width", 1)) / 2
                    name = "%s%s" % (c.tag[len(NS):], "." + ".".join(cl) if cl else "")
                    for run in _points(c):
                        for (ax, ay), (bx, by) in zip(run, run[1:]):
                            seg = _clip_segment(ax, ay, bx, by, cclip) if cclip else (ax, ay, bx, by)
                            if seg:
                                out.append(seg + (hw, name))
            if c.tag not in (NS + "title", NS + "defs", NS + "clipPath"):
                walk(c, cclip, cgrid)

    walk(root, None, False)
    return out


def _clip_segment(ax, ay, bx, by, r):
    """The part of the segment inside rectangle r (x0, y0, x1, y1), or None (Liang-Barsky)."""
    t0, t1 = 0.0, 1.0
    dx, dy = bx - ax, by - ay
    for p, q in ((-dx, ax - r[0]), (dx, r[2] - ax), (-dy, ay - r[1]), (dy, r[3] - ay)):
        if p == 0:
            if q < 0:
                return None
            continue
        t = q / p
        if p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1:
            return None
    return (ax + t0 * dx, ay + t0 * dy, ax + t1 * dx, ay + t1 * dy)


def check_lines_cross_text(root, what):
    """No stroked line passes through a text's box."""
    segs = line_segments(root)
    for a in text_boxes(root):
        for x0, y0, x1, y1, hw, name in segs:
            grow = hw + LINE_GAP_PX
            box = (a[0] - grow, a[1] - grow, a[2] + grow, a[3] + grow)
            if box[2] > box[0] and box[3] > box[1] and _clip_segment(x0, y0, x1, y1, box):
                expect(False, "%s: a %s crosses text %r (%.1f,%.1f to %.1f,%.1f)"
                       % (what, name, a[4], x0, y0, x1, y1))
                break
