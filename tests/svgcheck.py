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
