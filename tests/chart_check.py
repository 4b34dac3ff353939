"""Checks of every chart kind as a reader sees it (t-charts.sh); argv: SVG files.

Each file is named <kind>[-<anything>].svg, kind one of report, model,
history, policy, audit.  For each: no text overlaps another or crosses the
plot's frame, and no line passes through a text (tests/svgcheck.py's
approximate text boxes); a report or model chart at most 620 px high; on a length axis, 12 and 16 on it and marked; history's axis reaches 16 and its projection legend shows
each line as drawn (same colour and dashes) and nothing that is not
drawn; policy's second axis holds P(collision) = 1 - exp(-E) of the
left axis's expected pairs E, and each set's year lines differ in colour
and carry a direct label.  Prints the problems; exits 1 if any.
"""
import math
import os
import sys
import xml.etree.ElementTree as ET

from svgcheck import NS, bad, check_lines_cross_text, classes, check_text_overlap, expect, tick_value, x_ticks, y_log_scale


def marked(root, what):
    xt = x_ticks(root)
    expect("12" in xt and "16" in xt, "%s: x axis %s lacks 12 or 16" % (what, sorted(xt)))
    debate = [g.get("data-length") for g in root.iter(NS + "g") if "debate" in classes(g)]
    expect(debate == ["12", "16"], "%s: 12 and 16 marked: %s" % (what, debate))


def history(root, what):
    panel = [g for g in root.iter(NS + "g") if g.get("class") == "projection"]
    if not panel:
        return
    drawn = set()
    for e in panel[0].iter():
        if e.tag in (NS + "path", NS + "polyline", NS + "line") and e.get("stroke") not in (None, "none"):
            if not any(e in list(g.iter()) for g in panel[0].iter(NS + "g") if "legend" in classes(g)):
                drawn.add((e.get("stroke"), e.get("stroke-dasharray")))
    for leg in panel[0].iter(NS + "g"):
        if "legend" not in classes(leg):
            continue
        for item in leg.iter(NS + "g"):
            line = item.find(NS + "line")
            if line is None:
                continue
            text = "".join(item.find(NS + "text").itertext())
            key = (line.get("stroke"), line.get("stroke-dasharray"))
            expect(key in drawn, "%s: legend %r shows a line %s the panel does not draw" % (what, text, key))
            dash = line.get("stroke-dasharray")
            if "dashed" in text or "dotted" in text:
                gaps = [float(v) for v in (dash or "0 0").split()]
                kind = "dotted" if dash and gaps[0] <= 3 else "dashed" if dash else "solid"
                expect(kind in text, "%s: legend %r but the line is %s (%s)" % (what, text, kind, dash))


def backtest(root, what):
    """history --backtest's panel: each legend's count of points inside is what is drawn."""
    for panel in root.iter(NS + "g"):
        if panel.get("class") != "backtest":
            continue
        drawn = {}
        for e in panel.iter(NS + "circle"):
            if "bt-point" not in classes(e):
                continue
            lo, hi, m = (int(e.get(k)) for k in ("data-low", "data-high", "data-measured"))
            hit = e.get("data-hit") == "1"
            expect(hit == (lo <= m <= hi), "%s: point %s..%s %s marked hit=%s"
                   % (what, lo, hi, m, hit))
            expect((e.get("fill") == "#fff") != hit, "%s: a %s drawn %s" % (
                what, "hit" if hit else "miss", "as a ring" if e.get("fill") == "#fff" else "filled"))
            d = drawn.setdefault(e.get("data-length"), [0, 0])
            d[0] += hit
            d[1] += 1
        texts = ["".join(t.itertext()) for t in panel.iter(NS + "text") if "legend-text" in classes(t)]
        for L, (h, n) in drawn.items():
            want = "%s chars (%d of %d inside)" % (L, h, n)
            expect(want in texts, "%s: legend lacks %r: %s" % (what, want, texts))


def policy(root, what):
    sc = y_log_scale(root)
    ticks = []
    for g in root.iter(NS + "g"):
        if {"axis", "p"} <= set(classes(g)):
            for t in g.iter(NS + "g"):
                if "tick" in classes(t):
                    ticks.append((tick_value(t.find(NS + "text").text), float(t.find(NS + "line").get("y1"))))
            labels = [e.text for e in g.iter(NS + "text") if "axis-label" in classes(e)]
            expect(labels and "P(collision)" in labels[0], "%s: second axis unlabelled" % what)
    if not expect(ticks, "%s: no P(collision) axis" % what) or not sc:
        return
    expect(any(p == 0.01 for p, _ in ticks) and any(p == 0.5 for p, _ in ticks),
           "%s: P axis lacks 1%% or 50%%: %s" % (what, ticks))
    l0, y0, b = sc
    for p, y in ticks:
        want = y0 + b * (math.log10(-math.log1p(-p)) - l0)
        expect(abs(y - want) < 0.3, "%s: P = %g at y %.1f, E = -ln(1-P) is at %.1f" % (what, p, y, want))
    for g in root.iter(NS + "g"):
        if not (g.get("id") or "").startswith("series-"):
            continue
        lines = [e for e in g.iter(NS + "polyline") if "model" in classes(e)]
        colours = [e.get("stroke") for e in lines]
        expect(len(set(colours)) == len(colours), "%s: %s's year lines share colours %s"
               % (what, g.get("id"), colours))
    labels = [e.text for e in root.iter(NS + "text") if "line-label" in classes(e)]
    years = [e.get("data-years") for e in root.iter(NS + "polyline") if "projection" in classes(e)]
    for y in set(years):
        expect("in %s years" % y in labels, "%s: no label 'in %s years' (%s)" % (what, y, labels))


for f in sys.argv[1:]:
    root = ET.parse(f).getroot()
    what = os.path.basename(f)
    kind = what.split("-")[0].split(".")[0]
    check_text_overlap(root, what)
    check_lines_cross_text(root, what)
    # a one-panel chart is seen whole in a 620 px high window
    expect(kind not in ("report", "model") or float(root.get("height")) <= 620,
           "%s: %s px high, more than a 620 px window" % (what, root.get("height")))
    if kind != "audit":  # years across, not lengths
        marked(root, what)
    backtest(root, what)
    {"report": lambda r, w: None, "model": lambda r, w: None, "history": history,
     "policy": policy, "audit": lambda r, w: None}[kind](root, what)

for b in bad:
    print(b)
sys.exit(1 if bad else 0)
