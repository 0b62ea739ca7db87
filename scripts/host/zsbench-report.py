#!/usr/bin/env python3
"""Report on zsbench (bench/zsmalloc) runs: base kernel against patched.

    zsbench-report.py --base LOG --patched LOG \\
        --base-version STR --patched-version STR --command STR \\
        --out-md FILE --out-json FILE [--base-api old|new] \\
        [--patched-api old|new] [--confidence 95]

Each LOG is a console log (or the guest's stdout) that holds the lines that
the zsbench module prints, one per run:

    zsbench: api=<old|new> run=<i> objs=<n> read_ns=<x> write_ns=<y> total_ns=<x+y>

anywhere in a line (after a printk timestamp such as "[   12.345678] ", a
caller id, or other text). A line that the module printed and the guest
script repeated is counted once: records equal in every field are
duplicates. Lines garbled by interleaved console output do not match and
are skipped; a record whose total is not read + write is rejected. A log
that reports "zsbench: VERIFY FAILED" is an error.

Under QEMU -icount shift=0 one guest ns is one executed guest instruction,
so the figures are reported as instructions.

Writes a Markdown report (per-run totals of both kernels, mean and standard
deviation, and a Student's t comparison, as ministat prints it, of the
total, the read phase and the write phase) and a JSON file with every
per-run number and the comparisons.
"""

import argparse
import datetime
import json
import os
import math
import re
import statistics
import sys

sys.dont_write_bytecode = True  # keep scripts/host free of __pycache__
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ttest  # noqa: E402

LINE_RE = re.compile(
    r"zsbench: api=(?P<api>old|new|copy) run=(?P<run>\d+) objs=(?P<objs>\d+)"
    r" read_ns=(?P<read>\d+) write_ns=(?P<write>\d+) total_ns=(?P<total>\d+)(?!\d)")
VERIFY_RE = re.compile(r"zsbench: VERIFY FAILED")
METRICS = (("total", "total_ns", "Total (read + write)"),
           ("read", "read_ns", "Read phase"),
           ("write", "write_ns", "Write phase"))


class ReportError(Exception):
    pass


def parse_log(path, want_api=None):
    """The zsbench runs in a log, as a list of dicts, in log order."""
    try:
        with open(path, "rb") as f:
            text = f.read().decode("utf-8", errors="replace")
    except OSError as e:
        raise ReportError("cannot read %s: %s" % (path, e.strerror)) from None
    runs, seen, warnings = [], set(), []
    for lineno, line in enumerate(text.replace("\r", "\n").split("\n"), 1):
        if VERIFY_RE.search(line):
            raise ReportError("%s:%d: zsbench reports a data mismatch: %s"
                              % (path, lineno, line.strip()))
        m = LINE_RE.search(line)
        if not m:
            continue
        rec = {"api": m["api"], "run": int(m["run"]), "objs": int(m["objs"]),
               "read_ns": int(m["read"]), "write_ns": int(m["write"]),
               "total_ns": int(m["total"])}
        if rec["read_ns"] + rec["write_ns"] != rec["total_ns"]:
            warnings.append("%s:%d: skipped, total_ns is not read_ns + write_ns: %s"
                            % (path, lineno, line.strip()))
            continue
        key = tuple(sorted(rec.items()))
        if key in seen:
            continue  # the same line again (kernel console and guest stdout)
        seen.add(key)
        rec["line"] = lineno
        runs.append(rec)
    apis = sorted({r["api"] for r in runs})
    if want_api:
        runs = [r for r in runs if r["api"] == want_api]
        if not runs:
            raise ReportError("%s: no zsbench lines with api=%s (found: %s)"
                              % (path, want_api, ", ".join(apis) or "none"))
    elif len(apis) > 1:
        raise ReportError("%s: zsbench lines of several APIs (%s): pick one with "
                          "--base-api/--patched-api" % (path, ", ".join(apis)))
    if not runs:
        raise ReportError("%s: no zsbench result lines" % path)
    objs = sorted({r["objs"] for r in runs})
    if len(objs) > 1:
        raise ReportError("%s: runs with different object counts (%s)"
                          % (path, ", ".join(map(str, objs))))
    indices = [r["run"] for r in runs]
    if len(set(indices)) != len(indices):
        warnings.append("%s: run numbers repeat (the module was loaded more than "
                        "once?): every run is kept as a sample" % path)
    return runs, warnings


def fmt_int(v):
    return "{:,}".format(int(round(v)))


def fmt_num(v):
    return "{:,.1f}".format(v)


def fmt_pct(v):
    return "n/a" if v is None else "%+.4f%%" % v


def shown_path(path):
    """A path under the repository, relative to it: no machine's path in a result."""
    top = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    rel = os.path.relpath(os.path.abspath(path), top)
    return path if rel.startswith("..") else rel


def side(name, path, version, runs):
    return {"name": name, "log": shown_path(path), "version": version, "api": runs[0]["api"],
            "objs": runs[0]["objs"], "n": len(runs),
            "runs": [{k: r[k] for k in ("run", "read_ns", "write_ns", "total_ns")}
                     for r in runs]}


def markdown(data):
    b, p = data["base"], data["patched"]
    out = []
    w = out.append
    w("# zsmalloc API microbenchmark: base against patched")
    w("")
    w("- Date: %s" % data["date"])
    w("- Command: `%s`" % data["command"])
    w("- Base kernel: %s (zsbench api=%s, log `%s`)" % (b["version"], b["api"], b["log"]))
    w("- Patched kernel: %s (zsbench api=%s, log `%s`)" % (p["version"], p["api"], p["log"]))
    w("- Objects per run: %s (base), %s (patched); runs: %d (base), %d (patched)"
      % (fmt_int(b["objs"]), fmt_int(p["objs"]), b["n"], p["n"]))
    w("- Unit: %s" % data["unit"])
    w("")
    w("## Per-run totals (read + write)")
    w("")
    w("| Run | Base | Patched |")
    w("|----:|-----:|--------:|")
    for i in range(max(b["n"], p["n"])):
        cells = []
        for s in (b, p):
            cells.append(fmt_int(s["runs"][i]["total_ns"]) if i < s["n"] else "")
        w("| %d | %s | %s |" % (i, cells[0], cells[1]))
    t = data["ttest"]["total"]
    w("| **Mean** | %s | %s |" % (fmt_num(t["x"]["mean"]), fmt_num(t["y"]["mean"])))
    w("| **SD** | %s | %s |" % (fmt_num(t["x"]["sd"]), fmt_num(t["y"]["sd"])))
    w("")
    conf = data["confidence"]
    w("## Difference at %.1f%% confidence (Student's t, pooled s)" % conf)
    w("")
    w("Patched minus base; percentages are of the base mean.")
    w("")
    w("| Metric | Base mean ± SD | Patched mean ± SD | Difference ± CI | "
      "Difference % ± CI % | Pooled s | df | t | Verdict |")
    w("|---|---:|---:|---:|---:|---:|---:|---:|---|")
    for key, _, label in METRICS:
        r = data["ttest"][key]
        verdict = "difference" if r["significant"] else "no difference proven"
        pct = "n/a" if r["pct"] is None else "%s ± %.4f%%" % (fmt_pct(r["pct"]), r["pct_ci"])
        w("| %s | %s ± %s | %s ± %s | %s ± %s | %s | %s | %d | %.4f | %s |"
          % (label, fmt_num(r["x"]["mean"]), fmt_num(r["x"]["sd"]),
             fmt_num(r["y"]["mean"]), fmt_num(r["y"]["sd"]),
             fmt_num(r["diff"]), fmt_num(r["ci"]), pct, fmt_num(r["pooled_s"]),
             r["df"], r["t"], verdict))
    w("")
    for key, _, label in METRICS:
        w("### %s" % label)
        w("")
        w("```")
        w("x base (api=%s)" % b["api"])
        w("+ patched (api=%s)" % p["api"])
        w(ttest.format_ministat(data["ttest"][key]))
        w("```")
        w("")
    o = data.get("overhead")
    if o:
        w("## The API by itself")
        w("")
        w("Each kernel also ran the module built with API=copy: the same loops and "
          "copies (every object read out completely, written completely) on kmalloc() "
          "buffers, without zsmalloc (%d and %d runs). A run minus that floor is what "
          "the zsmalloc API costs by itself: mapping, locking, locating the object, "
          "and the copies it makes on its own (the per-CPU buffer of the old API, "
          "local_copy of the new one). Instructions per run, means; the interval is "
          "%.1f%% with the standard errors of all four samples combined."
          % (o["total"]["copy_runs"][0], o["total"]["copy_runs"][1], conf))
        w("")
        w("| Metric | Base floor (copy) | Base API | Patched floor (copy) | Patched API | "
          "Difference ± CI | Difference % ± CI % |")
        w("|---|---:|---:|---:|---:|---:|---:|")
        for key, _, label in METRICS:
            r = o[key]
            pct = "n/a" if r["pct"] is None else "%s ± %.3f%%" % (fmt_pct(r["pct"]), r["pct_ci"])
            w("| %s | %s | %s | %s | %s | %s ± %s | %s |"
              % (label, fmt_num(r["floor_base"]), fmt_num(r["base_api"]),
                 fmt_num(r["floor_patched"]), fmt_num(r["patched_api"]),
                 fmt_num(r["diff"]), fmt_num(r["ci"]), pct))
        w("")
    w("## Per-run phases")
    w("")
    w("| Run | Base read | Base write | Patched read | Patched write |")
    w("|----:|----------:|-----------:|-------------:|--------------:|")
    for i in range(max(b["n"], p["n"])):
        cells = []
        for s in (b, p):
            for k in ("read_ns", "write_ns"):
                cells.append(fmt_int(s["runs"][i][k]) if i < s["n"] else "")
        w("| %d | %s |" % (i, " | ".join(cells)))
    w("")
    w("The t quantile is exact for n1 + n2 - 2 degrees of freedom; ministat "
      "rounds it to three decimals (2.101 for 18), so its intervals can be "
      "some 0.004% wider.")
    if data["warnings"]:
        w("")
        w("## Parser warnings")
        w("")
        for msg in data["warnings"]:
            w("- %s" % msg)
    return "\n".join(out) + "\n"


def api_overhead(base_log, patched_log, base, patched, confidence):
    """What the API itself costs: each kernel's runs minus the runs of the
    api=copy module (the same copies without zsmalloc) in the same log.
    None when a log has no api=copy runs."""
    try:
        floors = [parse_log(base_log, "copy")[0], parse_log(patched_log, "copy")[0]]
    except ReportError:
        return None
    res = {}
    for key, field, _ in METRICS:
        samples = [[r[field] for r in runs]
                   for runs in (base, floors[0], patched, floors[1])]
        means = [statistics.mean(x) for x in samples]
        sds = [statistics.stdev(x) if len(x) > 1 else 0.0 for x in samples]
        ns = [len(x) for x in samples]
        ob, op = means[0] - means[1], means[2] - means[3]
        # standard error of (patched - floor) - (base - floor), t with the
        # smallest of the samples' degrees of freedom (conservative)
        se = math.sqrt(sum(sd * sd / n for sd, n in zip(sds, ns)))
        t = ttest.t_quantile(0.5 + confidence / 200.0, min(ns) - 1)
        res[key] = {"base_api": ob, "patched_api": op, "floor_base": means[1],
                    "floor_patched": means[3], "diff": op - ob, "ci": t * se,
                    "pct": 100.0 * (op - ob) / ob if ob else None,
                    "pct_ci": 100.0 * t * se / ob if ob else None,
                    "copy_runs": [ns[1], ns[3]]}
    return res


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--base", required=True, help="console log of the base kernel")
    ap.add_argument("--patched", required=True, help="console log of the patched kernel")
    ap.add_argument("--base-version", required=True, help="base kernel version string")
    ap.add_argument("--patched-version", required=True,
                    help="patched kernel version string")
    ap.add_argument("--command", required=True, help="the command that produced the logs")
    ap.add_argument("--out-md", required=True, help="Markdown report to write")
    ap.add_argument("--out-json", required=True, help="JSON file to write")
    ap.add_argument("--base-api", choices=("old", "new", "copy"),
                    help="only use base runs of this API (needed if the log has both)")
    ap.add_argument("--patched-api", choices=("old", "new", "copy"),
                    help="only use patched runs of this API (needed if the log has both)")
    ap.add_argument("--confidence", type=float, default=95.0,
                    help="confidence level in percent (default 95)")
    args = ap.parse_args(argv)

    try:
        base, wb = parse_log(args.base, args.base_api)
        patched, wp = parse_log(args.patched, args.patched_api)
        warnings = wb + wp
        if base[0]["objs"] != patched[0]["objs"]:
            warnings.append("base and patched runs have different object counts "
                            "(%d and %d): the totals are not comparable"
                            % (base[0]["objs"], patched[0]["objs"]))
        tests = {}
        for key, field, _ in METRICS:
            tests[key] = ttest.ttest([r[field] for r in base],
                                     [r[field] for r in patched], args.confidence)
        overhead = api_overhead(args.base, args.patched, base, patched,
                                args.confidence)
    except (ReportError, ValueError) as e:
        print("zsbench-report: %s" % e, file=sys.stderr)
        return 1
    for msg in warnings:
        print("zsbench-report: warning: %s" % msg, file=sys.stderr)

    kernels = {}
    for name, version in (("base", args.base_version), ("patched", args.patched_version)):
        m = re.search(r"-harness-([0-9a-f]{12})", version)
        kernels[name] = {"tree_ids": [m.group(1) if m else "?"]}
    data = {
        "format": "zsmalloc-api/1",
        "kernels": kernels,
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC"),
        "command": args.command,
        "unit": "guest instructions (ns of guest time under QEMU -icount shift=0)",
        "confidence": args.confidence,
        "base": side("base", args.base, args.base_version, base),
        "patched": side("patched", args.patched, args.patched_version, patched),
        "ttest": tests,
        "overhead": overhead,
        "warnings": warnings,
    }
    try:
        with open(args.out_md, "w") as f:
            f.write(markdown(data))
        with open(args.out_json, "w") as f:
            json.dump(data, f, indent=2)
            f.write("\n")
    except OSError as e:
        print("zsbench-report: cannot write: %s" % e, file=sys.stderr)
        return 1
    t = tests["total"]
    print("zsbench-report: total %s (%s ± %.4f%%), %s and %s written"
          % ("difference" if t["significant"] else "no difference proven",
             fmt_pct(t["pct"]), t["pct_ci"] or 0.0, args.out_md, args.out_json))
    return 0


if __name__ == "__main__":
    sys.exit(main())
