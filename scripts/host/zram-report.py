#!/usr/bin/env python3
"""Report on the zram read/write-streams benchmark (scripts/host/bench-zram.sh).

    zram-report.py --run KERNEL=DIR [--run KERNEL=DIR ...]
        [--version KERNEL=TEXT ...] [--command TEXT]
        --out-md FILE --out-json FILE --out-svg FILE

Each DIR is a run folder of scripts/host/vm.sh (report.log, accel, cmdline,
seconds) of the guest job bench-zram or mem-zram. KERNEL names the kernel
(base, mid, patched; others are accepted and listed after them). The guest
prints, in report.log:

    BENCH-ZRAM algo= workload= run= cpus= jobs= role=read|write iops=
        avg_us= sd_us= min_us= p50_us= p99_us= p99_9_us= p99_99_us= max_us=
    BENCH-ZRAM-MEM algo= cpus= run= workload= percpu_kb_before= ...
    BENCH-ZRAM-FILL algo= workload= run= orig_kb= compr_kb= ...

Latencies are fio's total latency (lat), in microseconds. Writes a Markdown
report (every run, the medians, and the targets met or missed), a JSON file
with every figure, and an SVG plot of the read latency (p99.99 and max, log
scale) of every kernel under writers vs readers. Python 3 standard library.
"""

import argparse
import datetime
import json
import math
import os
import re
import statistics
import sys

sys.dont_write_bytecode = True

KERNEL_ORDER = ("base", "mid", "patched")
WORKLOADS = (("readers_vs_readers", "readers vs readers"),
             ("writers_vs_readers", "writers vs readers"))
BENCH_KEYS = ("algo", "workload", "run", "cpus", "role", "iops", "avg_us", "sd_us",
              "p99_99_us", "max_us")
MEM_KEYS = ("algo", "cpus", "run", "percpu_kb_before", "percpu_kb_after",
            "memfree_kb_before", "memfree_kb_after")
FILL_KEYS = ("algo", "workload", "run", "orig_kb", "compr_kb")
HEADER_RE = re.compile(r"^(bench|mem)-zram: kernel (\S+), (\d+) CPUs")
PREEMPT_RE = re.compile(r"preempt .*\((\w+)\)")
FIO_RE = re.compile(r"(fio-[0-9][^ ,]*)")
DISKSIZE_RE = re.compile(r"disksize (\S+),")
RESULT_RE = re.compile(r"HARNESS-RESULT job=(\S+) rc=(\d+)")
MEM_TARGET_CPUS = 64


class ReportError(Exception):
    pass


def num(v):
    """A figure from the guest: int if it is one, float otherwise."""
    try:
        return int(v)
    except ValueError:
        return float(v)


def shown_path(path):
    """A path under the repository, relative to it; any other as given."""
    top = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    rel = os.path.relpath(os.path.abspath(path), top)
    return path if rel.startswith("..") else rel


def read_text(path):
    try:
        with open(path, "rb") as f:
            return f.read().decode("utf-8", errors="replace")
    except OSError:
        return None


def parse_run(kernel, path):
    """Everything that one run folder holds."""
    text = read_text(os.path.join(path, "report.log"))
    run = {"kernel": kernel, "dir": shown_path(path), "accel": None, "cmdline": None,
           "seconds": None, "job": None, "rc": None, "guest_kernel": None,
           "guest_cpus": None, "preempt": None, "fio": None, "disksize": None, "failed_checks": [],
           "bench": [], "mem": [], "fill": [], "warnings": []}
    for name in ("accel", "cmdline", "seconds"):
        v = read_text(os.path.join(path, name))
        run[name] = v.strip() if v is not None else None
    if text is None:
        run["warnings"].append("%s: no report.log (the run did not happen?)" % run["dir"])
        return run
    for lineno, line in enumerate(text.replace("\r", "\n").split("\n"), 1):
        line = line.strip()
        m = HEADER_RE.match(line)
        if m:
            run["guest_kernel"], run["guest_cpus"] = m[2], int(m[3])
            p = PREEMPT_RE.search(line)
            run["preempt"] = p[1] if p else None
            f = FIO_RE.search(line)
            run["fio"] = f[1] if f else None
            d = DISKSIZE_RE.search(line)
            run["disksize"] = d[1] if d else None
            continue
        m = RESULT_RE.search(line)
        if m:
            run["job"], run["rc"] = m[1], int(m[2])
            continue
        if line.startswith("HARNESS: not ok "):
            run["failed_checks"].append(line[len("HARNESS: not ok "):])
            continue
        tag, _, rest = line.partition(" ")
        kinds = {"BENCH-ZRAM": ("bench", BENCH_KEYS), "BENCH-ZRAM-MEM": ("mem", MEM_KEYS),
                 "BENCH-ZRAM-FILL": ("fill", FILL_KEYS)}
        if tag not in kinds:
            continue
        kind, keys = kinds[tag]
        rec = {}
        for tok in rest.split():
            k, eq, v = tok.partition("=")
            if eq:
                rec[k] = v
        missing = [k for k in keys if k not in rec]
        if missing:
            run["warnings"].append("%s/report.log:%d: skipped, no %s: %s"
                                   % (run["dir"], lineno, ", ".join(missing), line))
            continue
        try:
            for k, v in rec.items():
                if k not in ("algo", "workload", "role"):
                    rec[k] = num(v)
        except ValueError:
            run["warnings"].append("%s/report.log:%d: skipped, not a number: %s"
                                   % (run["dir"], lineno, line))
            continue
        rec["kernel"] = kernel
        run[kind].append(rec)
    if run["rc"] is None:
        run["warnings"].append("%s: the guest never reported a result" % run["dir"])
    elif run["rc"] != 0:
        run["warnings"].append("%s: job %s ended with rc=%d%s" % (
            run["dir"], run["job"], run["rc"],
            (": " + "; ".join(run["failed_checks"])) if run["failed_checks"] else ""))
    if run["preempt"] not in (None, "full") and run["job"] != "mem-zram":
        run["warnings"].append("%s: the guest ran preempt=%s, not full" % (run["dir"], run["preempt"]))
    return run


def median(vals):
    vals = [v for v in vals if v is not None]
    return statistics.median(vals) if vals else None


def kernels_of(runs):
    names = []
    for r in runs:
        if r["kernel"] not in names:
            names.append(r["kernel"])
    known = [k for k in KERNEL_ORDER if k in names]
    return known + [k for k in names if k not in KERNEL_ORDER]


def ordered(vals):
    out = []
    for v in vals:
        if v not in out:
            out.append(v)
    return out


# ---- formatting

def f_int(v):
    return "" if v is None else "{:,}".format(int(round(v)))


def f_us(v):
    if v is None:
        return ""
    if v >= 1000 or (isinstance(v, int) or float(v).is_integer()) and v >= 10:
        return "{:,}".format(int(round(v)))
    if v >= 100:
        return "%.0f" % v
    if v >= 10:
        return "%.1f" % v
    return "%.2f" % v


def f_ratio(v):
    if v is None:
        return "n/a"
    if v >= 100:
        return "%.0fx" % v
    if v >= 10:
        return "%.1fx" % v
    if v >= 2:
        return "%.2fx" % v
    return "%.3fx" % v


def na(fmt, v):
    return "n/a" if v is None else fmt(v)


# ---- data selection

def select(bench, **kw):
    return [r for r in bench if all(r.get(k) == v for k, v in kw.items())]


def med_of(bench, field, **kw):
    return median([r[field] for r in select(bench, **kw)])


def ratio(a, b):
    if a is None or b is None or b == 0:
        return None
    return a / b


def verdict(got, want, op):
    """(met, text) for got >= want (op ">=") or got <= want (op "<=")."""
    if got is None:
        return None, "no data"
    if op == ">=":
        if got >= want:
            return True, "met"
        return False, "missed by %.1f%% (%s of the %s wanted)" % (
            100.0 * (want - got) / want, f_ratio(got), f_ratio(want))
    if got <= want:
        return True, "met"
    return False, "missed by %.1f%% (%s, %s at most)" % (
        100.0 * (got - want) / want, f_ratio(got), f_ratio(want))


def targets(bench, mem, algos, cpus_list):
    out = []

    def add(name, algo, cpus, want, op, got, detail):
        met, text = verdict(got, want, op)
        out.append({"target": name, "algo": algo, "cpus": cpus, "want": "%s %s" % (op, f_ratio(want)),
                    "want_value": want, "op": op, "got": got, "met": met, "verdict": text,
                    "detail": detail})

    wvr, rvr = "writers_vs_readers", "readers_vs_readers"
    for algo in algos:
        for cpus in cpus_list:
            c = dict(algo=algo, cpus=cpus, role="read")
            for field, label in (("p99_99_us", "p99.99"), ("max_us", "max")):
                mid = med_of(bench, field, kernel="mid", workload=wvr, **c)
                pat = med_of(bench, field, kernel="patched", workload=wvr, **c)
                add("writers vs readers: read %s, mid / patched" % label, algo, cpus,
                    20.0, ">=", ratio(mid, pat),
                    "mid %s us, patched %s us" % (na(f_us, mid), na(f_us, pat)))
            for field, label in (("p99_99_us", "p99.99"), ("max_us", "max")):
                w = med_of(bench, field, kernel="patched", workload=wvr, **c)
                r = med_of(bench, field, kernel="patched", workload=rvr, **c)
                add("patched: read %s, writers vs readers / readers vs readers" % label,
                    algo, cpus, 1.5, "<=", ratio(w, r),
                    "%s us against %s us" % (na(f_us, w), na(f_us, r)))
            for wl, wl_label in ((rvr, "readers vs readers"), (wvr, "writers vs readers")):
                b = med_of(bench, "iops", kernel="base", workload=wl, **c)
                p = med_of(bench, "iops", kernel="patched", workload=wl, **c)
                add("%s: read IOPS, patched / base" % wl_label, algo, cpus, 1.0, ">=",
                    ratio(p, b), "patched %s, base %s" % (na(f_int, p), na(f_int, b)))
            cw = dict(algo=algo, cpus=cpus, role="write", workload=wvr)
            b = med_of(bench, "iops", kernel="base", **cw)
            p = med_of(bench, "iops", kernel="patched", **cw)
            add("writers vs readers: write IOPS, patched / base", algo, cpus, 0.95, ">=",
                ratio(p, b), "patched %s, base %s" % (na(f_int, p), na(f_int, b)))
    mem_cpus = MEM_TARGET_CPUS if any(m["cpus"] == MEM_TARGET_CPUS for m in mem) else \
        max([m["cpus"] for m in mem], default=MEM_TARGET_CPUS)
    for field, label in (("alloc_kb", "vmalloc + unreclaimable slab + Percpu: growth"),
                         ("memfree_drop_kb", "MemFree drop"),
                         ("percpu_delta_kb", "Percpu: growth")):
        b = median([m[field] for m in mem if m["kernel"] == "base" and m["algo"] == "zstd"
                    and m["cpus"] == mem_cpus and field in m])
        p = median([m[field] for m in mem if m["kernel"] == "patched" and m["algo"] == "zstd"
                    and m["cpus"] == mem_cpus and field in m])
        add("stream memory (%s at disksize), patched / base" % label, "zstd", mem_cpus,
            1.0, "<=", ratio(p, b), "patched %s kB, base %s kB" % (na(f_int, p), na(f_int, b)))
    return out


# ---- Markdown

def markdown(data, bench, mem, fills, algos, cpus_list, kernels):
    out = []
    w = out.append
    w("# zram read/write streams: fio readers against writers")
    w("")
    w("- Date: %s" % data["date"])
    w("- Command: `%s`" % data["command"])
    w("- Host: %d CPUs, %s" % (data["host"]["nproc"], data["host"]["cpu_model"]))
    w("- Accelerator: %s" % data["accel_text"])
    for k in kernels:
        w("- %s: %s" % (k, data["versions"].get(k, "(no version given)")))
    fios = sorted({r["fio"] for r in data["runs"] if r["fio"]})
    sizes = sorted({r["disksize"] for r in data["runs"] if r["disksize"]})
    w("- Guest: `preempt=full`, 1024 MiB, zram0 of %s; %s, psync, 4 KiB direct I/O;"
      " N readers (`randread`) and, in writers vs readers, N writers (`randwrite`) in a"
      " separate fio group, N = online CPUs, at least 2; every workload on a freshly"
      " reset and filled zram0 (sequential 4 KiB writes of 50 %% compressible, non-uniform"
      " data: `--buffer_compress_percentage=50 --refill_buffers`, so that reads decompress"
      " real zsmalloc objects)" % ("/".join(sizes) or "?", ", ".join(fios) or "fio"))
    w("- Latency: fio's total latency (`lat`, submission + completion), in microseconds;"
      " p99.99 from `--lat_percentiles=1` (fio's terse output: whole microseconds);"
      " sd is the standard deviation of all I/Os of the group; IOPS is the group's total.")
    if data["accel"] != ["kvm"]:
        w("- **Note:** these runs were not all under KVM. Under TCG the guest is emulated,"
          " so absolute figures say little about hardware; only kernels compared under the"
          " same emulator on the same host mean something.")
    w("")
    if data["warnings"]:
        w("## Warnings")
        w("")
        for x in data["warnings"]:
            w("- %s" % x)
        w("")

    w("## Targets")
    w("")
    w("Medians of the runs. Memory: the target taken is \"no more than base\".")
    w("")
    w("| Target | Algo | CPUs | Want | Got | Figures | Verdict |")
    w("|---|---|--:|--:|--:|---|---|")
    for t in data["targets"]:
        v = t["verdict"] if t["met"] is not False else "**%s**" % t["verdict"]
        w("| %s | %s | %s | %s | %s | %s | %s |" % (
            t["target"], t["algo"], t["cpus"], t["want"], f_ratio(t["got"]), t["detail"], v))
    n_met = sum(1 for t in data["targets"] if t["met"] is True)
    n_missed = sum(1 for t in data["targets"] if t["met"] is False)
    n_none = sum(1 for t in data["targets"] if t["met"] is None)
    w("")
    w("%d met, %d missed, %d without data." % (n_met, n_missed, n_none))
    w("")
    w("![read latency under writers vs readers](zram-read-latency.svg)")
    w("")

    for algo in algos:
        for cpus in cpus_list:
            for wl, wl_label in WORKLOADS:
                rows = select(bench, algo=algo, cpus=cpus, workload=wl)
                if not rows:
                    continue
                jobs = sorted({r.get("jobs") for r in rows if r.get("jobs") is not None})
                w("## %s, %d CPU%s: %s (%s job%s per side)" % (
                    algo, cpus, "" if cpus == 1 else "s", wl_label,
                    "/".join(map(str, jobs)) or "?", "" if jobs == [1] else "s"))
                w("")
                hdr = "| Kernel | Run | Read IOPS | avg us | sd us | p99.99 us | max us |"
                sep = "|---|--:|--:|--:|--:|--:|--:|"
                writes = wl == "writers_vs_readers"
                if writes:
                    hdr += " Write IOPS | w avg us | w p99.99 us | w max us |"
                    sep += "--:|--:|--:|--:|"
                w(hdr)
                w(sep)
                for k in kernels:
                    kr = [r for r in rows if r["kernel"] == k]
                    nums = sorted({r["run"] for r in kr})
                    for i, n in enumerate(nums):
                        rd = [r for r in kr if r["run"] == n and r["role"] == "read"]
                        wr = [r for r in kr if r["run"] == n and r["role"] == "write"]
                        cells = [k if i == 0 else "", str(n)]
                        rd = rd[0] if rd else None
                        cells += [f_int(rd["iops"]), f_us(rd["avg_us"]), f_us(rd["sd_us"]),
                                  f_us(rd["p99_99_us"]), f_us(rd["max_us"])] if rd else [""] * 5
                        if writes:
                            wr = wr[0] if wr else None
                            cells += [f_int(wr["iops"]), f_us(wr["avg_us"]),
                                      f_us(wr["p99_99_us"]), f_us(wr["max_us"])] if wr else [""] * 4
                        w("| " + " | ".join(cells) + " |")
                    if len(nums) > 1:
                        m = lambda role, f: median([r[f] for r in kr if r["role"] == role])
                        cells = ["", "median", f_int(m("read", "iops")), f_us(m("read", "avg_us")),
                                 f_us(m("read", "sd_us")), f_us(m("read", "p99_99_us")),
                                 f_us(m("read", "max_us"))]
                        if writes:
                            cells += [f_int(m("write", "iops")), f_us(m("write", "avg_us")),
                                      f_us(m("write", "p99_99_us")), f_us(m("write", "max_us"))]
                        w("| " + " | ".join("**%s**" % c if c else "" for c in cells) + " |")
                w("")

    if mem:
        w("## Memory of the per-CPU streams")
        w("")
        w("/proc/meminfo just before and after writing `disksize` (which allocates the"
          " streams of every online CPU), medians of the setups. `Percpu:` counts only the"
          " per-CPU allocator (the stream structures); VmallocUsed the backends'"
          " contexts, the compression buffers and zram's slot table (the same for every"
          " kernel at one disksize); SUnreclaim kmalloc'ed memory such as the read"
          " contexts' local_copy buffers. Their sum (Allocated) is exact. The MemFree drop"
          " holds all of it, but also moves with the pages parked on the per-CPU free"
          " lists, by megabytes with 64 CPUs: it is shown, not used for the target when"
          " Allocated is there. Not shown here: the base kernel's zsmalloc also keeps a"
          " per-CPU mapping area (one page per possible CPU, allocated at boot, before"
          " any zram device exists), which the series removes.")
        w("")
        w("| Kernel | Algo | CPUs | Setups | Percpu: before kB | Percpu: growth kB |"
          " VmallocUsed growth kB | SUnreclaim growth kB | Allocated kB | MemFree drop kB |")
        w("|---|---|--:|--:|--:|--:|--:|--:|--:|--:|")
        for cpus in sorted({m["cpus"] for m in mem}):
            for algo in ordered(m["algo"] for m in mem):
                for k in kernels:
                    ms = [m for m in mem if m["kernel"] == k and m["algo"] == algo
                          and m["cpus"] == cpus]
                    if not ms:
                        continue
                    def med(key):
                        vals = [m[key] for m in ms if key in m]
                        return f_int(median(vals)) if vals else "n/a"
                    w("| %s | %s | %d | %d | %s | %s | %s | %s | %s | %s |" % (
                        k, algo, cpus, len(ms), med("percpu_kb_before"), med("percpu_delta_kb"),
                        med("vmalloc_delta_kb"), med("sunreclaim_delta_kb"), med("alloc_kb"),
                        med("memfree_drop_kb")))
        w("")

    if fills:
        w("## What the reads found")
        w("")
        w("mm_stat after each fill (medians): the data reached zsmalloc, not zram's"
          " same-filled pages.")
        w("")
        w("| Kernel | Algo | CPUs | Fills | Stored MiB | Compressed MiB | Ratio | same_pages (max) | huge_pages |")
        w("|---|---|--:|--:|--:|--:|--:|--:|--:|")
        for algo in algos:
            for cpus in cpus_list:
                for k in kernels:
                    fs = [f for f in fills if f["kernel"] == k and f["algo"] == algo
                          and f["cpus"] == cpus]
                    if not fs:
                        continue
                    o = median([f["orig_kb"] for f in fs])
                    c = median([f["compr_kb"] for f in fs])
                    w("| %s | %s | %d | %d | %.0f | %.0f | %s | %s | %s |" % (
                        k, algo, cpus, len(fs), o / 1024, c / 1024,
                        "%.2f" % (o / c) if c else "n/a",
                        f_int(max(f.get("same_pages", 0) for f in fs)),
                        f_int(median([f.get("huge_pages", 0) for f in fs]))))
        w("")

    w("## Runs")
    w("")
    w("| Kernel | Run folder | Accel | Guest CPUs | preempt | Seconds | Result |")
    w("|---|---|---|--:|---|--:|---|")
    for r in data["runs"]:
        res = "no result" if r["rc"] is None else ("rc=%d" % r["rc"])
        w("| %s | `%s` | %s | %s | %s | %s | %s |" % (
            r["kernel"], r["dir"], r["accel"] or "?", r["guest_cpus"] or "?",
            r["preempt"] or "?", r["seconds"] or "?", res))
    w("")
    return "\n".join(out)


# ---- SVG

def esc(s):
    return (str(s).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;"))


def svg_plot(bench, algos, cpus_list, kernels, accel_text):
    wvr = [r for r in bench if r["workload"] == "writers_vs_readers" and r["role"] == "read"]
    panels = [(a, c) for a in algos for c in cpus_list
              if any(r["algo"] == a and r["cpus"] == c for r in wvr)]
    pw, ph = 230, 320            # panel size
    left, top, gap = 92, 70, 20  # margins
    width = max(700, left + max(1, len(panels)) * (pw + gap) + 10)
    height = top + ph + 70
    vals = [max(v, 1.0) for r in wvr for v in (r["p99_99_us"], r["max_us"])]
    lo = 10 ** math.floor(math.log10(min(vals))) if vals else 1
    hi = 10 ** math.ceil(math.log10(max(vals))) if vals else 1000
    if hi <= lo:
        hi = lo * 10
    ly0, ly1 = math.log10(lo), math.log10(hi)

    def y(v):
        return top + ph - (math.log10(max(v, 1.0)) - ly0) / (ly1 - ly0) * ph

    s = []
    a = s.append
    a('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d"'
      ' font-family="sans-serif" font-size="12">' % (width, height, width, height))
    a('<rect width="100%" height="100%" fill="white"/>')
    a('<text x="%d" y="22" font-size="15" font-weight="bold">zram read latency, writers vs'
      ' readers (fio total latency, log scale)</text>' % left)
    a('<text x="%d" y="40" fill="#555">%s</text>' % (left, esc(
        "each mark one run; bar: median of the runs; " + accel_text)))
    # legend
    lx = left
    a('<circle cx="%d" cy="56" r="4" fill="#1f77b4"/><text x="%d" y="60">p99.99</text>'
      % (lx + 4, lx + 12))
    a('<rect x="%d" y="52" width="8" height="8" fill="none" stroke="#d62728" stroke-width="1.5"/>'
      '<text x="%d" y="60">max</text>' % (lx + 70, lx + 82))
    # y axis: decades
    e = int(round(ly0))
    while e <= int(round(ly1)):
        yy = y(10 ** e)
        a('<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#ddd"/>'
          % (left, width - 10, yy, yy))
        label = "{:,}".format(10 ** e) if e >= 0 else "%g" % (10 ** e)
        a('<text x="%d" y="%.1f" text-anchor="end">%s</text>' % (left - 6, yy + 4, label))
        e += 1
    a('<text transform="translate(16,%d) rotate(-90)" text-anchor="middle">'
      'read latency, us</text>' % (top + ph // 2))
    for i, (algo, cpus) in enumerate(panels):
        x0 = left + i * (pw + gap) + gap // 2
        a('<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#888"/>'
          % (x0, top, pw, ph))
        a('<text x="%d" y="%d" text-anchor="middle" font-weight="bold">%s, %d CPU%s</text>'
          % (x0 + pw // 2, top + ph + 40, esc(algo), cpus, "" if cpus == 1 else "s"))
        colw = pw / max(1, len(kernels))
        for j, k in enumerate(kernels):
            cx = x0 + colw * (j + 0.5)
            a('<text x="%.1f" y="%d" text-anchor="middle">%s</text>'
              % (cx, top + ph + 18, esc(k)))
            rs = sorted([r for r in wvr if r["algo"] == algo and r["cpus"] == cpus
                         and r["kernel"] == k], key=lambda r: r["run"])
            if not rs:
                a('<text x="%.1f" y="%d" text-anchor="middle" fill="#888">no data</text>'
                  % (cx, top + ph // 2))
            for n, r in enumerate(rs):
                off = (n - (len(rs) - 1) / 2) * 7
                a('<circle cx="%.1f" cy="%.1f" r="4" fill="#1f77b4" fill-opacity="0.8">'
                  '<title>%s run %s p99.99 %s us</title></circle>'
                  % (cx - 12 + off, y(r["p99_99_us"]), esc(k), r["run"], f_us(r["p99_99_us"])))
                a('<rect x="%.1f" y="%.1f" width="8" height="8" fill="none" stroke="#d62728"'
                  ' stroke-width="1.5"><title>%s run %s max %s us</title></rect>'
                  % (cx + 12 + off - 4, y(r["max_us"]) - 4, esc(k), r["run"], f_us(r["max_us"])))
            for field, dx, color in (("p99_99_us", -12, "#1f77b4"), ("max_us", 12, "#d62728")):
                m = median([r[field] for r in rs])
                if m is not None:
                    a('<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="%s"'
                      ' stroke-width="2"/>' % (cx + dx - 14, cx + dx + 14, y(m), y(m), color))
    if not panels:
        a('<text x="%d" y="%d">no writers-vs-readers data</text>' % (left + 10, top + ph // 2))
    a("</svg>")
    return "\n".join(s) + "\n"


# ---- main

def host_info():
    model = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {"nproc": os.cpu_count() or 0, "cpu_model": model}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--run", action="append", default=[], metavar="KERNEL=DIR")
    ap.add_argument("--version", action="append", default=[], metavar="KERNEL=TEXT")
    ap.add_argument("--command", default="make bench-zram")
    ap.add_argument("--out-md", required=True)
    ap.add_argument("--out-json", required=True)
    ap.add_argument("--out-svg", required=True)
    args = ap.parse_args()
    if not args.run:
        raise ReportError("no --run given")

    runs = []
    for spec in args.run:
        k, eq, d = spec.partition("=")
        if not eq or not k or not d:
            raise ReportError("--run takes KERNEL=DIR, not %r" % spec)
        runs.append(parse_run(k, d))
    versions = {}
    for spec in args.version:
        k, eq, v = spec.partition("=")
        if not eq:
            raise ReportError("--version takes KERNEL=TEXT, not %r" % spec)
        versions[k] = v

    bench, mem, fills, warnings = [], [], [], []
    for r in runs:
        warnings += r["warnings"]
        for x in r["bench"]:
            x["accel"] = r["accel"]
        bench += r["bench"]
        for m in r["mem"]:
            m["percpu_delta_kb"] = m["percpu_kb_after"] - m["percpu_kb_before"]
            m["memfree_drop_kb"] = m["memfree_kb_before"] - m["memfree_kb_after"]
            if "vmalloc_kb_after" in m and "vmalloc_kb_before" in m:
                m["vmalloc_delta_kb"] = m["vmalloc_kb_after"] - m["vmalloc_kb_before"]
            if "sunreclaim_kb_after" in m and "vmalloc_delta_kb" in m:
                m["sunreclaim_delta_kb"] = m["sunreclaim_kb_after"] - m["sunreclaim_kb_before"]
                # what the kernel allocated for the device: exact, unlike MemFree
                m["alloc_kb"] = (m["vmalloc_delta_kb"] + m["sunreclaim_delta_kb"]
                                 + m["percpu_delta_kb"])
        mem += r["mem"]
        cpus = r["guest_cpus"]
        for f in r["fill"]:
            f["cpus"] = cpus
            if f.get("same_pages", 0) > f["orig_kb"] // 4 // 100:
                warnings.append("%s: %s fill %s run %s: %s same-filled pages (over 1%%):"
                                " the reads do not all reach zsmalloc"
                                % (r["dir"], f["algo"], f["workload"], f["run"], f["same_pages"]))
        fills += r["fill"]
    if not bench and not mem:
        raise ReportError("no BENCH-ZRAM lines in any run:\n  " + "\n  ".join(warnings))
    kernels = kernels_of(runs)
    algos = ordered(r["algo"] for r in bench)
    cpus_list = sorted({r["cpus"] for r in bench})
    accel = sorted({r["accel"] for r in runs if r["accel"]})
    names = {"kvm": "KVM", "tcg": "TCG (multi-threaded; no usable KVM)",
             "icount": "TCG with -icount"}
    accel_text = ", ".join(names.get(x, x) for x in accel) or "unknown (no accel file)"

    data = {
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "command": args.command,
        "host": host_info(),
        "accel": accel,
        "accel_text": accel_text,
        "versions": versions,
        "latency": "fio total latency (lat), microseconds",
        "runs": [{k: v for k, v in r.items() if k not in ("bench", "mem", "fill")}
                 for r in runs],
        "warnings": warnings,
    }
    data["targets"] = targets(bench, mem, algos, cpus_list)
    data["results"] = bench
    data["memory"] = mem
    data["fills"] = fills

    md = markdown(data, bench, mem, fills, algos, cpus_list, kernels)
    svg = svg_plot(bench, algos, cpus_list, kernels, accel_text)
    for path, text in ((args.out_md, md + "\n"), (args.out_svg, svg),
                       (args.out_json, json.dumps(data, indent=1, sort_keys=True) + "\n")):
        d = os.path.dirname(path)
        if d:
            os.makedirs(d, exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
    for x in warnings:
        print("zram-report: warning: %s" % x, file=sys.stderr)
    for t in data["targets"]:
        print("zram-report: %-70s %-5s %3s CPUs %7s: %s" % (
            t["target"], t["algo"], t["cpus"], f_ratio(t["got"]), t["verdict"]))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except ReportError as e:
        print("zram-report: %s" % e, file=sys.stderr)
        sys.exit(1)
