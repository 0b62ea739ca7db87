#!/usr/bin/env python3
"""The report of bench-latency.sh: reads and swap-ins timed from when due.

    latency-report.py [--command CMD] [--base-text T] [--project P]
        --out-md FILE --out-json FILE TREE=RUNDIR...

Each RUNDIR is one boot (scripts/guest/bench-latency.sh): its run.info
(tree, tree id, CPUs) and report.log (BENCH-LAT lines, the ratereader
writers' fio JSON). A sample is one measurement (a boot and a seed); for
each CPU count, preemption model, tool, scenario and algorithm the report
gives each kernel's medians over its samples, and compares the kernel with
"base" (the stock kernel) the way ministat does (ttest.py): the p99 and
p99.9 from the due time, and the writers' throughput. "below base" and
"above base" only where the 95 % interval excludes zero; else "not proven".
"""

import argparse
import json
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ttest  # noqa: E402

KV = re.compile(r"(\w+)=(\S+)")


def info(rundir):
    d = {}
    try:
        with open(os.path.join(rundir, "run.info")) as f:
            for line in f:
                if "=" in line:
                    k, v = line.rstrip("\n").split("=", 1)
                    d[k] = v
    except OSError:
        pass
    try:
        with open(os.path.join(rundir, "cmdline")) as f:
            m = re.search(r"\bpreempt=(\w+)", f.read())
            if m:
                d["preempt"] = m.group(1)
    except OSError:
        pass
    return d


def num(v):
    try:
        return float(v)
    except ValueError:
        return v


def parse(rundir):
    """The measurements of one boot: a list of dicts."""
    out = []
    path = os.path.join(rundir, "report.log")
    with open(path, errors="replace") as f:
        lines = f.read().splitlines()
    i = 0
    fio = {}
    while i < len(lines):
        line = lines[i]
        if line.startswith("BENCH-LAT-FIO-BEGIN"):
            key = dict(KV.findall(line))
            j = i + 1
            body = []
            while j < len(lines) and not lines[j].startswith("BENCH-LAT-FIO-END"):
                body.append(lines[j])
                j += 1
            try:
                doc = json.loads("\n".join(body))
                w = doc["jobs"][0]["write"]
                fio[(key["tool"], key["algo"], key["scenario"], key["run"])] = {
                    "write_kib_s": float(w["bw"]), "write_iops": float(w["iops"])}
            except (ValueError, KeyError, IndexError):
                pass
            i = j + 1
            continue
        if line.startswith("BENCH-LAT "):
            m = dict((k, num(v)) for k, v in KV.findall(line))
            m["algo"] = str(re.search(r"algo=(\S+)", line).group(1))
            m["run"] = str(int(m["run"]))
            out.append(m)
        i += 1
    for m in out:
        f = fio.get((m["tool"], m["algo"], m["scenario"], m["run"]))
        if m["tool"] == "ratereader" and f:
            m["write_mib_s"] = f["write_kib_s"] / 1024.0
        if m["tool"] == "swapin" and m.get("writers", 0) and m.get("achieved"):
            secs = m["touches"] / m["achieved"]
            m["write_mib_s"] = m["writer_rounds"] * 8.0 / secs
    return out


# (label, swapin key, ratereader key)
METRICS = [
    ("rate", "achieved", "achieved"),
    ("p50", "major_p50_us", "p50_us"),
    ("p99", "major_p99_us", "p99_us"),
    ("p99.9", "major_p999_us", "p999_us"),
    ("max", "major_max_us", "max_us"),
    ("write", "write_mib_s", "write_mib_s"),
]


def metric(m, label):
    for lab, sk, rk in METRICS:
        if lab == label:
            return m.get(sk if m["tool"] == "swapin" else rk)
    raise KeyError(label)


def compare(base, other):
    if len(base) < 2 or len(other) < 2:
        return None
    r = ttest.ttest(base, other)
    if r["pct"] is None:
        return None
    verdict = "not proven"
    if r["significant"]:
        verdict = "above base" if r["diff"] > 0 else "below base"
    return {"pct": r["pct"], "pct_ci": r["pct_ci"], "verdict": verdict,
            "ratio": (r["y"]["median"] / r["x"]["median"]) if r["x"]["median"] else None}


def fmt(v, digits=0):
    if v is None:
        return "-"
    if digits == 0:
        return "{:,.0f}".format(v)
    return "{:,.{d}f}".format(v, d=digits)


def fmt_cmp(c):
    if c is None:
        return "-"
    return "%+.0f %% ± %.0f: %s" % (c["pct"], c["pct_ci"], c["verdict"])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--command", default="")
    ap.add_argument("--base-text", default="")
    ap.add_argument("--project", default="")
    ap.add_argument("--out-md", required=True)
    ap.add_argument("--out-json", required=True)
    ap.add_argument("runs", nargs="+", help="TREE=RUNDIR")
    a = ap.parse_args()

    samples = []
    kernels = {}
    missing = []
    order = []
    for spec in a.runs:
        tree, rundir = spec.split("=", 1)
        if tree not in order:
            order.append(tree)
        inf = info(rundir)
        try:
            ms = parse(rundir)
        except OSError:
            missing.append(spec)
            continue
        k = kernels.setdefault(tree, {"tree_ids": set(), "built": set(), "boots": 0})
        k["tree_ids"].add(inf.get("tree_id", "?")[:12])
        k["built"].add(inf.get("built", "?"))
        k["boots"] += 1
        for m in ms:
            m["kernel"] = tree
            m["preempt"] = inf.get("preempt", "?")
            m["boot"] = os.path.basename(rundir)
            samples.append(m)
    if not samples:
        sys.exit("latency-report: no measurement in the runs given")

    groups = {}
    for m in samples:
        key = (int(m["cpus"]), m["preempt"], m["tool"], m["scenario"], m["algo"])
        groups.setdefault(key, {}).setdefault(m["kernel"], []).append(m)

    algo_order = []
    for m in samples:
        if m["algo"] not in algo_order:
            algo_order.append(m["algo"])

    rows = []
    sc_order = ("alone", "writers", "foreground")
    for key in sorted(groups, key=lambda k: (k[0], k[1], k[2], sc_order.index(k[3]) if k[3] in sc_order else 9,
                                             algo_order.index(k[4]))):
        per = groups[key]
        base = per.get("base")
        for tree in order:
            ms = per.get(tree)
            if not ms:
                continue
            row = {"cpus": key[0], "preempt": key[1], "tool": key[2], "scenario": key[3],
                   "algo": key[4], "kernel": tree, "n": len(ms), "median": {}, "vs_base": {}}
            for lab, _, _ in METRICS:
                vals = [metric(m, lab) for m in ms if metric(m, lab) is not None]
                row["median"][lab] = statistics.median(vals) if vals else None
                if base is not None and tree != "base" and lab in ("p99", "p99.9", "write"):
                    bvals = [metric(m, lab) for m in base if metric(m, lab) is not None]
                    row["vs_base"][lab] = compare(bvals, vals) if vals and bvals else None
            row["late"] = statistics.median([m.get("late", 0) for m in ms])
            rows.append(row)

    kinfo = {t: {"tree_ids": sorted(k["tree_ids"]), "built": sorted(k["built"]), "boots": k["boots"]}
             for t, k in kernels.items()}
    doc = {"format": "latency-due/1", "command": a.command, "base": a.base_text, "project": a.project,
           "kernels": kinfo, "missing_runs": missing, "rows": rows, "samples": samples}
    with open(a.out_json, "w") as f:
        json.dump(doc, f, indent=1, sort_keys=True)

    md = []
    md.append("# Reads and swap-ins timed from when they were due")
    md.append("")
    md.append("Made by `%s` on %s; %s." % (a.command, a.base_text, a.project))
    md.append("")
    md.append("Virtual time (QEMU `-icount shift=0,sleep=off`): 1 ns of guest time is one")
    md.append("instruction. Latencies in µs from each read's or touch's due time; medians")
    md.append("over the samples (one a boot and seed); \"vs base\": the difference of the")
    md.append("means at 95 % confidence (Student's t, as ministat), \"not proven\" when the")
    md.append("interval holds zero. rate: reads or touches a second achieved (asked: the")
    md.append("same on every kernel). write: the writers' MiB/s beside the reader (fio")
    md.append("randwrite for ratereader; paged-out MiB for swapin).")
    md.append("")
    md.append("| kernel | tree ids | release | boots |")
    md.append("| --- | --- | --- | --- |")
    for t in order:
        if t in kinfo:
            k = kinfo[t]
            md.append("| %s | %s | %s | %d |" % (t, ", ".join("`%s`" % x for x in k["tree_ids"]),
                                                  ", ".join(k["built"]), k["boots"]))
    if missing:
        md.append("")
        md.append("Runs without results: %s" % ", ".join(missing))
    last = None
    for r in rows:
        sec = (r["cpus"], r["preempt"], r["tool"], r["scenario"])
        if sec != last:
            last = sec
            md.append("")
            what = {"ratereader": "fixed-rate reads of zram (4 KiB, O_DIRECT)",
                    "swapin": "major page faults on zram swap"}[r["tool"]]
            beside = {"alone": "alone", "writers": "beside writers",
                      "foreground": "beside writers, at nice -10"}.get(r["scenario"], r["scenario"])
            md.append("## %d vCPU%s, preempt=%s: %s, %s" % (r["cpus"], "" if r["cpus"] == 1 else "s",
                                                          r["preempt"], what, beside))
            md.append("")
            md.append("| algorithm | kernel | n | rate | p50 | p99 | p99.9 | max | p99 vs base | p99.9 vs base | write | write vs base |")
            md.append("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
        m = r["median"]
        vb = r["vs_base"]
        md.append("| %s | %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            r["algo"], r["kernel"], r["n"], fmt(m["rate"], 1), fmt(m["p50"], 1), fmt(m["p99"], 1),
            fmt(m["p99.9"], 1), fmt(m["max"], 1),
            fmt_cmp(vb.get("p99")) if r["kernel"] != "base" else "",
            fmt_cmp(vb.get("p99.9")) if r["kernel"] != "base" else "",
            fmt(m["write"], 1),
            fmt_cmp(vb.get("write")) if r["kernel"] != "base" else ""))
    with open(a.out_md, "w") as f:
        f.write("\n".join(md) + "\n")


if __name__ == "__main__":
    main()
