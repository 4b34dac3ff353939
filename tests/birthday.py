"""birthday.py - the birthday model, computed here, apart from the tool:
the one copy of its formulas that the test scripts and checkers share.

n IDs, uniformly random over the 16^L prefixes of L hex chars (q = 16^-L):

    pairs(n, L)              expected pairs sharing a prefix: n(n-1)/2 q
    p_collision(n, L)        P(some pair shares one) = 1 - e^-pairs
    capacity(L, p)           the largest n with n(n-1)/2 <= -ln(1-p) 16^L
    min_length(n, p)         the shortest L (4..64) with p_collision <= p, else 65
    expected_objects(n, L)   IDs sharing their prefix: n (1 - (1-q)^(n-1))
    expected_prefixes(n, L)  prefixes of two IDs or more: 16^L (1 - (1-q)^n - nq (1-q)^(n-1))
    p_new(n, L)              P(one more ID shares a prefix with one of n): 1 - (1-q)^n
    poisson_interval(mu, q)  the central 1-2q of Poisson(mu): (lo, hi)

pairs, p_collision, capacity and expected_prefixes are computed in
decimals of 60 digits or more, the rest in floats with log1p/expm1, so
that a test can ask for 1e-12.
"""
import math
from decimal import Decimal, localcontext


def _pairs(n, L):
    return Decimal(n) * (Decimal(n) - 1) / 2 / Decimal(16) ** L


def pairs(n, L):
    with localcontext() as c:
        c.prec = 60
        return float(_pairs(n, L))


def p_collision(n, L):
    if n < 2:
        return 0.0
    with localcontext() as c:
        c.prec = 60
        return float(1 - (-_pairs(n, L)).exp())


def capacity(L, p):
    """The largest whole n with n(n-1)/2 <= -ln(1-p) 16^L."""
    with localcontext() as c:
        c.prec = 60
        t = int(-(Decimal(1) - Decimal(p)).ln() * Decimal(16) ** L)
    n = math.isqrt(2 * t) + 2
    while n * (n - 1) // 2 > t:
        n -= 1
    return n


def min_length(n, p):
    for L in range(4, 65):
        if p_collision(n, L) <= p:
            return L
    return 65


def expected_objects(n, L):
    if n < 2:
        return 0.0
    return n * -math.expm1((n - 1) * math.log1p(-16.0 ** -L))


def expected_prefixes(n, L):
    """In decimals of 60 digits past those 16^L takes: the two terms of the
    formula nearly cancel when n q is small (3 IDs at 16 chars), which a
    float cannot follow."""
    if n < 2:
        return 0.0
    with localcontext() as c:
        c.prec = 60 + 2 * L
        m = Decimal(16) ** L
        q = 1 / m
        a = (1 - q) ** (n - 1)
        return float(m * (1 - a * (1 - q) - n * q * a))


def p_new(n, L):
    return -math.expm1(n * math.log1p(-16.0 ** -L))


def poisson_interval(mu, q=0.005):
    """lo, hi with P(X < lo) <= q and P(X > hi) <= q, X ~ Poisson(mu)."""
    if not mu > 0:
        return 0, 0
    # from where the mass below is negligible (< 1e-30), as a sum from 0 would
    k = max(0, int(math.floor(mu - 12 * math.sqrt(mu) - 10)))
    c, lo = 0.0, None
    while True:
        c += math.exp(k * math.log(mu) - mu - math.lgamma(k + 1))
        if lo is None and c > q:
            lo = k
        if c >= 1 - q:
            return lo, k
        k += 1
