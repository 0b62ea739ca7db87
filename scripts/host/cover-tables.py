#!/usr/bin/env python3
"""The cover letters' tables, made from the results files, and their provenance.

    cover-tables.py render|check --results DIR --tree TREEID --repo GITDIR COVER...
    cover-tables.py manifest --results DIR --tree TREEISH --repo GITDIR --base BASE

A cover letter (patches/*/cover-letter.txt) marks each table it quotes:

    @@ table latency-due-7.3 tool=swapin scenario=foreground cpus=2 metric=p99
    @@ allow tools/testing/selftests/ Documentation/: tests and docs only
    (the table: written by "render", never by hand)
    @@ end

The "@@" lines stay in cover-letter.txt; the export (tree.sh) drops them
from the letter that is sent. The first names a results file
(DIR/NAME.json) and what to take from it; "allow" (optional) names the
paths that may differ between the tree the file measured and the series'
tree, and says why they cannot change the figures. The files and what
the first line selects:

    latency-due*   tool=, scenario=, cpus=, preempt= (full), metric= (p99,
                   p50, p99.9, max, rate, write): a row per algorithm, a
                   column per kernel (latency-report.py)
    zram-memory*   window= (disksize, or load+disksize), kernel=
                   (patched): a row per setup, a column per vCPU count,
                   the difference from base and its verdict (mem-report.py)
    zsmalloc-api   nothing: the object API's loop, its phases and the API
                   by itself, base against patched (zsbench-report.py)

render  writes each table from its file.
check   fails (exit 1, one line each) when a table differs from what render
        would write, or when the file's "patched" kernel was not the
        series' tree TREEID and the trees differ in a path that "allow"
        does not name (or the measured tree is not in GITDIR to compare).
Prints "cover-tables: N passed, N failed" (one test a table).

A measured tree that is not in GITDIR (a fresh clone has only the series'
own) is compared through its manifest, DIR/trees/TREEID.json: the base's
tree id and the blob id of every path where the measured tree differs
from the base (null: deleted). "manifest" writes it for TREEISH.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import textwrap

TABLE, ALLOW, END = "@@ table ", "@@ allow ", "@@ end"


def parse_blocks(lines):
    """Yield (start, end, spec, allow) for each table block: lines[start] is
    the "@@ table" line, lines[end] its "@@ end"."""
    i = 0
    while i < len(lines):
        if lines[i].startswith(TABLE):
            words = lines[i][len(TABLE):].split()
            if not words:
                raise ValueError("line %d: '@@ table' names no results file" % (i + 1))
            spec = {"file": words[0]}
            for w in words[1:]:
                if "=" not in w:
                    raise ValueError("line %d: '%s' is not KEY=VALUE" % (i + 1, w))
                k, v = w.split("=", 1)
                spec[k] = v
            allow = None
            j = i + 1
            if j < len(lines) and lines[j].startswith(ALLOW):
                text = lines[j][len(ALLOW):]
                if ":" not in text:
                    raise ValueError("line %d: '@@ allow PATHS: WHY' needs the why" % (j + 1))
                paths, why = text.split(":", 1)
                allow = {"paths": paths.split(), "why": why.strip()}
                j += 1
            k = j
            while k < len(lines) and lines[k] != END:
                if lines[k].startswith("@@ "):
                    raise ValueError("line %d: '%s' inside a table (no '@@ end'?)" % (k + 1, lines[k]))
                k += 1
            if k == len(lines):
                raise ValueError("line %d: table without '@@ end'" % (i + 1))
            yield i, j, k, spec, allow
            i = k + 1
        else:
            i += 1


def fnum(v):
    if v is None:
        return "-"
    if v >= 100:
        return "{:,.0f}".format(v)
    return "{:.1f}".format(v)


def render_latency_due(doc, spec):
    """A table of one metric: a row per algorithm, a column per kernel."""
    metric = spec.get("metric", "p99")
    sel = {k: spec[k] for k in ("tool", "scenario", "cpus", "preempt") if k in spec}
    sel.setdefault("preempt", "full")
    rows = [r for r in doc["rows"]
            if all(str(r[k]) == v for k, v in sel.items())]
    if not rows:
        raise ValueError("%s: no rows with %s" % (spec["file"], sel))
    kernels = []
    algos = []
    for r in rows:
        if r["kernel"] not in kernels:
            kernels.append(r["kernel"])
        if r["algo"] not in algos:
            algos.append(r["algo"])
    what = {"ratereader": "read", "swapin": "swap-in"}[sel["tool"]]
    beside = {"alone": "alone", "writers": "with writers",
              "foreground": "with writers, reader at nice -10"}[sel["scenario"]]
    cpus = int(sel["cpus"])
    model = {"full": "", "rt": "PREEMPT_RT, "}.get(sel["preempt"], "preempt=%s, " % sel["preempt"])
    where = "%d vCPU%s, %s%s" % (cpus, "" if cpus == 1 else "s", model, beside)
    if metric == "write":
        out = ["  writers' MiB/s beside %ss, %s:" % (what, where)]
    elif metric == "rate":
        out = ["  %ss a second, %s:" % (what, where)]
    else:
        out = ["  %s %s (us from due), %s:" % (what, metric, where)]
    if len(out[0]) > 72:
        out = textwrap.wrap(out[0].strip(), 70, initial_indent="  ", subsequent_indent="  ")
    width = max(10, max(len(k) for k in kernels) + 2)
    out.append("  %-10s" % "" + "".join("%*s" % (width, k) for k in kernels))
    for a in algos:
        cells = []
        for k in kernels:
            r = next((x for x in rows if x["algo"] == a and x["kernel"] == k), None)
            cells.append("%*s" % (width, fnum(r["median"].get(metric)) if r else "-"))
        out.append("  %-10s" % a + "".join(cells))
    n = sorted({r["n"] for r in rows})
    out.append("  (medians of %s runs; patched tree %s)" % (
        "/".join(str(x) for x in n), ", ".join(doc["kernels"]["patched"]["tree_ids"])))
    return out


def render_zram_memory(doc, spec):
    """What a window allocated against base: a row per setup, a column
    per vCPU count, each cell the difference with its 95 % half-width and
    the verdict."""
    window = spec.get("window", "disksize")
    kernel = spec.get("kernel", "patched")
    rows = [v for v in doc["verdicts"] if v["window"] == window and v["kernel"] == kernel
            and v["setup"] != "load"]
    if not rows:
        raise ValueError("%s: no verdicts for window %s, kernel %s" % (spec["file"], window, kernel))
    setups, cpus = [], []
    for v in rows:
        if v["setup"] not in setups:
            setups.append(v["setup"])
        if v["cpus"] not in cpus:
            cpus.append(v["cpus"])
    cpus.sort()
    width = 30
    out = ["  %-10s" % "" + "".join("%-*s" % (width, "%8d vCPUs" % c) for c in cpus).rstrip()]
    for s in setups:
        cells = []
        for c in cpus:
            v = next((x for x in rows if x["setup"] == s and x["cpus"] == c), None)
            if v is None:
                cells.append("%-*s" % (width, "-"))
                continue
            m = re.match(r"([+-]?\d+) ± (\d+) kB", v["against"])
            if not m:
                raise ValueError("%s: cannot read %r" % (spec["file"], v["against"]))
            verdict = v["verdict"].strip("*")
            cells.append("%-*s" % (width, "%7s +/- %-5s %s" % (m.group(1), m.group(2), verdict)))
        out.append("  %-10s" % s + "".join(cells).rstrip())
    boots = sorted({r["boot"] for r in doc["records"] if r["kernel"] == kernel})
    out.append("  (KiB against base, %d boots of each kernel; patched tree %s)" % (
        len(boots) // max(1, len(cpus)), ", ".join(doc["kernels"][kernel]["tree_ids"])))
    return out


def render_zsmalloc_api(doc, spec):
    """The object API against zs_map_object(): the loop, its phases and
    the API by itself, base and patched means and the difference."""
    def pct(t):
        return "%+.2f%% +/- %.3f%%" % (t["pct"], t["pct_ci"])
    out = ["  %-20s%18s%19s%21s" % ("", "base (map/unmap)", "patched (new API)", "difference")]
    for key, label in (("total", "read + write loop"), ("read", "  read phase"),
                       ("write", "  write phase")):
        t = doc["ttest"][key]
        out.append("  %-20s%18s%19s%21s" % (label, "{:,.0f}".format(t["x"]["mean"]),
                                             "{:,.0f}".format(t["y"]["mean"]), pct(t)))
    o = doc["overhead"]["total"]
    out.append("  %-20s%18s%19s%21s" % ("the API itself", "{:,.0f}".format(o["base_api"]),
                                         "{:,.0f}".format(o["patched_api"]), pct(o)))
    out.append("  (the API: each run minus the same loop over kmalloc() buffers;")
    out.append("  means of %d runs, instructions; patched tree %s)" % (
        doc["ttest"]["total"]["y"]["n"], ", ".join(doc["kernels"]["patched"]["tree_ids"])))
    return out


RENDERERS = {"latency-due/1": render_latency_due, "zram-memory/1": render_zram_memory,
             "zsmalloc-api/1": render_zsmalloc_api}


def load(results, name):
    path = os.path.join(results, name + ".json")
    with open(path) as f:
        doc = json.load(f)
    fmt = doc.get("format")
    if fmt not in RENDERERS:
        raise ValueError("%s: no table can be made from its format (%r)" % (path, fmt))
    return doc


def git(repo, *args):
    return subprocess.run(["git", "-C", repo] + list(args),
                          capture_output=True, text=True, check=True).stdout


def blobs(repo, tree, paths):
    """{path: blob id or None} of PATHS in TREE."""
    out = {p: None for p in paths}
    for i in range(0, len(paths), 200):
        for line in git(repo, "ls-tree", "-r", "-z", tree, "--", *paths[i:i + 200]).split("\0"):
            if line:
                meta, path = line.split("\t", 1)
                out[path] = meta.split()[2]
    return out


def manifest(repo, tree, base):
    """The manifest of TREE: BASE's tree id and the blobs where they differ."""
    full = git(repo, "rev-parse", "--verify", tree + "^{tree}").strip()
    base_full = git(repo, "rev-parse", "--verify", base + "^{tree}").strip()
    paths = git(repo, "diff", "--name-only", "--no-renames", "-z", base_full, full).split("\0")
    return {"tree": full, "base": base_full,
            "files": blobs(repo, full, sorted(p for p in paths if p))}


def changed_paths(results, old, tree, repo):
    """The paths where tree OLD and TREE differ: from the repository, or
    through OLD's manifest; None if neither has OLD."""
    try:
        full = git(repo, "rev-parse", "--verify", "-q", old + "^{tree}").strip()
        return git(repo, "diff", "--name-only", full, tree).split()
    except subprocess.CalledProcessError:
        pass
    try:
        with open(os.path.join(results, "trees", old + ".json")) as f:
            man = json.load(f)
        mine = [p for p in git(repo, "diff", "--name-only", "--no-renames", "-z",
                               man["base"], tree).split("\0") if p]
    except (OSError, ValueError, KeyError, subprocess.CalledProcessError):
        return None
    # Both trees are the base but for their paths: a path that only one of
    # them changed differs; one that both changed differs if its blobs do.
    both = sorted(set(mine) & set(man["files"]))
    now = blobs(repo, tree, both)
    return sorted((set(mine) ^ set(man["files"]))
                  | {p for p in both if now[p] != man["files"][p]})


def provenance(doc, spec, allow, tree, repo, results):
    """None if the file measured the series' tree (or allowed paths only
    differ), else why not."""
    ids = doc.get("kernels", {}).get("patched", {}).get("tree_ids", [])
    if len(ids) != 1:
        return "%s: its patched kernel has %d tree ids (%s), not one" % (spec["file"], len(ids), ids)
    old = ids[0]
    if tree.startswith(old):
        return None
    changed = changed_paths(results, old, tree, repo)
    if changed is None:
        return ("%s measured tree %s, the series is tree %s, and %s is neither in %s nor"
                " in trees/%s.json to compare" % (spec["file"], old, tree[:12], old, repo, old))
    if allow:
        left = [p for p in changed if not any(p.startswith(a) for a in allow["paths"])]
        if not left:
            return None
    else:
        left = changed
    return ("%s measured tree %s, the series is tree %s; they differ in %s%s"
            % (spec["file"], old, tree[:12], ", ".join(left[:5]),
               " and %d more" % (len(left) - 5) if len(left) > 5 else ""))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=("render", "check", "manifest"))
    ap.add_argument("--results", required=True)
    ap.add_argument("--tree", required=True)
    ap.add_argument("--repo", required=True)
    ap.add_argument("--base", default="base")
    ap.add_argument("covers", nargs="*")
    a = ap.parse_intermixed_args()
    if a.mode == "manifest":
        try:
            man = manifest(a.repo, a.tree, a.base)
        except subprocess.CalledProcessError as e:
            sys.exit("cover-tables: no manifest of %s in %s: %s" % (a.tree, a.repo, e.stderr.strip()))
        os.makedirs(os.path.join(a.results, "trees"), exist_ok=True)
        out = os.path.join(a.results, "trees", man["tree"][:12] + ".json")
        with open(out, "w") as f:
            json.dump(man, f, indent=1, sort_keys=True)
            f.write("\n")
        print("cover-tables: wrote %s (%d paths)" % (out, len(man["files"])))
        return
    if not a.covers:
        ap.error("no cover letter")
    passed = failed = 0
    for cover in a.covers:
        with open(cover) as f:
            lines = f.read().split("\n")
        try:
            blocks = list(parse_blocks(lines))
        except ValueError as e:
            print("cover-tables: %s: %s" % (cover, e))
            failed += 1
            continue
        out = []
        pos = 0
        for start, body, end, spec, allow in blocks:
            out.extend(lines[pos:body])
            try:
                doc = load(a.results, spec["file"])
                table = RENDERERS[doc["format"]](doc, spec)
            except (OSError, ValueError, KeyError) as e:
                print("cover-tables: %s:%d: %s" % (cover, start + 1, e))
                failed += 1
                out.extend(lines[body:end])
                pos = end
                continue
            ok = True
            if a.mode == "check":
                if lines[body:end] != table:
                    print("cover-tables: %s:%d: the table of %s is not what its file gives:"
                          " run make cover-tables" % (cover, start + 1, spec["file"]))
                    ok = False
                why = provenance(doc, spec, allow, a.tree, a.repo, a.results)
                if why:
                    print("cover-tables: %s:%d: stale: %s" % (cover, start + 1, why))
                    ok = False
                elif allow and not a.tree.startswith(doc["kernels"]["patched"]["tree_ids"][0]):
                    print("cover-tables: %s:%d: %s measured an earlier tree; only %s differ: %s"
                          % (cover, start + 1, spec["file"], " ".join(allow["paths"]), allow["why"]))
            passed += ok
            failed += not ok
            out.extend(table)
            pos = end
        out.extend(lines[pos:])
        if a.mode == "render" and out != lines:
            with open(cover, "w") as f:
                f.write("\n".join(out))
            print("cover-tables: wrote %d table(s) in %s" % (len(blocks), cover))
    print("cover-tables: %d passed, %d failed" % (passed, failed))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
