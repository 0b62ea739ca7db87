#!/usr/bin/env python3
"""The report of bench-write.sh: the write cost before and at one patch.

    write-report.py --command CMD --patch SUBJECT [--project P]
        --out-md FILE --out-json FILE dev1=RUNDIR dev2=RUNDIR

dev1 is the series just before the patch, dev2 at it. For each algorithm
and data kind: the writer's IOPS (medians of the runs), the time a write
takes (1/IOPS: one writer on one vCPU in virtual time, so this is the
write path's CPU time, compression included), and dev2 against dev1 with
Student's t at 95 % (ttest.py).
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
    with open(os.path.join(rundir, "run.info")) as f:
        for line in f:
            if "=" in line:
                k, v = line.rstrip("\n").split("=", 1)
                d[k] = v
    return d


def parse(rundir):
    out = []
    with open(os.path.join(rundir, "report.log"), errors="replace") as f:
        for line in f:
            if line.startswith("BENCH-WRITE "):
                out.append(dict(KV.findall(line)))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--command", default="")
    ap.add_argument("--patch", required=True)
    ap.add_argument("--project", default="")
    ap.add_argument("--out-md", required=True)
    ap.add_argument("--out-json", required=True)
    ap.add_argument("runs", nargs=2)
    a = ap.parse_args()
    kern = {}
    for spec in a.runs:
        name, rundir = spec.split("=", 1)
        kern[name] = {"info": info(rundir), "samples": parse(rundir)}
        if not kern[name]["samples"]:
            sys.exit("write-report: no BENCH-WRITE line in %s" % rundir)
    before, after = kern["dev1"], kern["dev2"]
    keys = []
    for s in before["samples"]:
        k = (s["algo"], s["data"])
        if k not in keys:
            keys.append(k)
    rows = []
    for algo, data in keys:
        b = [float(s["iops"]) for s in before["samples"] if (s["algo"], s["data"]) == (algo, data)]
        c = [float(s["iops"]) for s in after["samples"] if (s["algo"], s["data"]) == (algo, data)]
        hb = [int(s["huge_pages"]) for s in before["samples"] if (s["algo"], s["data"]) == (algo, data)]
        hc = [int(s["huge_pages"]) for s in after["samples"] if (s["algo"], s["data"]) == (algo, data)]
        row = {"algo": algo, "data": int(data), "n": [len(b), len(c)],
               "iops": [statistics.median(b), statistics.median(c)] if b and c else None,
               "us_per_write": [1e6 / statistics.median(b), 1e6 / statistics.median(c)] if b and c else None,
               "huge_pages": [statistics.median(hb), statistics.median(hc)] if hb and hc else None,
               "t": ttest.ttest(b, c) if len(b) > 1 and len(c) > 1 else None}
        rows.append(row)
    doc = {"format": "write-cost/1", "command": a.command, "patch": a.patch, "project": a.project,
           "kernels": {"before": {"tree_ids": [before["info"].get("tree_id", "?")[:12]],
                                  "built": before["info"].get("built", "?")},
                       "patched": {"tree_ids": [after["info"].get("tree_id", "?")[:12]],
                                   "built": after["info"].get("built", "?")}},
           "cpus": before["samples"][0].get("cpus"), "rows": rows}
    with open(a.out_json, "w") as f:
        json.dump(doc, f, indent=1, sort_keys=True)
    md = ["# Write cost of \"%s\"" % a.patch, "",
          "Made by `%s`; %s." % (a.command, a.project), "",
          "One fio writer, 4 KiB random direct writes to a zram0 of 64 MiB, %s vCPUs," % doc["cpus"],
          "virtual time (1 ns a guest instruction); the writer never waits, so the time a",
          "write takes is the write path's CPU time. data: fio's buffer_compress_percentage",
          "(50: half-compressible pages; 0: pages that do not compress, stored as they are).",
          "\"after vs before\": Student's t at 95 % on the runs' IOPS.", "",
          "| kernel | tree id | release |", "| --- | --- | --- |",
          "| before (its parent) | `%s` | %s |" % (doc["kernels"]["before"]["tree_ids"][0], doc["kernels"]["before"]["built"]),
          "| after (the patch) | `%s` | %s |" % (doc["kernels"]["patched"]["tree_ids"][0], doc["kernels"]["patched"]["built"]),
          "", "| algorithm | data % | runs | IOPS before | IOPS after | us a write before | after | huge pages before | after | after vs before |",
          "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        t = r["t"]
        if t is None:
            v = "-"
        elif t["significant"]:
            v = "%+.1f %% ± %.1f" % (t["pct"], t["pct_ci"])
        else:
            v = "no difference proven (%+.1f %% ± %.1f)" % (t["pct"], t["pct_ci"])
        md.append("| %s | %d | %d/%d | %.0f | %.0f | %.2f | %.2f | %.0f | %.0f | %s |" % (
            r["algo"], r["data"], r["n"][0], r["n"][1], r["iops"][0], r["iops"][1],
            r["us_per_write"][0], r["us_per_write"][1], r["huge_pages"][0], r["huge_pages"][1], v))
    with open(a.out_md, "w") as f:
        f.write("\n".join(md) + "\n")


if __name__ == "__main__":
    main()
