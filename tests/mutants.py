"""The engine's mutation score, from the results `mutmut run` leaves in mutants/.

``make mutate`` runs it after mutmut. mutmut runs each mutant in a process forked
from one that has already imported the engine, so code that runs only at import (the
tables of card positions, for instance) never runs mutated there. Every mutant that
survives is therefore run once more in a fresh process, mutated from the start; what
the tests catch there is killed too.

Prints the kill rate per module, then every survivor with the lines it changes. A
survivor is accounted for when tests/mutants.md names it with the reason no test can
tell it from the engine. Exits 1 when a survivor is not accounted for, or when fewer
than 95% of the mutants that are not listed there are killed.
"""

import ast
import difflib
import functools
import json
import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "mutants"
LISTED = Path(__file__).with_name("mutants.md")
ENGINE_TESTS = ["tests/scoring/engine", "tests/tournaments/engine"]
TARGET = 0.95
# A fresh run of the engine's tests takes seconds; a mutant that loops is caught.
FRESH_TIMEOUT = 600

# mutmut's exit codes: 1 and 3 a test failed; the CPU-time limits mean the mutant
# made the tests run far longer than they do, counted as killed (and shown apart,
# since a mutant that only slows the engine down ends there too). 0 survived; 33 and
# 5 no test ran it.
FAILED = {1, 3}
TIMED_OUT = {24, -24, 152, 255, 36}
KILLED = FAILED | TIMED_OUT
LEFT = {0, 5, 33}


def results() -> dict[str, dict[str, int | None]]:
    """Exit code per mutant, per engine module (path relative to the checkout)."""
    by_module = {}
    for meta in sorted(RESULTS.glob("*/engine/*.py.meta")):
        module = meta.relative_to(RESULTS).as_posix().removesuffix(".meta")
        codes = json.loads(meta.read_text())["exit_code_by_key"]
        if codes:
            by_module[module] = codes
    return by_module


def listed() -> set[str]:
    """The mutants tests/mutants.md names (in backticks)."""
    return set(re.findall(r"`([\w.ǁ]+__mutmut_\d+)`", LISTED.read_text()))


def fresh_run(mutant: str) -> int:
    """The engine's tests in a new process with ``mutant`` switched on before any
    import ("" for none); the exit code, or -1 when the tests did not end in time."""
    try:
        return subprocess.run(
            [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *ENGINE_TESTS],
            cwd=RESULTS,
            env={**os.environ, "MUTANT_UNDER_TEST": mutant},
            capture_output=True,
            timeout=FRESH_TIMEOUT,
            check=False,
        ).returncode
    except subprocess.TimeoutExpired:
        return -1


def change(module: str, mutant: str) -> str:
    """The lines the mutant changes, from the mutated copy of the module in mutants/."""
    functions = _functions(module)
    short = mutant.rsplit(".", 1)[1]
    original = functions.get(short.rsplit("__mutmut_", 1)[0] + "__mutmut_orig", [])
    diff = difflib.unified_diff(original, functions.get(short, []), lineterm="", n=0)
    changed = [line for line in diff if line[:1] in "+-" and line[:3] not in ("+++", "---")]
    return "\n".join(f"      {line}" for line in changed)


@functools.cache
def _functions(module: str) -> dict[str, list[str]]:
    """The lines of every function in the mutated module, by name, without the def line."""
    source = (RESULTS / module).read_text()
    lines = source.splitlines()
    return {
        node.name: [line.strip() for line in lines[node.lineno : node.end_lineno]]
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.FunctionDef)
    }


def main() -> int:
    by_module = results()
    if not by_module:
        print("No results in mutants/: run `make mutate`.")
        return 1
    if fresh_run("") != 0:
        print("The engine's tests fail in mutants/ without any mutant: nothing to measure.")
        return 1
    accounted = listed()
    survivors = [
        (module, mutant)
        for module, codes in by_module.items()
        for mutant, code in codes.items()
        if code in LEFT and mutant not in accounted
    ]
    print(f"Running {len(survivors)} surviving mutants again in fresh processes …", flush=True)
    caught_fresh = {mutant for _, mutant in survivors if fresh_run(mutant) != 0}

    print(f"\n{'module':34} {'mutants':>8} {'killed':>7} {'listed':>7} {'left':>5} {'rate':>7}")
    totals, open_survivors = Counter(), []
    for module, codes in by_module.items():
        killed = sum(code in KILLED or mutant in caught_fresh for mutant, code in codes.items())
        same = sum(code in LEFT and mutant in accounted for mutant, code in codes.items())
        unchecked = sum(code is None for code in codes.values())
        left = [(module, mutant) for module_, mutant in survivors if module_ == module]
        left = [(module, mutant) for _, mutant in left if mutant not in caught_fresh]
        counted = len(codes) - same - unchecked
        rate = killed / counted if counted else 1.0
        note = f"  ({unchecked} not run)" if unchecked else ""
        print(f"{module:34} {len(codes):8} {killed:7} {same:7} {len(left):5} {rate:7.1%}{note}")
        totals.update(mutants=len(codes), killed=killed, same=same, counted=counted)
        open_survivors += left
    rate = totals["killed"] / totals["counted"] if totals["counted"] else 1.0
    print(
        f"{'engine':34} {totals['mutants']:8} {totals['killed']:7} {totals['same']:7} "
        f"{len(open_survivors):5} {rate:7.1%}"
    )
    raw = totals["killed"] / totals["mutants"]
    timed_out = sum(code in TIMED_OUT for codes in by_module.values() for code in codes.values())
    print(
        f"\nKilled: {rate:.1%} of the {totals['counted']} mutants not listed in "
        f"tests/mutants.md ({raw:.1%} of all {totals['mutants']}); {timed_out} of them by "
        f"the time limit, {len(caught_fresh)} only in a fresh process."
    )
    if open_survivors:
        print(f"\n{len(open_survivors)} survivors not accounted for in tests/mutants.md:")
        for module, mutant in open_survivors:
            print(f"  {mutant} ({module})\n{change(module, mutant)}")
    return 0 if rate >= TARGET and not open_survivors else 1


if __name__ == "__main__":
    sys.exit(main())
