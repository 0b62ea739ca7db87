#!/usr/bin/env python3
"""The memory table of make bench-mem (scripts/host/bench-mem.sh).

Reads the BENCH-ZRAM-MEM records of mem-zram run folders
(scripts/guest/mem-zram.sh), one --run KERNEL=FOLDER each, and writes a
Markdown table and a JSON file: per setup (algorithm, level, recompression
algorithm), vCPU count and kernel, what "disksize" took (the growth of
Percpu, VmallocUsed, the slab objects in use and SUnreclaim; "allocated",
the first three added up, to the object; and the drop of the free pages,
buddy and per-CPU lists together: every page taken), what came back
when half of the CPUs went offline, and what an offline/online cycle of
every CPU but CPU 0 (a suspend to RAM's) left allocated; then each
kernel against base, Student's t at 95% (scripts/host/ttest.py) over the
boots (each boot's mean of its runs: runs in one boot repeat each other,
boots differ in their random seed), on "allocated" where every run has
it, else on the pages taken. Percpu is the per-CPU allocator's own count
(CONFIG_PERCPU_STATS: bytes, times the units) where the boot has it,
else /proc/meminfo's, which counts populated pages.

Usage: mem-report.py --run base=DIR [--run patched=DIR ...] --command CMD
       --base-text TEXT --project TEXT --out-md FILE --out-json FILE
"""

import argparse
import datetime
import importlib.util
import json
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import ttest  # noqa: E402

# scripts/host/zram-latency.py, whose name is no module name
_spec = importlib.util.spec_from_file_location("zram_latency", os.path.join(HERE, "zram-latency.py"))
zram_latency = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(zram_latency)

COUNTERS = ("percpu", "vmalloc", "sunreclaim")
NEEDED = ["algo", "cpus", "run"] + ["%s_kb_%s" % (c, w) for c in COUNTERS + ("free",)
                                     for w in ("before", "after")]


def parse_run(kernel, path, warnings):
    """The records of one run folder, with the derived figures."""
    shown = zram_latency.shown_path(path)
    info = {}
    try:
        with open(os.path.join(path, "run.info")) as f:
            for line in f:
                k, _, v = line.rstrip("\n").partition("=")
                info[k] = v
    except OSError:
        pass
    # The parser of make bench-zram's memory boots, which use the same
    # guest script: records with numbers, and warnings for a failed run.
    recs = []
    for r in zram_latency.parse_mem(kernel, path, warnings):
        missing = [k for k in NEEDED if k not in r]
        if missing:
            warnings.append("%s: a %s record without %s: skipped" % (shown, r["algo"], ", ".join(missing)))
            continue
        for c in COUNTERS:
            r[c] = r["%s_kb_after" % c] - r["%s_kb_before" % c]
        r["counted"] = sum(r[c] for c in COUNTERS)
        exact = pcpu_exact(r, "before", "after")
        if exact is not None:
            r["percpu_exact"] = exact
        pcpu = r.get("percpu_exact", r["percpu"])
        if "slab_kb_before" in r and "slab_kb_after" in r:
            r["slab"] = r["slab_kb_after"] - r["slab_kb_before"]
            r["allocated"] = pcpu + r["vmalloc"] + r["slab"]
            # At module load, VmallocUsed is the modules' own mappings
            # (code and data), not memory they allocate: "data" leaves it
            # out.
            r["data"] = pcpu + r["slab"]
        r["taken"] = r["free_kb_before"] - r["free_kb_after"]
        r["other"] = r["taken"] - r["counted"]
        if r.get("offline_cpus") and "free_kb_offline" in r:
            r["back"] = r["free_kb_offline"] - r["free_kb_after"]
            r["back_counted"] = sum(r["%s_kb_after" % c] - r["%s_kb_offline" % c] for c in COUNTERS)
            r["back_vmalloc"] = r["vmalloc_kb_after"] - r["vmalloc_kb_offline"]
        # What a cycle of every secondary CPU left allocated, against
        # right after disksize: the same counters as "allocated".
        if "vmalloc_kb_cycled" in r and "slab_kb_cycled" in r and "slab" in r:
            cyc = pcpu_exact(r, "after", "cycled")
            if cyc is None:
                cyc = r["percpu_kb_cycled"] - r["percpu_kb_after"]
            r["kept"] = (cyc + r["vmalloc_kb_cycled"] - r["vmalloc_kb_after"]
                         + r["slab_kb_cycled"] - r["slab_kb_after"])
        r["boot"] = shown
        recs.append(r)
    return recs, info


def pcpu_exact(r, a, b):
    """kB the per-CPU allocator handed out between snapshots A and B, from
    its own free-byte count; None without it, or if a chunk came or went
    (which moves the free bytes by a chunk)."""
    keys = ("pcpu_free_b_" + a, "pcpu_free_b_" + b, "pcpu_chunks_" + a, "pcpu_chunks_" + b)
    if not all(k in r for k in keys) or not r.get("pcpu_units"):
        return None
    if r[keys[2]] != r[keys[3]]:
        return None
    return (r[keys[0]] - r[keys[1]]) * r["pcpu_units"] / 1024.0


def mean_sd(xs):
    if not xs:
        return "-"
    if len(xs) == 1:
        return "%.0f" % xs[0]
    return "%.0f ± %.0f" % (statistics.fmean(xs), statistics.stdev(xs))


def compare(xs, ys):
    """ys against xs: the text and the verdict (below, not below)."""
    if len(xs) < 2 or len(ys) < 2:
        return "-", "too few runs"
    r = ttest.ttest(xs, ys)
    if r["pct"] is None:
        text = "%+.0f ± %.0f kB" % (r["diff"], r["ci"])
    else:
        text = "%+.0f ± %.0f kB (%+.1f%% ± %.1f%%)" % (r["diff"], r["ci"], r["pct"], r["pct_ci"])
    return text, verdict(r["diff"], r["ci"])


def verdict(diff, ci):
    """Below base only when the whole interval diff +/- ci is below zero."""
    if diff + ci < 0:
        return "below base"
    if diff - ci > 0:
        return "**above base**"
    return "not proven"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--run", action="append", default=[], metavar="KERNEL=DIR")
    ap.add_argument("--command", required=True)
    ap.add_argument("--base-text", required=True)
    ap.add_argument("--project", required=True)
    ap.add_argument("--out-md", required=True)
    ap.add_argument("--out-json", required=True)
    a = ap.parse_args()

    warnings, recs, kernels, infos, accels, tree_ids = [], [], [], {}, set(), {}
    seen, dups, repeated = set(), 0, set()
    for spec in a.run:
        kernel, _, path = spec.partition("=")
        if kernel not in kernels:
            kernels.append(kernel)
        rs, info = parse_run(kernel, path, warnings)
        # Boots in virtual time may repeat each other's allocations to the
        # kB: each boot is one sample all the same (its spread is what the
        # boots give), and the report says how many repeated another's.
        for r in rs:
            key = (kernel, r["algo"], r["cpus"], r["run"],
                   tuple(r.get("%s_kb_%s" % (c, w)) for c in ("percpu", "vmalloc", "slab")
                         for w in ("before", "after")))
            if key in seen:
                dups += 1
                repeated.add((kernel, r["algo"], r["cpus"]))
            seen.add(key)
            recs.append(r)
        if rs and info.get("accel"):
            accels.add(info["accel"])
        if info and kernel not in infos:
            infos[kernel] = info
        if info:
            ids = tree_ids.setdefault(kernel, {"built": set(), "tree_ids": set()})
            ids["built"].add(info.get("built", "?"))
            ids["tree_ids"].add(info.get("tree_id", "?")[:12])
    if not recs:
        sys.exit("mem-report: no BENCH-ZRAM-MEM records in %s" % ", ".join(a.run))
    setups = []
    for r in recs:
        if r["algo"] not in setups:
            setups.append(r["algo"])
    cpus_list = sorted({r["cpus"] for r in recs})

    def sample(kernel, setup, cpus, key):
        """One figure a boot: the mean of its runs."""
        boots = {}
        for r in recs:
            if r["kernel"] == kernel and r["algo"] == setup and r["cpus"] == cpus and key in r:
                boots.setdefault(r["boot"], []).append(r[key])
        return [statistics.fmean(v) for v in boots.values()]

    out = []
    w = out.append
    w("# zram: memory of the compression streams and read contexts")
    w("")
    w("Made by `%s` (%s), on %s; %s." % (
        a.command, datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        a.base_text, a.project))
    for k in kernels:
        i = infos.get(k, {})
        w("- %s: `%s`" % (k, i.get("built", "?")))
    w("")
    clock = {"icount": "virtual time (QEMU -icount shift=0,sleep=off, single-threaded TCG, fixed"
                       " clock and random seed)",
             "tcg": "real time (TCG)", "kvm": "real time (KVM)"}
    clock_text = ", ".join(clock.get(c, c) for c in sorted(accels)) or "?"
    w("`mods` kernels (vm, with zsmalloc and zram as modules, as Android builds them), 2048 MiB,"
      " %s. The setup `load` is the loading of zsmalloc.ko and zram.ko, once a boot. For"
      " each other setup zram0 is reset and"
      " configured, then `disksize` is written, which allocates the streams (and, on the"
      " series, the read contexts) of every online CPU (scripts/guest/mem-zram.sh). A setup is"
      " ALGO[:LEVEL][+RECOMPRESSION ALGO]: `zstd` is zstd at its default level (3), `lz4+zstd`"
      " lz4 with zstd as the recompression algorithm (priority 1)." % clock_text)
    w("")
    if dups:
        w("%d records repeated another boot's of the same kernel in every allocation"
          " counter (Percpu, VmallocUsed and slab, before and after): boots in virtual time"
          " may allocate alike, and then their spread is zero." % dups)
        w("")
    w("Columns, growth across `disksize` in kB, mean ± standard deviation over the boots"
      " (n; each boot's figure the mean of its runs): Percpu (the per-CPU allocator's own"
      " count of bytes, times its units, where the kernel has CONFIG_PERCPU_STATS; else"
      " populated pages), VmallocUsed (contexts and buffers, and zram's slot"
      " table, the same on every kernel), slab: the bytes of the slab objects in use (every"
      " cache shrunk before it is counted, so that the count is exact: what was kmalloc'ed);"
      " **allocated**: the three added up, what the kernel handed out, to the object;"
      " SUnreclaim: the slab pages, which depend on which slabs had free objects; taken: the"
      " drop of the free pages (buddy and per-CPU lists, /proc/zoneinfo), every page taken,"
      " pages taken straight from the page allocator included, with the noise of everything"
      " else the guest does meanwhile. Offline: what came back when the upper half of the"
      " CPUs went offline, in VmallocUsed (exact) and in free pages. Kept: what an offline and"
      " online of every CPU but CPU 0 (as a suspend to RAM does) left allocated, against"
      " right after `disksize`, counted as allocated is (0: the device has what it had).")
    w("")
    w("| Setup | vCPUs | Kernel | n | Percpu | VmallocUsed | slab | **allocated** | SUnreclaim | taken"
      " | offline: VmallocUsed back | offline: free pages back | cycle: kept |")
    w("| --- | --: | --- | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: |")
    for s in setups:
        for cpus in cpus_list:
            for k in kernels:
                t = sample(k, s, cpus, "taken")
                if not t:
                    continue
                pc = sample(k, s, cpus, "percpu_exact") or sample(k, s, cpus, "percpu")
                w("| `%s` | %d | %s | %d | %s | %s | %s | **%s** | %s | %s | %s | %s | %s |" % (
                    s, cpus, k, len(t), mean_sd(pc),
                    mean_sd(sample(k, s, cpus, "vmalloc")), mean_sd(sample(k, s, cpus, "slab")),
                    mean_sd(sample(k, s, cpus, "allocated")), mean_sd(sample(k, s, cpus, "sunreclaim")),
                    mean_sd(t), mean_sd(sample(k, s, cpus, "back_vmalloc")),
                    mean_sd(sample(k, s, cpus, "back")), mean_sd(sample(k, s, cpus, "kept"))))
    w("")

    def measure(k, s, cpus):
        """The figure a verdict is on: allocated where every run has it."""
        t, al = sample(k, s, cpus, "taken"), sample(k, s, cpus, "allocated")
        return ("allocated", al) if al and len(al) == len(t) else ("taken", t)
    verdicts = []
    if "base" in kernels and len(kernels) > 1:
        w("Each kernel against base, Student's t at 95%: the difference of the means of"
          " **allocated** (negative: less memory than base; taken where a run lacks the slab"
          " count) and of the pages taken. The verdict is \"below base\" only when the whole"
          " interval of the first is below zero.")
        w("")
        w("| Setup | vCPUs | Kernel | allocated, against base | taken, against base | verdict |")
        w("| --- | --: | --- | --: | --: | --- |")
        for s in setups:
            for cpus in cpus_list:
                bt = sample("base", s, cpus, "taken")
                for k in kernels:
                    if k == "base":
                        continue
                    kt = sample(k, s, cpus, "taken")
                    if not bt or not kt:
                        continue
                    (bm, bx), (km, kx) = measure("base", s, cpus), measure(k, s, cpus)
                    if bm != km:
                        (bm, bx), (km, kx) = ("taken", bt), ("taken", kt)
                    at, v = compare(bx, kx)
                    if bm != "allocated":
                        at = "- (taken: %s)" % at
                    tt, _ = compare(bt, kt)
                    w("| `%s` | %d | %s | %s | %s | %s |" % (s, cpus, k, at, tt, v))
                    verdicts.append({"setup": s, "cpus": cpus, "kernel": k, "window": "disksize",
                                     "measure": bm, "against": at, "taken": tt, "verdict": v})
        w("")
        if "load" in setups:
            w("With the modules' load: what loading zsmalloc.ko and zram.ko allocated (the setup"
              " `load`, once a boot: base's zsmalloc allocates its per-CPU mapping area there, one"
              " page a CPU, for the objects that span two pages, which the series' read contexts"
              " copy into their own buffer instead) and what `disksize` took, added up. Of the"
              " load, Percpu and slab count (`data`): its VmallocUsed is the modules' own code and"
              " data, mapped at load, which is not memory they allocate; it is the last column,"
              " against base. `disksize` counts allocated, as above. The difference of the sums,"
              " with a half-width of the square root of the sum of the squared half-widths; a"
              " load that every boot of both kernels repeated exactly counts as a constant.")
            w("")
            w("| Setup | vCPUs | Kernel | load (data) + disksize, base (kB) | against base | verdict"
              " | modules' mappings, against base |")
            w("| --- | --: | --- | --: | --: | --- | --: |")
            for s in setups:
                if s == "load":
                    continue
                for cpus in cpus_list:
                    for k in kernels:
                        if k == "base":
                            continue
                        ms = [measure(kk, ss, cpus) for kk in ("base", k) for ss in ("load", s)]
                        key = "allocated" if all(m == "allocated" for m, _ in ms) else "taken"
                        lkey = "data" if key == "allocated" else key
                        bl, bt = sample("base", "load", cpus, lkey), sample("base", s, cpus, key)
                        kl, kt = sample(k, "load", cpus, lkey), sample(k, s, cpus, key)
                        # A load that every boot repeated exactly is a
                        # constant: its difference has no interval.
                        exact = (len(bl) == 1 and len(kl) == 1
                                 and ("base", "load", cpus) in repeated
                                 and (k, "load", cpus) in repeated)
                        if min(len(bt), len(kt)) < 2 or (min(len(bl), len(kl)) < 2 and not exact):
                            continue
                        rt = ttest.ttest(bt, kt)
                        rl = ({"diff": kl[0] - bl[0], "ci": 0.0} if exact
                              else ttest.ttest(bl, kl))
                        diff = rl["diff"] + rt["diff"]
                        ci = (rl["ci"] ** 2 + rt["ci"] ** 2) ** 0.5
                        total = statistics.fmean(bl) + statistics.fmean(bt)
                        v = verdict(diff, ci)
                        text = "%+.0f ± %.0f kB (%+.1f%% ± %.1f%%)" % (
                            diff, ci, 100.0 * diff / total, 100.0 * ci / total)
                        if key != "allocated":
                            text += " (taken)"
                        bv = sample("base", "load", cpus, "vmalloc")
                        kv = sample(k, "load", cpus, "vmalloc")
                        if exact:
                            mt = "%+.0f kB (every boot)" % (kv[0] - bv[0])
                        else:
                            mt, _ = compare(bv, kv)
                        w("| `%s` | %d | %s | %.0f | %s | %s | %s |" % (s, cpus, k, total, text, v, mt))
                        verdicts.append({"setup": s, "cpus": cpus, "kernel": k, "window": "load+disksize",
                                         "measure": key, "against": text, "verdict": v,
                                         "modules_mappings": mt})
            w("")
    if warnings:
        w("Warnings:")
        w("")
        for x in warnings:
            w("- %s" % x)
        w("")
    with open(a.out_md, "w") as f:
        f.write("\n".join(out))
    with open(a.out_json, "w") as f:
        json.dump({"format": "zram-memory/1", "command": a.command, "project": a.project,
                   "base": a.base_text,
                   "kernels": {k: {x: sorted(v) for x, v in tree_ids.get(k, {}).items()}
                               for k in kernels},
                   "verdicts": verdicts, "records": recs, "warnings": warnings}, f, indent=1)
        f.write("\n")
    sys.stdout.write("\n".join(out))
    return 1 if warnings else 0


if __name__ == "__main__":
    sys.exit(main())
