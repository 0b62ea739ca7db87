#!/usr/bin/env python3
"""Compare two samples the way ministat(1) does: Student's t with a pooled s.

For samples x (the reference, e.g. the base kernel) and y (e.g. the patched
kernel) it reports each sample's n, min, max, median, mean and standard
deviation, and

    Difference at 95.0% confidence
            <mean(y) - mean(x)> +/- <half-width of the confidence interval>
            <the same as a percentage of mean(x)>
            (Student's t, pooled s = <pooled standard deviation>)

where pooled s = sqrt(((n1-1)*s1^2 + (n2-1)*s2^2) / (n1+n2-2)), the
half-width is t(1-(1-c)/2, n1+n2-2) * s * sqrt(1/n1 + 1/n2), and the t
quantile is computed exactly (to double precision) by bisection on the
Student's t distribution function, written with the regularized incomplete
beta function. As in ministat, "No difference proven" is printed when the
interval contains zero. Python 3 standard library only.

As a module:

    import ttest
    r = ttest.ttest(base_samples, patched_samples)     # a dict, see ttest()
    print(ttest.format_ministat(r))

From the command line, with one number per line in each file (blank lines
and lines starting with '#' are ignored; -C picks a whitespace-separated
column, from 1):

    ttest.py [-c 95] [-C 1] [--json] BASE_FILE PATCHED_FILE
"""

import argparse
import json
import math
import statistics
import sys

__all__ = ["betainc", "t_cdf", "t_quantile", "ttest", "format_ministat"]


def _betacf(a, b, x):
    """Continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c = 1.0
    d = 1.0 - qab * x / qap
    if abs(d) < tiny:
        d = tiny
    d = 1.0 / d
    h = d
    for m in range(1, 10000):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        if abs(d) < tiny:
            d = tiny
        c = 1.0 + aa / c
        if abs(c) < tiny:
            c = tiny
        d = 1.0 / d
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        if abs(d) < tiny:
            d = tiny
        c = 1.0 + aa / c
        if abs(c) < tiny:
            c = tiny
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-16:
            return h
    raise ArithmeticError("incomplete beta: no convergence (a=%g b=%g x=%g)" % (a, b, x))


def betainc(a, b, x):
    """Regularized incomplete beta function I_x(a, b), for a, b > 0."""
    if a <= 0 or b <= 0:
        raise ValueError("betainc: a and b must be positive")
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    lbt = (math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
           + a * math.log(x) + b * math.log1p(-x))
    bt = math.exp(lbt)
    # The continued fraction converges fast for x < (a+1)/(a+b+2); use the
    # symmetry I_x(a, b) = 1 - I_(1-x)(b, a) otherwise.
    if x < (a + 1.0) / (a + b + 2.0):
        return bt * _betacf(a, b, x) / a
    return 1.0 - bt * _betacf(b, a, 1.0 - x) / b


def t_cdf(t, df):
    """P(T <= t) for Student's t distribution with df degrees of freedom."""
    if df <= 0:
        raise ValueError("t_cdf: df must be positive")
    if t == 0:
        return 0.5
    tail = 0.5 * betainc(df / 2.0, 0.5, df / (df + t * t))  # P(T > |t|)
    return 1.0 - tail if t > 0 else tail


def t_quantile(p, df):
    """The t with P(T <= t) = p, for Student's t with df degrees of freedom."""
    if not 0.0 < p < 1.0:
        raise ValueError("t_quantile: p must be in (0, 1)")
    if df <= 0:
        raise ValueError("t_quantile: df must be positive")
    if p == 0.5:
        return 0.0
    if p < 0.5:
        return -t_quantile(1.0 - p, df)
    lo, hi = 0.0, 1.0
    while t_cdf(hi, df) < p:
        lo, hi = hi, hi * 2.0
        if hi > 1e300:
            raise ArithmeticError("t_quantile: p too close to 1")
    for _ in range(2000):
        mid = (lo + hi) / 2.0
        if mid in (lo, hi):
            break
        if t_cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2.0


def _describe(xs):
    xs = [float(v) for v in xs]
    return {
        "n": len(xs),
        "min": min(xs),
        "max": max(xs),
        "median": statistics.median(xs),
        "mean": statistics.fmean(xs),
        "sd": statistics.stdev(xs),
    }


def ttest(x, y, confidence=95.0):
    """Compare sample y against the reference sample x (two lists of numbers).

    Returns a dict: "x" and "y" (each n, min, max, median, mean, sd), "df",
    "t" (the quantile used), "pooled_s", "diff" (mean(y) - mean(x)), "ci"
    (the half-width of its confidence interval), "pct" and "pct_ci" (the same
    as percentages of mean(x); None when mean(x) is 0), "confidence" and
    "significant" (whether the interval excludes zero).
    """
    if len(x) < 2 or len(y) < 2:
        raise ValueError("ttest: each sample needs at least 2 values")
    if not 0.0 < confidence < 100.0:
        raise ValueError("ttest: confidence must be a percentage in (0, 100)")
    dx, dy = _describe(x), _describe(y)
    n1, n2 = dx["n"], dy["n"]
    df = n1 + n2 - 2
    pooled_s = math.sqrt(((n1 - 1) * dx["sd"] ** 2 + (n2 - 1) * dy["sd"] ** 2) / df)
    t = t_quantile(1.0 - (1.0 - confidence / 100.0) / 2.0, df)
    ci = t * pooled_s * math.sqrt(1.0 / n1 + 1.0 / n2)
    diff = dy["mean"] - dx["mean"]
    if dx["mean"] != 0:
        pct, pct_ci = diff * 100.0 / dx["mean"], ci * 100.0 / dx["mean"]
    else:
        pct = pct_ci = None
    return {
        "x": dx, "y": dy, "df": df, "t": t, "pooled_s": pooled_s,
        "diff": diff, "ci": ci, "pct": pct, "pct_ci": pct_ci,
        "confidence": float(confidence),
        "significant": abs(diff) > ci,
    }


def _ministat_num(v):
    return "%g" % v


def format_ministat(r, names=("x", "+")):
    """ministat-style text for a ttest() result."""
    lines = ["    %-6s %13s %13s %13s %13s %13s"
             % ("N", "Min", "Max", "Median", "Avg", "Stddev")]
    for sym, key in zip(names, ("x", "y")):
        d = r[key]
        lines.append("%-3s %-6d %13s %13s %13s %13s %13s"
                     % (sym, d["n"], _ministat_num(d["min"]), _ministat_num(d["max"]),
                        _ministat_num(d["median"]), _ministat_num(d["mean"]),
                        _ministat_num(d["sd"])))
    if not r["significant"]:
        lines.append("No difference proven at %.1f%% confidence" % r["confidence"])
        return "\n".join(lines)
    lines.append("Difference at %.1f%% confidence" % r["confidence"])
    lines.append("\t%g +/- %g" % (r["diff"], r["ci"]))
    if r["pct"] is not None:
        lines.append("\t%g%% +/- %g%%" % (r["pct"], r["pct_ci"]))
    lines.append("\t(Student's t, pooled s = %g)" % r["pooled_s"])
    return "\n".join(lines)


def _read_column(path, column):
    vals = []
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            fields = line.split()
            if len(fields) < column:
                raise ValueError("%s:%d: no column %d" % (path, lineno, column))
            try:
                vals.append(float(fields[column - 1]))
            except ValueError:
                raise ValueError("%s:%d: not a number: %r"
                                 % (path, lineno, fields[column - 1])) from None
    return vals


def main(argv=None):
    ap = argparse.ArgumentParser(
        description="Student's t-test of two samples, as ministat(1) prints it")
    ap.add_argument("-c", "--confidence", type=float, default=95.0,
                    help="confidence level in percent (default 95)")
    ap.add_argument("-C", "--column", type=int, default=1,
                    help="column of the numbers, from 1 (default 1)")
    ap.add_argument("--json", action="store_true", help="print the result as JSON")
    ap.add_argument("base", help="reference sample, one number per line")
    ap.add_argument("patched", help="sample compared with the reference")
    args = ap.parse_args(argv)
    if args.column < 1:
        ap.error("--column counts from 1")
    try:
        x = _read_column(args.base, args.column)
        y = _read_column(args.patched, args.column)
        r = ttest(x, y, args.confidence)
    except (OSError, ValueError) as e:
        print("ttest: %s" % e, file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(r, indent=2))
    else:
        print("x %s\n+ %s" % (args.base, args.patched))
        print(format_ministat(r))
    return 0


if __name__ == "__main__":
    sys.exit(main())
