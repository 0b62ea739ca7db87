"""Student's t with a pooled s, as ministat(1) compares two samples.

The reports (zram-latency.py, zram-readers.py, mem-report.py,
offline-report.py, zsbench-report.py) compare a sample y (e.g. the patched
kernel) against a reference x (e.g. the base) the way ministat does:

    Difference at 95.0% confidence
            <mean(y) - mean(x)> +/- <half-width of the confidence interval>
            <the same as a percentage of mean(x)>
            (Student's t, pooled s = <pooled standard deviation>)

where pooled s = sqrt(((n1-1)*s1^2 + (n2-1)*s2^2) / (n1+n2-2)) and the
half-width is t(1-(1-c)/2, n1+n2-2) * s * sqrt(1/n1 + 1/n2). The t quantile
is scipy's (Debian's python3-scipy, under Debian's /usr/bin/python3); the
rest is the standard library. "No difference proven" when the interval
contains zero. For two files of numbers from the command line, use
ministat itself (Debian's ministat): ministat -c 95 BASE_FILE PATCHED_FILE.

    import ttest
    r = ttest.ttest(base_samples, patched_samples)     # a dict, see ttest()
    print(ttest.format_ministat(r))
"""

import math
import statistics

from scipy.stats import t as student_t

__all__ = ["t_quantile", "ttest", "format_ministat"]


def t_quantile(p, df):
    """The t with P(T <= t) = p, for Student's t with df degrees of freedom."""
    if not 0.0 < p < 1.0:
        raise ValueError("t_quantile: p must be in (0, 1)")
    if df <= 0:
        raise ValueError("t_quantile: df must be positive")
    return float(student_t.ppf(p, df))


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
