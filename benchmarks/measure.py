"""Running a measured command: its wall time, its own peak RSS and the sampled peak PSS of its process tree."""
from __future__ import annotations

import contextlib
import json
import os
import re
import subprocess
import sys
import threading
from collections import defaultdict
from pathlib import Path


def _group(pid: int) -> str | None:
    """The kind of a process by its name (None: it has exited)."""
    try:
        with open(f"/proc/{pid}/comm", encoding="utf-8", errors="replace") as f:
            name = f.read().strip().lower()
    except OSError:
        return None
    if name == "exe":  # Chromium's zygote and helpers re-exec /proc/self/exe
        return "chromium"
    for group in ("chrom", "node", "python", "mkdocs"):
        if name.startswith(group):
            return {"chrom": "chromium", "mkdocs": "python"}.get(group, group)
    return f"other ({name})"


def _tree_pss_kb(root_pid: int) -> dict[str, int]:
    """Proportional set size of a process and all its descendants, by kind of process (Chromium's share memory)."""
    children: dict[int, list[int]] = defaultdict(list)
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", "rb") as f:
                    ppid = int(f.read().rsplit(b")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children[ppid].append(int(entry))
    totals: dict[str, int] = defaultdict(int)
    stack = list(children.get(root_pid, ()))  # the trampoline itself is not counted
    while stack:
        pid = stack.pop()
        stack.extend(children.get(pid, ()))
        kind = _group(pid)
        if kind is None:
            continue
        try:
            with open(f"/proc/{pid}/smaps_rollup", "rb") as f:
                for line in f:
                    if line.startswith(b"Pss:"):
                        totals[kind] += int(line.split()[1])
                        break
        except OSError:
            pass
    return totals


# A small parent for every measured command. A child forked from this (large) process would report this process's
# RSS as its own peak (Linux keeps the pre-exec high-water mark), so the command is started from a fresh
# interpreter that is only a few MB, and that interpreter reports the command's own wall time and peak RSS.
TRAMPOLINE = r"""
import json, os, subprocess, sys, time
start = time.perf_counter()
proc = subprocess.Popen(sys.argv[2:])
_, status, usage = os.wait4(proc.pid, 0)
wall = time.perf_counter() - start
proc.returncode = os.waitstatus_to_exitcode(status)
with open(sys.argv[1], "w") as f:
    json.dump({"rc": proc.returncode, "wall_s": wall, "max_rss_kb": usage.ru_maxrss,
               "cpu_s": usage.ru_utime + usage.ru_stime}, f)
sys.exit(0 if proc.returncode == 0 else 1)
"""


def run_measured(cmd: list[str], cwd: Path, env: dict[str, str], log: Path) -> dict:
    """Wall time, the command's own peak RSS (wait4) and the sampled peak PSS of its whole process tree."""
    peak: dict[str, int] = defaultdict(int)
    done = threading.Event()
    figures = log.with_suffix(".rusage.json")
    with open(log, "wb") as out:
        proc = subprocess.Popen([sys.executable, "-I", "-S", "-c", TRAMPOLINE, str(figures), *cmd],
                                cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT)

        def sample() -> None:
            while not done.wait(0.1):
                with contextlib.suppress(Exception):
                    sample_ = _tree_pss_kb(proc.pid)
                    peak["total"] = max(peak["total"], sum(sample_.values()))
                    for group, kb in sample_.items():
                        peak[group] = max(peak[group], kb)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        proc.wait()
        done.set()
        sampler.join()
    text = log.read_text(encoding="utf-8", errors="replace")
    try:
        measured = json.loads(figures.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        measured = {"rc": proc.returncode or 1, "wall_s": float("nan"), "max_rss_kb": 0, "cpu_s": float("nan")}
    return {
        "wall_s": measured["wall_s"], "rc": measured["rc"], "max_rss_mb": measured["max_rss_kb"] / 1024,
        "tree_pss_mb": peak["total"] / 1024, "pss_peak_by_kind_mb": {k: v / 1024 for k, v in peak.items() if k != "total"},
        "cpu_s": measured["cpu_s"], "log_tail": text[-2000:] if measured["rc"] else "",
        "warnings": len(re.findall(r"^WARNING", text, re.M)), "output": text,
    }


def build_env(port: int, project: Path | None = None) -> dict[str, str]:
    env = dict(os.environ)
    env["NO_MKDOCS_2_WARNING"] = "1"
    env["SITE_URL"] = f"http://127.0.0.1:{port}/"
    if project is not None:
        env["PYTHONPATH"] = str(project / "hooks")
    return env


