#!/usr/bin/env python3
"""Report of the readers-per-CPU sweep (make bench-zram SWEEP=readers).

    zram-readers.py --run KERNEL=DIR ... --command CMD --project TEXT
                    --out-md F --out-json F

Each DIR is a bench-zram run folder of one readers count (the guest job
scripts/guest/bench-zram.sh, scenarios interactive and saturating), parsed
by zram-latency.py. For each algorithm, scenario, vCPU count and readers
per CPU: the readers' rate and p99, the writers' rate, and the writers'
share of the CPU time the fio jobs used; each kernel's rates against
base's, with Student's t over the seeds. What it answers: how much of the
CPU writers keep as readers that no longer block multiply. Debian's
python3 with python3-scipy (ttest.py, through zram-latency.py).
"""

import argparse
import importlib.util
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("zram_latency", os.path.join(HERE, "zram-latency.py"))
zl = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(zl)


def share(rec):
    """The writers' share of the fio jobs' CPU time, in %."""
    r, w = zl.get(rec, "read.cpu_ms"), zl.get(rec, "write.cpu_ms")
    if r is None or w is None or r + w == 0:
        return None
    return 100.0 * w / (r + w)


def write_cost(rec):
    """CPU time per write, in us (getrusage: tick-sampled, see the notes)."""
    ms, n = zl.get(rec, "write.cpu_ms"), zl.get(rec, "write.ios")
    return ms * 1000.0 / n if ms is not None and n else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--run", action="append", default=[])
    ap.add_argument("--command", default="")
    ap.add_argument("--base-text", default="")
    ap.add_argument("--project", default="")
    ap.add_argument("--notes", help="a hand-written Markdown file put after the header")
    ap.add_argument("--out-md", required=True)
    ap.add_argument("--out-json", required=True)
    a = ap.parse_args()
    if a.base_text:
        zl.KERNEL_TEXT["base"] = a.base_text
    warnings, recs, infos = [], [], []
    for spec in a.run:
        kernel, _, path = spec.partition("=")
        info, rs, _ = zl.parse_bench(kernel, path, warnings)
        infos.append(info)
        recs += rs
    if not recs:
        sys.exit("zram-readers: no results in the run folders (%s)" % ", ".join(a.run))
    kernels = [k for k in zl.KERNEL_ORDER if any(r["kernel"] == k for r in recs)]
    algos = [x for x in ("zstd", "lz4") if any(r["algo"] == x for r in recs)]
    cpus_list = sorted({r["cpus"] for r in recs})
    readers = sorted({r["readers"] for r in recs})
    writers = sorted({r["writers"] for r in recs if r["scenario"] in ("interactive", "saturating")})
    accels = sorted({i["accel"] for i in infos if i["accel"]})
    hdr = " ".join(i["header"] or "" for i in infos)
    versions = sorted({"%s: %s" % (i["kernel"], i["guest_kernel"]) for i in infos if i["guest_kernel"]})

    out = ["# What writers get as readers per CPU rise: %s" % ", ".join(kernels), ""]
    out.append("- Command: `%s`" % a.command)
    out.append("- Project: %s" % a.project)
    out.append("- base: %s" % zl.KERNEL_TEXT["base"])
    for v in versions:
        out.append("- %s" % v)
    out.append("- Accelerator: %s" % (", ".join(accels) or "unknown"))
    lvl = zl.re.search(r"zstd level (\d+)", hdr)
    out.append("- zstd level %s; writers per CPU: %s; fio 4 KiB direct psync at random offsets of a full"
               " zram0" % (lvl[1] if lvl else "?", ", ".join(map(str, writers))))
    out.append("- `interactive`: readers pause %s us after each read (an app faulting its pages back),"
               " writers never pause; `saturating`: nobody pauses. All at nice 0."
               % (sorted({r["think_us"] for r in recs if r["scenario"] == "interactive"}) or ["?"])[0])
    out.append("- Per row, medians over the seeds (%d). `vs base`: the kernel's mean against base's, Student's"
               " t over the seeds (95 %%). `writers' CPU`: the writers' share of the CPU time the fio jobs"
               " used (user + system; compression runs in the writers' system time)."
               % max(len({r["run"] for r in recs}), 0))
    out.append("")
    if a.notes and os.path.exists(a.notes):
        out.append(open(a.notes).read().rstrip("\n"))
        out.append("")
    table = []
    for algo in algos:
        for cpus in cpus_list:
            for scen in ("interactive", "saturating"):
                out.append("## %s, %s, %d vCPU%s" % (algo, scen, cpus, "" if cpus == 1 else "s"))
                out.append("")
                out.append("| readers/CPU | kernel | reads/s | read p99 us | writes/s | writes vs base"
                           " | reads vs base | writers' CPU | CPU us/write | wake-to-done us |")
                out.append("|--:|---|--:|--:|--:|---|---|--:|--:|--:|")
                for r in readers:
                    b = zl.sel(recs, kernel="base", algo=algo, cpus=cpus, scenario=scen, readers=r)
                    for k in kernels:
                        rs = zl.sel(recs, kernel=k, algo=algo, cpus=cpus, scenario=scen, readers=r)
                        if not rs:
                            continue
                        row = {"algo": algo, "cpus": cpus, "scenario": scen, "readers": r, "kernel": k,
                               "read_iops": zl.med(zl.vals(rs, "read.iops")),
                               "read_p99_us": zl.med(zl.vals(rs, "read.p99_us")),
                               "write_iops": zl.med(zl.vals(rs, "write.iops")),
                               "writers_cpu_pct": zl.med([share(x) for x in rs]),
                               "write_cpu_us": zl.med([write_cost(x) for x in rs]),
                               "wake_to_done_us": zl.med(zl.vals(rs, "read.wake_to_done_us")),
                               "seeds": len(rs)}
                        if k == "base" or not b:
                            wvb = rvb = "" if k == "base" else "n/a"
                        else:
                            wvb = zl.t_text(zl.vals(b, "write.iops"), zl.vals(rs, "write.iops"))
                            rvb = zl.t_text(zl.vals(b, "read.iops"), zl.vals(rs, "read.iops"))
                            row["writes_vs_base"] = zl.ratio(row["write_iops"],
                                                             zl.med(zl.vals(b, "write.iops")))
                            row["reads_vs_base"] = zl.ratio(row["read_iops"], zl.med(zl.vals(b, "read.iops")))
                        table.append(row)
                        out.append("| %d | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
                            r, k, zl.f_num(row["read_iops"]), zl.f_num(row["read_p99_us"]),
                            zl.f_num(row["write_iops"]), wvb, rvb,
                            zl.f_num(row["writers_cpu_pct"], 0) + " %" if row["writers_cpu_pct"] is not None
                            else "n/a", zl.f_num(row["write_cpu_us"], 0),
                            zl.f_num(row["wake_to_done_us"]) if scen == "interactive" else "-"))
                out.append("")
    if warnings:
        out.append("## Warnings")
        out.append("")
        out += ["- %s" % w for w in warnings]
        out.append("")
    with open(a.out_md, "w") as f:
        f.write("\n".join(out))
    with open(a.out_json, "w") as f:
        json.dump({"command": a.command, "project": a.project, "runs": infos, "rows": table,
                   "warnings": warnings}, f, indent=1, sort_keys=True)
        f.write("\n")
    for w in warnings:
        print("zram-readers: warning: %s" % w, file=sys.stderr)


if __name__ == "__main__":
    main()
