"""The engine's mutation score, read from the results `mutmut run` leaves in mutants/.

``make mutate`` runs it: the kill rate per module, then every surviving mutant with
the lines it changes. A survivor is accounted for when tests/mutants.md names it with the
reason no test can tell it from the engine (an equivalent mutant). Exits 1 when a
survivor is not accounted for or fewer than 95% of the other mutants are killed.
"""

import ast
import difflib
import functools
import json
import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "mutants"
EQUIVALENT = Path(__file__).with_name("mutants.md")
TARGET = 0.95

# mutmut's exit codes: 1 and 3 a test failed; the CPU-time limits mean the mutant
# made a test loop, which the run also notices. 0 survived; 33 and 5 no test ran it.
KILLED = {1, 3, 24, -24, 152, 255, 36}
SURVIVED = {0}
UNTESTED = {5, 33}


def results() -> dict[str, dict[str, int | None]]:
    """Exit code per mutant, per engine module (path relative to the checkout)."""
    by_module = {}
    for meta in sorted(RESULTS.glob("*/engine/*.py.meta")):
        module = meta.relative_to(RESULTS).as_posix().removesuffix(".meta")
        codes = json.loads(meta.read_text())["exit_code_by_key"]
        if codes:
            by_module[module] = codes
    return by_module


def equivalent() -> set[str]:
    """The mutants tests/mutants.md names (in backticks)."""
    return set(re.findall(r"`([\w.ǁ]+__mutmut_\d+)`", EQUIVALENT.read_text()))


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
    listed = equivalent()
    open_survivors, totals = [], Counter()
    print(f"{'module':34} {'mutants':>8} {'killed':>7} {'equiv.':>7} {'left':>5} {'rate':>7}")
    for module, codes in by_module.items():
        killed = sum(code in KILLED for code in codes.values())
        left = [m for m, code in codes.items() if code in SURVIVED | UNTESTED]
        unchecked = sum(code is None for code in codes.values())
        same = [m for m in left if m in listed]
        counted = len(codes) - len(same) - unchecked
        rate = killed / counted if counted else 1.0
        note = f"  ({unchecked} not run)" if unchecked else ""
        print(
            f"{module:34} {len(codes):8} {killed:7} {len(same):7} "
            f"{len(left) - len(same):5} {rate:7.1%}{note}"
        )
        totals.update(mutants=len(codes), killed=killed, same=len(same), counted=counted)
        open_survivors += [(module, m, codes[m]) for m in left if m not in listed]
    rate = totals["killed"] / totals["counted"] if totals["counted"] else 1.0
    print(
        f"{'engine':34} {totals['mutants']:8} {totals['killed']:7} {totals['same']:7} "
        f"{len(open_survivors):5} {rate:7.1%}"
    )
    print(f"\nKill rate {rate:.1%} of {totals['counted']} mutants that are not equivalent.")
    if open_survivors:
        print(f"\n{len(open_survivors)} survivors not accounted for in tests/mutants.md:")
        for module, mutant, code in open_survivors:
            why = "no test runs it" if code in UNTESTED else "survived"
            print(f"  {mutant} ({module}, {why})\n{change(module, mutant)}")
    return 0 if rate >= TARGET and not open_survivors else 1


if __name__ == "__main__":
    sys.exit(main())
