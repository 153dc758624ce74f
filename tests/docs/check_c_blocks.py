#!/usr/bin/env python3
"""Compile (and run where they have a main) the ```c blocks of Markdown files
(CTest test docs.c_blocks; tests/README.md, "Code in the documentation").

What a block is, from the HTML comment on the line right before its fence:
  (none)                      a whole translation unit: compiled; with a
                              main() it is linked against tridi (and LAPACK)
                              and run, and must exit with status 0
  <!-- c-fragment: DECLS -->  statements: compiled inside a function after
                              <tridi.h>, the usual C headers and DECLS
                              (declarations of what the fragment uses)
  <!-- c-cuda -->             a translation unit that uses the CUDA runtime
                              or cuSPARSE: compiled (run if it has a main)
                              only when tridi was built with CUDA
  <!-- c-skip: REASON -->     not compiled; the reason is required
Every block must be one of these: nothing is skipped silently.

usage: check_c_blocks.py --cc CC --workdir DIR [--cflags F]... [--libs L]...
       [--cuda-cflags F]... [--cuda-libs L]... FILE.md...
"""
import argparse
import os
import re
import subprocess
import sys

PRELUDE = """#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tridi.h>
"""


def blocks(path):
    """(line, marker, code) of every ```c block of the file."""
    lines = open(path, encoding="utf-8").read().split("\n")
    out = []
    i = 0
    while i < len(lines):
        if lines[i].strip() == "```c":
            marker = lines[i - 1].strip() if i > 0 else ""
            j = i + 1
            while j < len(lines) and lines[j].strip() != "```":
                j += 1
            out.append((i + 1, marker, "\n".join(lines[i + 1:j]) + "\n"))
            i = j
        i += 1
    return out


def run(cmd, what):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        return "%s failed (exit %d):\n  %s\n%s%s" % (what, p.returncode, " ".join(cmd), p.stdout, p.stderr)
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cc", required=True)
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--cflags", action="append", default=[])
    ap.add_argument("--libs", action="append", default=[])
    ap.add_argument("--cuda-cflags", action="append", default=[])
    ap.add_argument("--cuda-libs", action="append", default=[])
    ap.add_argument("--cuda", default="OFF")
    ap.add_argument("files", nargs="+")
    a = ap.parse_args()
    cuda = a.cuda.upper() in ("ON", "1", "TRUE", "YES")
    os.makedirs(a.workdir, exist_ok=True)
    cflags = ["-std=c11", "-Wall", "-Wextra", "-Werror", "-pedantic"] + [f for x in a.cflags for f in x.split()]
    libs = [f for x in a.libs for f in x.split()]
    cuda_cflags = [f for x in a.cuda_cflags for f in x.split()]
    cuda_libs = [f for x in a.cuda_libs for f in x.split()]
    failures, counts = [], {"run": 0, "compiled": 0, "fragment": 0, "cuda": 0, "skipped": 0}
    for path in a.files:
        for line, marker, code in blocks(path):
            name = "%s:%d" % (os.path.relpath(path), line)
            stem = os.path.join(a.workdir, re.sub(r"[^A-Za-z0-9]+", "_", name))
            m = re.match(r"<!--\s*c-(fragment|cuda|skip)\s*(?::\s*(.*?))?\s*-->$", marker)
            kind = m.group(1) if m else "unit"
            arg = (m.group(2) or "") if m else ""
            if kind == "skip":
                if not arg:
                    failures.append("%s: c-skip needs a reason" % name)
                counts["skipped"] += 1
                continue
            if kind == "cuda" and not cuda:
                counts["skipped"] += 1
                continue
            src = code
            if kind == "fragment":
                src = PRELUDE + "void doc_fragment(void);\nvoid doc_fragment(void) {\n" + arg + "\n" + code + "}\n"
            with open(stem + ".c", "w") as f:
                f.write("/* %s */\n" % name + src)
            extra = cuda_cflags if kind == "cuda" else []
            has_main = kind != "fragment" and re.search(r"\bint\s+main\s*\(", code)
            err = run([a.cc] + cflags + extra + ["-c", stem + ".c", "-o", stem + ".o"], name + ": compile")
            if err is None and has_main:
                err = run([a.cc, stem + ".o", "-o", stem] + libs + (cuda_libs if kind == "cuda" else []),
                          name + ": link")
                if err is None:
                    err = run([stem], name + ": run")
                    counts["run"] += err is None
            elif err is None:
                counts["fragment" if kind == "fragment" else "compiled"] += 1
            if kind == "cuda" and err is None:
                counts["cuda"] += 1
            if err:
                failures.append(err)
    print("doc C blocks: %d run, %d compiled, %d fragments compiled, %d of them CUDA, %d skipped (marked)"
          % (counts["run"], counts["compiled"], counts["fragment"], counts["cuda"], counts["skipped"]))
    for f in failures:
        print("FAILED: " + f, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
