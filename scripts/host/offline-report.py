#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Report of make bench-offline: memory offlining against zram readers.

    offline-report.py --run KERNEL=DIR ... --command CMD --project TEXT
                      --out-md F --out-json F

Each DIR is a run folder of the guest job "offline" (its report.log has
"offline: round N block B: ok|failed MS ms, pgmigrate_success +S
pgmigrate_fail +F" lines; rounds named idle-* ran without readers and are
not counted). KERNEL is patched (-EBUSY) or check (-EAGAIN). The folder
name ends in -rR-B (R readers per CPU, boot B), or -hH-rR-B with H busy
loops per CPU and the readers at nice 19. For each setting and kernel: offlines tried and done, their time (median, mean, max) and the
failed migrations per offline; -EAGAIN against -EBUSY with Student's t
over the offlines (scripts/host/ttest.py: Debian's python3 with python3-scipy).
"""

import argparse
import json
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ttest  # noqa: E402

ROUND = re.compile(r"offline: round (\d+) block (\d+): (ok|failed) (\d+) ms, "
                   r"pgmigrate_success \+(\d+) pgmigrate_fail \+(\d+)")
NAMES = {"patched": "-EBUSY (the series)", "check": "-EAGAIN (variant)"}


def read_run(path):
    rounds = []
    with open(os.path.join(path, "report.log"), errors="replace") as f:
        for line in f:
            m = ROUND.search(line.replace("\r", ""))
            if m:
                rounds.append({"ok": m.group(3) == "ok", "ms": int(m.group(4)),
                               "migrated": int(m.group(5)), "failed_migrations": int(m.group(6))})
    release = ""
    try:
        with open(os.path.join(path, "run.info")) as f:
            for line in f:
                if line.startswith("built="):
                    release = line.split("=", 1)[1].strip()
    except OSError:
        pass
    return rounds, release


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--run", action="append", required=True)
    ap.add_argument("--command", required=True)
    ap.add_argument("--project", required=True)
    ap.add_argument("--out-md", required=True)
    ap.add_argument("--out-json", required=True)
    ap.add_argument("--notes", help="a Markdown file of notes by hand, appended")
    a = ap.parse_args()

    data = {}
    releases = {}
    for spec in a.run:
        kernel, path = spec.split("=", 1)
        m = re.search(r"(?:-h(\d+))?-r(\d+)-(\d+)$", path.rstrip("/"))
        if not m:
            sys.exit("offline-report: %s: no [-hHOGS]-rREADERS-BOOT at the end of the name" % path)
        rounds, release = read_run(path)
        releases[kernel] = release or releases.get(kernel, "")
        key = (int(m.group(1) or 0), int(m.group(2)))
        data.setdefault(key, {}).setdefault(kernel, []).extend(rounds)

    out = []
    w = out.append
    w("# Memory offlining against zram readers: -EBUSY or -EAGAIN")
    w("")
    w("Written by `scripts/host/bench-offline.sh`. Command: `%s`." % a.command)
    w("Project: %s." % a.project.strip())
    w("Kernels: %s." % ", ".join("%s = `%s`" % (NAMES.get(k, k), v) for k, v in sorted(releases.items())))
    w("")
    w("Each offline takes one ZONE_MOVABLE memory block (128 MiB) that holds zsmalloc")
    w("pages offline while fio readers (direct 4 KiB random reads of zram0, preempt=full)")
    w("hold zspages inside their reads, and onlines it again. Time is the guest's")
    w("(QEMU TCG). An offline that takes longer than the limit is interrupted and")
    w("counts as failed. \"Failed migrations\" is /proc/vmstat's pgmigrate_fail over")
    w("the offline. Student's t is over the offlines (95%).")
    w("")
    w("| Hogs per CPU | Readers per CPU (nice) | zs_page_migrate() | Offlines done | Time median (ms) | Mean (ms) | Max (ms) | Failed migrations per offline, mean | Mean time against -EBUSY |")
    w("| ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | --- |")
    table = []
    for key in sorted(data):
        hogs, r = key
        ref = [x["ms"] for x in data[key].get("patched", [])]
        for k in ("patched", "check"):
            rs = data[key].get(k, [])
            if not rs:
                continue
            ms = [x["ms"] for x in rs]
            ok = sum(1 for x in rs if x["ok"])
            fm = statistics.mean(x["failed_migrations"] for x in rs)
            cmp = ""
            if k != "patched" and len(ref) >= 2 and len(ms) >= 2:
                t = ttest.ttest(ref, ms)
                cmp = "%+.0f%% +/- %.0f%%%s" % (t["pct"], t["pct_ci"],
                                                 "" if t["significant"] else " (no difference proven)")
            row = {"hogs_per_cpu": hogs, "readers_per_cpu": r, "readers_nice": 19 if hogs else 0,
                   "kernel": k, "errno": NAMES.get(k, k), "offlines": len(rs),
                   "done": ok, "ms_median": statistics.median(ms), "ms_mean": statistics.mean(ms),
                   "ms_max": max(ms), "failed_migrations_mean": fm, "against_ebusy": cmp, "rounds": rs}
            table.append(row)
            w("| %d | %d (%d) | %s | %d of %d | %.0f | %.0f | %d | %.0f | %s |" % (
                hogs, r, row["readers_nice"], NAMES.get(k, k), ok, len(rs), row["ms_median"], row["ms_mean"], row["ms_max"], fm,
                cmp or "(reference)"))
    w("")
    if a.notes and os.path.exists(a.notes):
        with open(a.notes) as f:
            w(f.read().rstrip("\n"))
        w("")
    with open(a.out_md, "w") as f:
        f.write("\n".join(out))
    with open(a.out_json, "w") as f:
        json.dump({"command": a.command, "project": a.project.strip(), "kernels": releases,
                   "rows": table}, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
