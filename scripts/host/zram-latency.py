#!/usr/bin/env python3
"""Report of the zram read-latency benchmark (scripts/host/bench-zram.sh).

    zram-latency.py --run KERNEL=DIR ... --versions FILE --command CMD
                    --out-md F --out-json F --out-svg F

Each DIR is a run folder of the guest job bench-zram (report.log: fio's
JSON+ output per scenario, between BENCH-ZRAM-JSON-BEGIN/END, and the
BENCH-ZRAM-STAT counters around it) or mem-zram (BENCH-ZRAM-MEM lines:
parse_mem). Latency percentiles come from fio's latency bins
(every I/O; fio's bins are about 1.6 % wide), per seed; tables give the
median over the seeds, and ratios between kernels a Student's t interval
(scripts/host/ttest.py, scipy's t quantile) over the seeds; Debian's python3 with python3-scipy.
"""

import argparse
import json
import math
import os
import re
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import ttest  # noqa: E402


KERNEL_ORDER = ("base", "mid", "patched", "rmutex")
KERNEL_TEXT = {
    "base": "Linux 6.12.117",
    "mid": "the series up to the preemptible per-CPU streams (shared by reads and writes)",
    "patched": "the whole series (write streams, lock-free read contexts)",
    "rmutex": "the series and bench/variants/read-stream-mutex.patch (per-CPU read streams behind a mutex)",
}
SCENARIOS = (
    ("alone", "interactive readers alone"),
    ("interactive", "interactive readers against writers, equal priority"),
    ("foreground", "interactive readers at nice -10 against writers"),
    ("saturating", "saturating readers and writers, equal priority"),
    ("exhaust", "16 readers per vCPU without pauses, no writers"),
)
PCTS = (("p50", 50.0), ("p99", 99.0), ("p99_9", 99.9), ("p99_99", 99.99))
BEGIN_RE = re.compile(r"^BENCH-ZRAM-JSON-BEGIN (.*)$")
STAT_RE = re.compile(r'^BENCH-ZRAM-STAT algo=(\S+) scenario=(\S+) run=(\d+) when=(\w+) '
                     r'debug_stat="([^"]*)" cpu="([^"]*)"')
HEADER_RE = re.compile(r"^bench-zram: kernel (\S+), (\d+) CPUs")
RESULT_RE = re.compile(r"HARNESS-RESULT job=(\S+) rc=(\d+)")
MEM_HEADER_RE = re.compile(r"^(bench|mem)-zram: kernel (\S+), (\d+) CPUs")
PREEMPT_RE = re.compile(r"preempt .*\((\w+)\)")
MEM_KEYS = ("algo", "cpus", "run", "percpu_kb_before", "percpu_kb_after",
            "memfree_kb_before", "memfree_kb_after")


def shown_path(path):
    """A path under the repository, relative to it; any other as given."""
    top = os.path.dirname(os.path.dirname(HERE))
    rel = os.path.relpath(os.path.abspath(path), top)
    return path if rel.startswith("..") else rel


def read_text(path):
    try:
        with open(path, "rb") as f:
            return f.read().decode("utf-8", errors="replace")
    except OSError:
        return None


def num(v):
    """A figure from the guest: int if it is one, float otherwise."""
    try:
        return int(v)
    except ValueError:
        return float(v)


def mem_setups(mem):
    """The setups of the memory records (mem-zram.sh: ALGO[:LEVEL][+ALGO2]), in order."""
    out = []
    for x in mem:
        if x["algo"] not in out:
            out.append(x["algo"])
    return out


def parse_mem(kernel, path, warnings):
    """The BENCH-ZRAM-MEM records of a mem-zram run folder
    (scripts/guest/mem-zram.sh); what is wrong with the run goes to
    warnings."""
    shown = shown_path(path)
    text = read_text(os.path.join(path, "report.log"))
    if text is None:
        warnings.append("%s: no report.log (the run did not happen?)" % shown)
        return []
    job = rc = preempt = None
    failed, mem = [], []
    for lineno, line in enumerate(text.replace("\r", "\n").split("\n"), 1):
        line = line.strip()
        if MEM_HEADER_RE.match(line):
            p = PREEMPT_RE.search(line)
            preempt = p[1] if p else None
            continue
        m = RESULT_RE.search(line)
        if m:
            job, rc = m[1], int(m[2])
            continue
        if line.startswith("HARNESS: not ok "):
            failed.append(line[len("HARNESS: not ok "):])
            continue
        tag, _, rest = line.partition(" ")
        if tag != "BENCH-ZRAM-MEM":
            continue
        rec = {}
        for tok in rest.split():
            k, eq, v = tok.partition("=")
            if eq:
                rec[k] = v
        missing = [k for k in MEM_KEYS if k not in rec]
        if missing:
            warnings.append("%s/report.log:%d: skipped, no %s: %s"
                            % (shown, lineno, ", ".join(missing), line))
            continue
        try:
            for k, v in rec.items():
                if k not in ("algo", "workload", "role"):
                    rec[k] = num(v)
        except ValueError:
            warnings.append("%s/report.log:%d: skipped, not a number: %s" % (shown, lineno, line))
            continue
        rec["kernel"] = kernel
        mem.append(rec)
    if rc is None:
        warnings.append("%s: the guest never reported a result" % shown)
    elif rc != 0:
        warnings.append("%s: job %s ended with rc=%d%s" % (
            shown, job, rc, (": " + "; ".join(failed)) if failed else ""))
    if preempt not in (None, "full") and job != "mem-zram":
        warnings.append("%s: the guest ran preempt=%s, not full" % (shown, preempt))
    return mem


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


def kv(text):
    out = {}
    for tok in text.split():
        k, eq, v = tok.partition("=")
        if eq:
            out[k] = v
    return out


def percentile(bins, q):
    """The q-th percentile of a histogram {value_ns: count}, in ns."""
    total = sum(bins.values())
    if not total:
        return None
    want = q / 100.0 * total
    seen = 0
    for v in sorted(bins):
        seen += bins[v]
        if seen >= want:
            return v
    return max(bins)


def side(job, ddir, think_us):
    x = job[ddir]
    lat = x.get("lat_ns") or x["clat_ns"]
    bins = {int(k): int(v) for k, v in (lat.get("bins") or {}).items()}
    cpu_ms = (job["usr_cpu"] + job["sys_cpu"]) / 100.0 * job["job_runtime"]
    rec = {"iops": x["iops"], "ios": x["total_ios"], "mean_us": lat["mean"] / 1000.0,
           "sd_us": lat["stddev"] / 1000.0, "max_us": lat["max"] / 1000.0,
           "cpu_ms": cpu_ms, "job_runtime_ms": job["job_runtime"], "bins": bins}
    for name, q in PCTS:
        p = percentile(bins, q)
        rec[name + "_us"] = p / 1000.0 if p is not None else None
    if x["total_ios"]:
        # One reader's cycle: its run time over its reads; less the pause,
        # what a read costs from the end of the pause (the wake-up) to its
        # completion, waiting for the CPU included.
        rec["cycle_us"] = job["job_runtime"] * 1000.0 / x["total_ios"]
        rec["wake_to_done_us"] = rec["cycle_us"] - think_us if think_us else None
    return rec


def parse_bench(kernel, path, warnings):
    text = read_text(os.path.join(path, "report.log"))
    shown = shown_path(path)
    info = {"kernel": kernel, "dir": shown, "guest_kernel": None, "cpus": None, "rc": None,
            "header": None, "seconds": None, "accel": None}
    for name in ("accel", "seconds"):
        v = read_text(os.path.join(path, name))
        info[name] = v.strip() if v is not None else None
    recs, stats, fills = [], {}, []
    if text is None:
        warnings.append("%s: no report.log (the run did not happen?)" % shown)
        return info, recs, fills
    lines = text.replace("\r", "\n").split("\n")
    i = 0
    while i < len(lines):
        line = lines[i].strip()
        i += 1
        m = HEADER_RE.match(line)
        if m:
            info["guest_kernel"], info["cpus"], info["header"] = m[1], int(m[2]), line
            continue
        m = RESULT_RE.search(line)
        if m:
            info["rc"] = int(m[2])
            continue
        if line.startswith("HARNESS: not ok"):
            warnings.append("%s: %s" % (shown, line))
            continue
        if line.startswith("BENCH-ZRAM-FILL "):
            f = kv(line)
            fills.append({"kernel": kernel, "cpus": info["cpus"], "algo": f["algo"],
                          **{k: int(v) for k, v in f.items() if k != "algo"}})
            continue
        m = STAT_RE.match(line)
        if m:
            ds = [int(v) for v in m[5].split()]
            cpu = [int(v) for v in m[6].split()]
            stats[(m[1], m[2], int(m[3]), m[4])] = (ds, cpu)
            continue
        m = BEGIN_RE.match(line)
        if not m:
            continue
        meta = kv(m[1])
        body = []
        while i < len(lines) and lines[i].strip() != "BENCH-ZRAM-JSON-END":
            body.append(lines[i])
            i += 1
        i += 1
        try:
            doc = json.loads("\n".join(body))
        except ValueError as e:
            warnings.append("%s: %s %s run %s: bad JSON (%s)"
                            % (shown, meta.get("algo"), meta.get("scenario"), meta.get("run"), e))
            continue
        think = int(meta.get("think_us", 0)) if meta.get("scenario") in ("alone", "interactive", "foreground") else 0
        rec = {"kernel": kernel, "algo": meta["algo"], "scenario": meta["scenario"],
               "run": int(meta["run"]), "cpus": int(meta["cpus"]),
               "readers": int(meta["readers"]), "writers": int(meta["writers"]),
               "think_us": think, "runtime_s": int(meta["runtime_s"])}
        for job in doc["jobs"]:
            if job["jobname"] == "readers":
                rec["read"] = side(job, "read", think)
            elif job["jobname"] == "writers":
                rec["write"] = side(job, "write", 0)
        key = (rec["algo"], rec["scenario"], rec["run"])
        before, after = stats.get(key + ("before",)), stats.get(key + ("after",))
        if before and after:
            d = [a - b for a, b in zip(after[0], before[0])]
            rec["writestall"] = d[0] if d else None
            rec["rctx_spare"] = d[2] if len(d) > 2 else None
            rec["rctx_wait"] = d[3] if len(d) > 3 else None
            c = [a - b for a, b in zip(after[1], before[1])]
            tot = sum(c)
            if tot:
                rec["cpu_busy_pct"] = 100.0 * (tot - c[3]) / tot
        recs.append(rec)
    if info["rc"] is None:
        warnings.append("%s: the guest never reported a result" % shown)
    elif info["rc"] != 0:
        warnings.append("%s: the job ended with rc=%d" % (shown, info["rc"]))
    return info, recs, fills


def med(vals):
    vals = [v for v in vals if v is not None]
    return statistics.median(vals) if vals else None


def get(rec, path):
    x = rec
    for p in path.split("."):
        if x is None:
            return None
        x = x.get(p)
    return x


def sel(recs, **kw):
    return [r for r in recs if all(r.get(k) == v for k, v in kw.items())]


def vals(recs, path):
    return [get(r, path) for r in sorted(recs, key=lambda r: r["run"]) if get(r, path) is not None]


def f_num(v, nd=None):
    if v is None:
        return "n/a"
    if nd is None:
        nd = 0 if abs(v) >= 100 else (1 if abs(v) >= 10 else 2)
    return "{:,.{}f}".format(v, nd)


def f_ratio(v):
    if v is None:
        return "n/a"
    if v >= 100:
        return "{:,.0f}x".format(v)
    if v >= 10:
        return "%.1fx" % v
    return "%.3gx" % v


def t_text(xs, ys):
    """Student's t over the seeds: y against x, as a percentage of mean(x)."""
    if len(xs) < 2 or len(ys) < 2:
        return "n/a (fewer than 2 seeds)"
    if statistics.pstdev(xs) == 0 and statistics.pstdev(ys) == 0:
        return "no spread"
    r = ttest.ttest(xs, ys)
    if r["pct"] is None:
        return "n/a"
    return "%+.1f%% +/- %.1f%%%s" % (r["pct"], r["pct_ci"], "" if r["significant"] else " (no difference proven)")


# The targets of the 7.3 port (the rest of its rows are reported): at
# 1 vCPU, for zstd and lz4 alike; memory at any count.
TARGETS_73 = ("patched: read p99, interactive / alone", "patched: read p99.9, interactive / alone",
              "interactive: read p99, rmutex / patched (no worse than the RFC)",
              "interactive: read p99.9, rmutex / patched (no worse than the RFC)",
              "interactive: readers' rate, patched / base",
              "saturating: useful work (I/Os at base's CPU cost each), patched / base")


class Targets:
    def __init__(self):
        self.rows = []
        # Which rows get a verdict: on 6.12, every zstd row.
        self.is_target = lambda what, algo, cpus: algo == "zstd"

    def add(self, what, algo, cpus, want, op, got, figures, note=None):
        if got is None:
            verdict = "no data"
        elif (op == ">=" and got >= want) or (op == "<=" and got <= want):
            verdict = "met"
        else:
            verdict = "**missed** (%s, want %s %s)" % (f_ratio(got), op, f_ratio(want))
        if not self.is_target(what, algo, cpus) and verdict != "no data":
            verdict = "reported (%s)" % ("met" if verdict == "met" else "would miss")
        self.rows.append({"target": what, "algo": algo, "cpus": cpus, "want": "%s %s" % (op, f_ratio(want)),
                          "got": got, "figures": figures, "verdict": verdict, "note": note})


def ratio(a, b):
    if a is None or b is None or b == 0:
        return None
    return a / b


def useful_work(recs, costs):
    """Reads and writes done, weighted by mid's CPU cost per read and write."""
    out = []
    for r in sorted(recs, key=lambda r: r["run"]):
        if "read" in r and "write" in r and costs:
            out.append(r["read"]["ios"] * costs[0] + r["write"]["ios"] * costs[1])
    return out


def targets(recs, mem, algos, cpus_list, kernels):
    t = Targets()
    # The targets compare the series with the kernels before it: none
    # without it (stock 7.3 alone is a table, not a verdict).
    if "patched" not in kernels:
        return t.rows
    # The kernel whose streams reads and writes share: mid on 6.12, stock
    # 7.3 itself (base) where there is no mid. On 7.3 the targets are
    # those of the 7.3 port: interactive p99 and p99.9 within 1.2x of the
    # readers alone, no worse than rmutex, and the rest against base.
    ref = "mid" if "mid" in kernels else "base"
    if ref == "base":
        # The memory rows are reported: these boots read SUnreclaim whole,
        # which moves by up to 2.5 MB between setups of one kernel. The
        # memory verdict is make bench-mem's, which counts slab objects.
        t.is_target = lambda what, algo, cpus: cpus == 1 and what in TARGETS_73
    alone = ((("p99_us", "p99"), ("p99_99_us", "p99.99"), ("max_us", "max")), 1.5) if ref == "mid" else \
        ((("p99_us", "p99"), ("p99_9_us", "p99.9")), 1.2)
    for algo in algos:
        for cpus in cpus_list:
            def m(k, sc, path):
                return med(vals(sel(recs, kernel=k, algo=algo, cpus=cpus, scenario=sc), path))

            if ref == "mid":
                for p, label in (("p99_us", "p99"), ("p99_99_us", "p99.99"), ("max_us", "max")):
                    mid, pat = m("mid", "interactive", "read." + p), m("patched", "interactive", "read." + p)
                    t.add("interactive: read %s, mid / patched" % label, algo, cpus, 100, ">=",
                          ratio(mid, pat), "mid %s us, patched %s us" % (f_num(mid), f_num(pat)))
            for p, label in alone[0]:
                a, pat = m("patched", "alone", "read." + p), m("patched", "interactive", "read." + p)
                t.add("patched: read %s, interactive / alone" % label, algo, cpus, alone[1], "<=",
                      ratio(pat, a), "%s us against %s us alone" % (f_num(pat), f_num(a)))
            if ref == "base" and "rmutex" in kernels:
                for p, label in (("p99_us", "p99"), ("p99_9_us", "p99.9")):
                    rm, pat = m("rmutex", "interactive", "read." + p), m("patched", "interactive", "read." + p)
                    t.add("interactive: read %s, rmutex / patched (no worse than the RFC)" % label, algo, cpus,
                          1.0, ">=", ratio(rm, pat), "rmutex %s us, patched %s us" % (f_num(rm), f_num(pat)))
            for k in (("mid", "base") if ref == "mid" else ("base",)):
                o, pat = m(k, "interactive", "read.iops"), m("patched", "interactive", "read.iops")
                t.add("interactive: readers' rate, patched / %s" % k, algo, cpus, 5, ">=",
                      ratio(pat, o), "patched %s reads/s, %s %s" % (f_num(pat), k, f_num(o)))
            mid, pat = m(ref, "interactive", "write.iops"), m("patched", "interactive", "write.iops")
            t.add("interactive: write IOPS, patched / %s" % ref, algo, cpus, 0.9, ">=", ratio(pat, mid),
                  "patched %s, %s %s" % (f_num(pat), ref, f_num(mid)))
            # Saturating
            ms = sel(recs, kernel=ref, algo=algo, cpus=cpus, scenario="saturating")
            ps = sel(recs, kernel="patched", algo=algo, cpus=cpus, scenario="saturating")
            cpu_mid = med([get(r, "read.cpu_ms") + get(r, "write.cpu_ms") for r in ms if "read" in r and "write" in r])
            cpu_pat = med([get(r, "read.cpu_ms") + get(r, "write.cpu_ms") for r in ps if "read" in r and "write" in r])
            t.add("saturating: read + write CPU time, patched / %s" % ref, algo, cpus, 0.95, ">=",
                  ratio(cpu_pat, cpu_mid), "patched %s ms, %s %s ms" % (f_num(cpu_pat), ref, f_num(cpu_mid)))
            costs = None
            rc = med([r["read"]["cpu_ms"] / r["read"]["ios"] for r in ms if r.get("read", {}).get("ios")])
            wc = med([r["write"]["cpu_ms"] / r["write"]["ios"] for r in ms if r.get("write", {}).get("ios")])
            if rc and wc:
                costs = (rc, wc)
            wm, wp = med(useful_work(ms, costs)), med(useful_work(ps, costs))
            t.add("saturating: useful work (I/Os at %s's CPU cost each), patched / %s" % (ref, ref), algo, cpus,
                  0.95, ">=", ratio(wp, wm),
                  "patched %s ms, %s %s ms%s" % (f_num(wp), ref, f_num(wm),
                                                 "; %s's cost: read %.1f us, write %.1f us" % (
                                                     ref, costs[0] * 1000, costs[1] * 1000) if costs else ""))
            mid, pat = m(ref, "saturating", "write.iops"), m("patched", "saturating", "write.iops")
            t.add("saturating: write IOPS, patched / %s" % ref, algo, cpus, 0.75, ">=", ratio(pat, mid),
                  "patched %s, %s %s" % (f_num(pat), ref, f_num(mid)))
            if "rmutex" in kernels:
                for sc, _ in SCENARIOS:
                    if not sel(recs, kernel="patched", algo=algo, cpus=cpus, scenario=sc):
                        continue
                    for p, label, better in (("read.p99_us", "read p99", "lower"),
                                             ("read.max_us", "read max", "lower"),
                                             ("read.iops", "read IOPS", "higher"),
                                             ("write.iops", "write IOPS", "higher")):
                        if sc == "alone" and p.startswith("write"):
                            continue
                        rm, pat = m("rmutex", sc, p), m("patched", sc, p)
                        r = ratio(rm, pat) if better == "lower" else ratio(pat, rm)
                        t.add("%s: %s, patched against rmutex (>1: patched better)" % (sc, label), algo, cpus,
                              0.95, ">=", r, "patched %s, rmutex %s" % (f_num(pat), f_num(rm)))
    # Memory
    mem_cpus = max([x["cpus"] for x in mem], default=None)
    if mem_cpus:
        for algo in mem_setups(mem):
            b = med([x.get("alloc_kb") for x in mem if x["kernel"] == "base" and x["algo"] == algo
                     and x["cpus"] == mem_cpus])
            p = med([x.get("alloc_kb") for x in mem if x["kernel"] == "patched" and x["algo"] == algo
                     and x["cpus"] == mem_cpus])
            t.add("stream memory at disksize (vmalloc + unreclaimable slab + percpu), patched / base",
                  algo, mem_cpus, 1.0, "<=", ratio(p, b), "patched %s kB, base %s kB" % (f_num(p), f_num(b)))
            b = med([x.get("vmalloc_delta_kb", 0) + x.get("percpu_delta_kb", 0) for x in mem
                     if x["kernel"] == "base" and x["algo"] == algo and x["cpus"] == mem_cpus])
            p = med([x.get("vmalloc_delta_kb", 0) + x.get("percpu_delta_kb", 0) for x in mem
                     if x["kernel"] == "patched" and x["algo"] == algo and x["cpus"] == mem_cpus])
            t.add("stream memory at disksize, vmalloc + percpu only, patched / base",
                  algo, mem_cpus, 1.0, "<=", ratio(p, b), "patched %s kB, base %s kB" % (f_num(p), f_num(b)))
    return t.rows


COLS = (("read.iops", "read IOPS", 0), ("read.p50_us", "p50", 1), ("read.p99_us", "p99", 1),
        ("read.p99_9_us", "p99.9", 1), ("read.p99_99_us", "p99.99", 1), ("read.max_us", "max", 1),
        ("read.sd_us", "sd", 1), ("read.wake_to_done_us", "wake-to-done", 1), ("write.iops", "write IOPS", 0),
        ("write.p99_us", "w p99", 1), ("read.cpu_ms", "read CPU ms", 0), ("write.cpu_ms", "write CPU ms", 0),
        ("rctx_spare", "spare", 0), ("rctx_wait", "wait", 0), ("writestall", "writestall", 0),
        ("cpu_busy_pct", "busy %", 0))


def markdown(data, recs, mem, fills, algos, cpus_list, kernels, rows):
    out = []
    w = out.append
    w("# zram read latency against writers: %s" % ", ".join(kernels))
    w("")
    w("- Command: `%s`" % data["command"])
    w("- Host: %s" % data["host"])
    w("- Accelerator: %s" % data["accel_text"])
    # The project commit and the series (project_id): what a reader resolves.
    proj = data["versions"].get("project") or data["versions"].get("project project")
    if proj:
        w("- Project: %s (git rev-parse HEAD:patches/BASE for patches=)" % ("project=" + proj))
    for k in kernels:
        w("- %s: %s; %s" % (k, KERNEL_TEXT.get(k, k), data["versions"].get(k, "unknown")))
    w("- Guest: `preempt=full`, 1024 MiB; %s" % data["guest"])
    w("- Scenarios (fio 4 KiB direct psync I/O at random offsets of a full zram0, N = vCPUs):")
    for sc, text in SCENARIOS:
        w("  - `%s`: %s" % (sc, text))
    w("  Interactive readers: %s per vCPU, each pausing %s us (fio `thinktime`) after each read, as"
      " the threads of an app faulting its pages back do; writers: %s per vCPU, no pause; saturating:"
      " as many readers and writers, no pause. Every kernel's jobs get the same seeds (fio `randseed`"
      " = the run's number)." % (data["readers_per_cpu"], data["think_us"], data["writers_per_cpu"]))
    w("- Latency: fio's total latency (`lat`) of every I/O, from fio's latency bins (about 1.6 %"
      " wide); sd over all I/Os of the group. `wake-to-done`: one reader's run time over its reads,"
      " less its pause: what a read costs from the end of the pause to its completion, waiting for"
      " the CPU back included (fio's latency starts only once the reader runs again). Read IOPS of"
      " the interactive scenarios is the readers' rate. CPU ms: the fio jobs' user + system time"
      " (getrusage; compression and decompression run in the jobs' system time). `spare`, `wait`:"
      " reads that took a spare read context and reads that had to wait for one (debug_stat columns"
      " 3 and 4; base and mid have none; on rmutex `wait` counts reads that found their CPU's read"
      " stream locked); `writestall`: debug_stat column 1; `busy %`: the guest's non-idle CPU time"
      " over the run (/proc/stat). Readers alone must leave the CPU mostly idle: fio spins, rather"
      " than sleeps, a pause shorter than the nanosleep granularity it measures at start (about"
      " 50 us here, the timer slack), and the report warns if it did.")
    w("- Tables give the median over the seeds; ratios between kernels come with Student's t over"
      " the seeds (difference of the means, 95 % interval).")
    if data["icount"]:
        w("- **Virtual time.** Under `-icount shift=0,sleep=off` the guest's clock advances 1 ns per"
          " executed instruction, and jumps ahead when every vCPU is idle: a microsecond here is"
          " a thousand guest instructions, not host time. The guest's other inputs are fixed too:"
          " its clock starts at a set date (`-rtc base=2025-01-01T00:00:00,clock=vm`), its random"
          " numbers come from a seeded generator (`-seed 1`), and the initramfs depends on its"
          " files' contents only. Short runs then repeat to the byte; long ones drift by a few I/Os"
          " in 50,000 (QEMU's icount mode without record and replay is not fully deterministic),"
          " which leaves medians, rates and p99 within 1% from run to run and from a clean clone,"
          " but moves p99.99 and the maxima, single reads that a tick lands on, a lot."
          " With several vCPUs, QEMU runs them in turn on one host thread (a few thousand"
          " instructions each), so a task woken on another vCPU waits for that vCPU's turn: a"
          " latency floor of that slice, the same on every kernel, which p50s with 2 vCPUs show.")
    w("")
    if data["warnings"]:
        w("## Warnings")
        w("")
        for x in data["warnings"]:
            w("- %s" % x)
        w("")
    w("## Targets")
    w("")
    if rows:
        if "mid" in kernels:
            w("zstd at level %s is the target; lz4 is reported. Medians over the seeds." % data["level"])
        else:
            w("The 7.3 port's targets, at 1 vCPU for zstd at level %s and lz4: interactive read p99 and p99.9"
              " within 1.2x of the readers alone and no worse than rmutex's, the readers' rate at least 5x"
              " base's, saturating useful work at least 0.95x base's. The other rows are reported. Medians over"
              " the seeds. The stream memory rows are reported too: these boots read SUnreclaim whole, and"
              " it moves by up to 2.5 MB between setups of one kernel; the memory verdict is `make"
              " bench-mem`'s (bench/results/zram-memory-7.3.md), which counts the slab objects one by one."
              % data["level"])
        w("")
        w("| Target | Algo | vCPUs | Want | Got | Figures | Verdict |")
        w("|---|---|--:|--:|--:|---|---|")
        for r in rows:
            w("| %s | %s | %s | %s | %s | %s | %s |" % (r["target"], r["algo"], r["cpus"], r["want"],
                                                    f_ratio(r["got"]), r["figures"], r["verdict"]))
        met = sum(1 for r in rows if r["verdict"] == "met")
        missed = sum(1 for r in rows if r["verdict"].startswith("**missed"))
        w("")
        w("%s: %d met, %d missed." % ("zstd" if "mid" in kernels else "Targets", met, missed))
    else:
        w("None: the targets compare the series (patched) with the kernels before it, and this run"
          " has no patched kernel. The tables below describe the kernels it ran.")
    w("")
    if data.get("notes"):
        w(data["notes"].rstrip("\n"))
        w("")
    w("![read latency, interactive readers against writers](%s)" % data["svg_name"])
    w("")
    for algo in algos:
        for cpus in cpus_list:
            for sc, text in SCENARIOS:
                rs = sel(recs, algo=algo, cpus=cpus, scenario=sc)
                if not rs:
                    continue
                ex = rs[0]
                w("## %s, %d vCPU%s: %s" % (algo, cpus, "s" if cpus > 1 else "", text))
                w("")
                w("%d readers, %d writers, %d s per seed; latencies in us." % (ex["readers"], ex["writers"], ex["runtime_s"]))
                w("")
                cols = [c for c in COLS if any(get(r, c[0]) is not None for r in rs)]
                w("| Kernel | " + " | ".join(c[1] for c in cols) + " |")
                w("|---|" + "--:|" * len(cols))
                for k in kernels:
                    kr = sel(rs, kernel=k)
                    if not kr:
                        continue
                    w("| %s | " % k + " | ".join(f_num(med(vals(kr, c[0])), c[2] if c[2] == 0 else None)
                                                for c in cols) + " |")
                w("")
                # Spread: the patched kernel against each other, on the headline figures
                if sel(rs, kernel="patched"):
                    lines = []
                    for k in kernels:
                        if k == "patched" or not sel(rs, kernel=k):
                            continue
                        for path, label in (("read.p99_us", "read p99"), ("read.iops", "read IOPS"),
                                            ("write.iops", "write IOPS")):
                            xs, ys = vals(sel(rs, kernel=k), path), vals(sel(rs, kernel="patched"), path)
                            if xs and ys:
                                lines.append("%s against %s: %s" % (label, k, t_text(xs, ys)))
                    if lines:
                        w("Patched, " + "; ".join(lines) + ".")
                        w("")
    if mem:
        w("## Memory of the per-CPU streams")
        w("")
        w("`make bench-zram ONLY=mem`: /proc/meminfo just before and after writing `disksize`, which"
          " allocates the streams of every online CPU, medians of the setups. Allocated = growth of"
          " VmallocUsed (the backends' contexts, compression buffers, the slot table) + SUnreclaim"
          " (kmalloc'ed buffers such as local_copy) + Percpu."
          + (" Not counted: base's zsmalloc per-CPU mapping area (a page per possible CPU, from boot),"
             " which the series removes (bench/results/zsmalloc-boot-mem.md)."
             if KERNEL_TEXT["base"].startswith("Linux 6.12") else ""))
        w("")
        w("| Kernel | Algo | vCPUs | Setups | Percpu growth kB | VmallocUsed growth kB | SUnreclaim growth kB | Allocated kB |")
        w("|---|---|--:|--:|--:|--:|--:|--:|")
        for cpus in sorted({x["cpus"] for x in mem}):
            for algo in mem_setups(mem):
                for k in kernels:
                    ms = [x for x in mem if x["kernel"] == k and x["algo"] == algo and x["cpus"] == cpus]
                    if not ms:
                        continue
                    def mm(key):
                        return f_num(med([x.get(key) for x in ms]), 0)
                    w("| %s | %s | %d | %d | %s | %s | %s | %s |" % (
                        k, algo, cpus, len(ms), mm("percpu_delta_kb"), mm("vmalloc_delta_kb"),
                        mm("sunreclaim_delta_kb"), mm("alloc_kb")))
        w("")
    if fills:
        w("## What the reads found")
        w("")
        w("mm_stat after each kernel's fill of zram0 (one per algorithm and boot).")
        w("")
        w("| Kernel | Algo | vCPUs | data kB | compressed kB | zsmalloc kB | huge pages |")
        w("|---|---|--:|--:|--:|--:|--:|")
        for f in fills:
            w("| %s | %s | %s | %s | %s | %s | %s |" % (f["kernel"], f["algo"], f["cpus"], f_num(f["orig_kb"], 0),
                                                   f_num(f["compr_kb"], 0), f_num(f["mem_used_kb"], 0),
                                                   f_num(f.get("huge_pages"), 0)))
        w("")
    return "\n".join(out) + "\n"


def esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


COLORS = {"base": "#1f77b4", "mid": "#d62728", "patched": "#2ca02c", "rmutex": "#9467bd"}


def svg_plot(recs, cpus_list, kernels, algo, label):
    """1 - CDF of the read latency, log-log, interactive scenario, one panel per vCPU count."""
    pw, ph, ml, mt, mb = 460, 320, 60, 40, 45
    width = ml + len(cpus_list) * (pw + 20) + 130
    height = mt + ph + mb
    o = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="11">'
         % (width, height), '<rect width="100%" height="100%" fill="white"/>',
         '<text x="%d" y="16" font-size="13">%s</text>' % (ml, esc(label))]
    lo_us, hi_us, lo_p = 1.0, 1e5, 1e-5
    for idx, cpus in enumerate(cpus_list):
        x0 = ml + idx * (pw + 20)

        def X(us):
            us = min(max(us, lo_us), hi_us)
            return x0 + (math.log10(us) - math.log10(lo_us)) / (math.log10(hi_us) - math.log10(lo_us)) * pw

        def Y(p):
            p = min(max(p, lo_p), 1.0)
            return mt + (0 - math.log10(p)) / (0 - math.log10(lo_p)) * ph
        o.append('<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#888"/>' % (x0, mt, pw, ph))
        o.append('<text x="%d" y="%d">%d vCPU%s</text>' % (x0 + 4, mt - 6, cpus, "s" if cpus > 1 else ""))
        for e in range(0, 6):
            us = 10 ** e
            o.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#eee"/>' % (X(us), mt, X(us), mt + ph))
            o.append('<text x="%.1f" y="%d" text-anchor="middle">%s</text>' % (X(us), mt + ph + 14,
                                                                              "{:,}".format(us)))
        for e in range(0, 6):
            p = 10 ** -e
            o.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#eee"/>' % (x0, Y(p), x0 + pw, Y(p)))
            if idx == 0:
                o.append('<text x="%d" y="%.1f" text-anchor="end">%g</text>' % (x0 - 4, Y(p) + 4, p))
        o.append('<text x="%d" y="%d" text-anchor="middle">read latency (us, guest time)</text>'
                 % (x0 + pw // 2, mt + ph + 32))
        for k in kernels:
            bins = {}
            for r in sel(recs, kernel=k, algo=algo, cpus=cpus, scenario="interactive"):
                for v, c in r.get("read", {}).get("bins", {}).items():
                    bins[v] = bins.get(v, 0) + c
            total = sum(bins.values())
            if not total:
                continue
            pts, seen = [], 0
            for v in sorted(bins):
                seen += bins[v]
                rest = (total - seen) / total
                pts.append((X(v / 1000.0), Y(rest if rest > 0 else lo_p)))
            o.append('<polyline fill="none" stroke="%s" stroke-width="1.6" points="%s"/>'
                     % (COLORS.get(k, "#000"), " ".join("%.1f,%.1f" % p for p in pts)))
    o.append('<text x="12" y="%d" transform="rotate(-90 12 %d)" text-anchor="middle">fraction of reads slower (1 - CDF)</text>'
             % (mt + ph // 2, mt + ph // 2))
    lx = ml + len(cpus_list) * (pw + 20) + 5
    for i, k in enumerate(kernels):
        o.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="3"/>'
                 % (lx, mt + 10 + i * 18, lx + 20, mt + 10 + i * 18, COLORS.get(k, "#000")))
        o.append('<text x="%d" y="%d">%s</text>' % (lx + 25, mt + 14 + i * 18, esc(k)))
    o.append("</svg>")
    return "\n".join(o) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--run", action="append", default=[])
    ap.add_argument("--versions")
    ap.add_argument("--command", default="")
    ap.add_argument("--base-text", help="what the base kernel is (default: Linux 6.12.117)")
    ap.add_argument("--notes", help="a Markdown file put after the targets: what explains them")
    ap.add_argument("--out-md", required=True)
    ap.add_argument("--out-json", required=True)
    ap.add_argument("--out-svg", required=True)
    a = ap.parse_args()
    if a.base_text:
        KERNEL_TEXT["base"] = a.base_text
    versions = {}
    if a.versions and os.path.exists(a.versions):
        for line in open(a.versions):
            k, eq, v = line.strip().partition("=")
            if eq:
                versions[k] = v
    warnings, recs, mem, fills, infos = [], [], [], [], []
    for spec in a.run:
        kernel, _, path = spec.partition("=")
        if os.path.basename(path).startswith("mem-zram"):
            ms = parse_mem(kernel, path, warnings)
            for x in ms:
                x["percpu_delta_kb"] = x["percpu_kb_after"] - x["percpu_kb_before"]
                if "vmalloc_kb_after" in x and "sunreclaim_kb_after" in x:
                    x["vmalloc_delta_kb"] = x["vmalloc_kb_after"] - x["vmalloc_kb_before"]
                    x["sunreclaim_delta_kb"] = x["sunreclaim_kb_after"] - x["sunreclaim_kb_before"]
                    x["alloc_kb"] = x["vmalloc_delta_kb"] + x["sunreclaim_delta_kb"] + x["percpu_delta_kb"]
            mem += ms
            continue
        info, rs, fs = parse_bench(kernel, path, warnings)
        infos.append(info)
        recs += rs
        fills += fs
    if not recs and not mem:
        sys.exit("zram-latency: no results in the run folders (%s)" % ", ".join(a.run))
    kernels = [k for k in KERNEL_ORDER if any(r["kernel"] == k for r in recs)]
    algos = [x for x in ("zstd", "lz4") if any(r["algo"] == x for r in recs)]
    algos += sorted({r["algo"] for r in recs} - set(algos))
    cpus_list = sorted({r["cpus"] for r in recs})
    accels = sorted({i["accel"] for i in infos if i["accel"]})
    icount = accels == ["icount"]
    accel_text = ", ".join(accels) or "unknown"
    if icount:
        accel_text = "icount (QEMU TCG, `-icount shift=0,sleep=off`, single-threaded: virtual time, 1 ns per instruction)"
    m = re.search(r"zstd level (\d+)", " ".join(i["header"] or "" for i in infos))
    level = m[1] if m else "?"
    m = re.search(r"think (\d+)us", " ".join(i["header"] or "" for i in infos))
    think = m[1] if m else "?"
    m = re.search(r"(\d+) readers and (\d+) writers per CPU", " ".join(i["header"] or "" for i in infos))
    rpc, wpc = (m[1], m[2]) if m else ("?", "?")
    m = re.search(r"disksize (\S+),", " ".join(i["header"] or "" for i in infos))
    guest = "zram0 of %s, fio %s" % (m[1] if m else "?",
                                      (re.search(r"(fio-[0-9.]+)", " ".join(i["header"] or "" for i in infos)) or ["?"])[0])
    # fio sleeps a pause only if it is longer than the nanosleep granularity
    # it measured at start; a shorter one it spins: the "interactive"
    # readers would then be CPU-bound, which the idle time shows.
    for r in recs:
        if r["scenario"] == "alone" and r.get("cpu_busy_pct", 0) > 80:
            warnings.append("%s %s %d vCPU run %d: readers alone kept the CPU %.0f%% busy: fio spun its"
                            " pauses instead of sleeping (pause shorter than its nanosleep granularity)"
                            % (r["kernel"], r["algo"], r["cpus"], r["run"], r["cpu_busy_pct"]))
    rows = targets(recs, mem, algos, cpus_list, kernels)
    notes = open(a.notes).read() if a.notes and os.path.exists(a.notes) else ""
    hi = host_info()
    data = {"command": a.command, "host": "%s CPUs, %s" % (hi.get("nproc"), hi.get("cpu_model")), "accel_text": accel_text,
            "icount": icount, "versions": versions, "warnings": warnings, "level": level,
            "think_us": think, "readers_per_cpu": rpc, "writers_per_cpu": wpc, "guest": guest, "notes": notes,
            "svg_name": os.path.basename(a.out_svg)}
    md = markdown(data, recs, mem, fills, algos, cpus_list, kernels, rows)
    with open(a.out_md, "w") as f:
        f.write(md)
    slim = []
    for r in recs:
        r2 = json.loads(json.dumps(r))
        for s in ("read", "write"):
            if s in r2:
                r2[s]["bins"] = {str(k): v for k, v in sorted(r[s]["bins"].items())}
        slim.append(r2)
    with open(a.out_json, "w") as f:
        json.dump({"meta": data, "runs": infos, "targets": rows, "results": slim, "memory": mem,
                   "fills": fills}, f, indent=1, sort_keys=True)
        f.write("\n")
    algo = "zstd" if "zstd" in algos else (algos[0] if algos else None)
    if algo:
        with open(a.out_svg, "w") as f:
            f.write(svg_plot(recs, cpus_list, kernels, algo,
                             "zram read latency, interactive readers against writers, %s: 1 - CDF, log-log"
                             % (algo + (" level " + level if algo == "zstd" else ""))))
    for x in warnings:
        print("zram-latency: warning: %s" % x, file=sys.stderr)


if __name__ == "__main__":
    main()
