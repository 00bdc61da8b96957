"""Mutation testing (`make mutate`): runs mutmut over two parts of Knock and reports.

- ``engine``: `scoring/engine/`, `tournaments/engine/` and `seasons/engine/` against the
  engine's own tests, which need no database. Configured in pyproject.toml's
  ``[tool.mutmut]``.
- ``services``: the functions that guard results (entering, confirming and deciding
  hands, idempotency and seat keys, who may run a club), listed in
  ``[tool.mutmut.services]``, against the tests that use them. These need Django's
  database: tests/mutants_db.py migrates it once and gives each run a copy.

Django is set up for every test, so mutmut's copy of the checkout needs every app:
``also_copy`` is not written in pyproject.toml but made here from the settings (the
installed apps that are folders of the checkout, the folders the settings name,
manage.py), so that a new app is copied without a word here.

``python -m tests.mutants run PART`` runs mutmut for one part in its own folder,
``mutants/PART/`` (mutmut keeps its results in ``mutants/`` under the folder it runs
in); ``run PART MODULE...`` only the mutants of those modules (paths such as
``seasons/engine/stats.py``, or mutmut's names), keeping the other results;
``retest PART`` runs the part's unlisted survivors again, against the tests as
they are now; ``python -m tests.mutants report`` prints the kill rate per module and every
survivor with the lines it changes. A survivor is accounted for when tests/mutants.md
names it with the reason no test can tell it from the code. The report exits 1 when a
survivor is not accounted for, or when fewer than 95% of the engine's mutants that are
not listed there are killed.

``python -m tests.mutants smoke`` (`make mutate-smoke`) runs a fifth of the mutants of one
small engine module (SMOKE, SMOKE_SHARE) afresh in ``mutants/smoke/`` and prints their
rate: a check, in about half a minute, that the tooling still works.

mutmut runs each mutant in a process forked from one that has already imported the
code, so code that runs only at import (the engine's tables of card positions, for
instance) never runs mutated there. Every engine mutant that survives is therefore run
once more in a fresh process, mutated from the start; what the tests catch there is
killed too. Of the services only `organizer_required` runs at import (it wraps the
views); its survivors get the same second run, with the tests ``fresh`` names.
"""

import ast
import difflib
import fnmatch
import functools
import json
import os
import re
import subprocess
import sys
import tomllib
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "mutants"
LISTED = Path(__file__).with_name("mutants.md")
PARTS = ("engine", "services")
TARGET = 0.95
# `python -m tests.mutants smoke`: one small engine module against its own tests, to
# show in about half a minute that the tooling still works (and the module's rate).
SMOKE = ("seasons/engine/season.py", "tests/seasons/engine/test_season.py")
# Of its mutants, those numbered ...0 and ...5 in each function: a fifth (38 of 196),
# from every function of more than four. Each mutant costs a start of pytest (some
# 0.6 s of a core) whatever its tests take, so the share, not the module, sets the time.
SMOKE_SHARE = "*__mutmut_*[05]"
# A fresh run of the engine's tests takes seconds; a mutant that loops is caught.
FRESH_TIMEOUT = 600
# Django's settings module, as pytest-django is told it.
SETTINGS = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"][
    "DJANGO_SETTINGS_MODULE"
]
# Asked of the settings in a process of its own (importing them here would leave the
# checkout's modules behind in mutmut's processes): the installed apps and the
# folders the settings name (templates, translations, static files).
PROBE = (
    "import json; from django.conf import settings as s; print(json.dumps({"
    "'apps': list(s.INSTALLED_APPS), 'folders': [str(f) for f in "
    "[*s.LOCALE_PATHS, *s.STATICFILES_DIRS, *(f for t in s.TEMPLATES for f in t['DIRS'])]]}))"
)


@functools.cache
def checkout() -> list[str]:
    """What the code and its tests need of the checkout, besides the tests and
    pyproject.toml (which mutmut copies itself): the settings' package, every
    installed app that is a folder of the checkout, the folders the settings name,
    and manage.py. Read from the settings, so a new app is copied without a word here:
    each part's folder links to these, and mutmut copies those it does not mutate."""
    probe = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": SETTINGS},
        capture_output=True,
        text=True,
        check=False,
    )
    if probe.returncode:
        raise RuntimeError(f"The settings ({SETTINGS}) cannot be read:\n{probe.stderr}")
    found = json.loads(probe.stdout)
    names = {SETTINGS.partition(".")[0], "manage.py"}
    names |= {app.partition(".")[0] for app in found["apps"]}
    for folder in map(Path, found["folders"]):
        if folder.resolve().is_relative_to(ROOT):
            names.add(folder.resolve().relative_to(ROOT).parts[0])
    # Django's own apps and the libraries' are installed, not in the checkout.
    return sorted(name for name in names if (ROOT / name).exists())


# mutmut's exit codes: 1 and 3 a test failed. The time limits (CPU and wall clock)
# end a mutant that makes the tests run far longer than they do: counted as killed,
# but shown apart (a mutant that only slows the code down ends there too, so the
# rate is given without them as well). 0 survived; 33 and 5 no test ran it; None
# mutmut did not run it (a function of a mutated file that is not in the part).
FAILED = {1, 3}
# -9: killed one second after the CPU limit's signal, which it did not stop for.
TIMED_OUT = {24, -24, 152, 255, 36, -9}
LEFT = {0, 5, 33}


def config(part: str) -> dict:
    """The part's mutmut settings: ``[tool.mutmut]``, and for the services the keys
    of ``[tool.mutmut.services]`` over it. ``also_copy`` is not written there but
    made here: what of the checkout the part does not mutate."""
    settings = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mutmut"]
    base = {key: value for key, value in settings.items() if not isinstance(value, dict)}
    if part == "smoke":
        module, tests = SMOKE
        base |= {"only_mutate": [module], "pytest_add_cli_args_test_selection": [tests]}
    chosen = {**base, **settings[part]} if part in settings else base
    if "also_copy" in chosen:
        raise ValueError("pyproject.toml: also_copy is made by tests/mutants.py, not set.")
    mutated = {Path(path).parts[0] for path in chosen["source_paths"]}
    return {**chosen, "also_copy": [name for name in checkout() if name not in mutated]}


def patterns(part: str) -> list[str]:
    """mutmut's names for the mutants of the part's functions (all, for the engine;
    SMOKE_SHARE of its module's, for the smoke)."""
    if part == "smoke":
        return [SMOKE[0].removesuffix(".py").replace("/", ".") + "." + SMOKE_SHARE]
    return _names(config(part).get("functions", []))


def _names(functions: list[str]) -> list[str]:
    """``clubs.permissions.TokenAuth.authenticate`` → ``clubs.permissions.xǁTokenAuthǁ
    authenticate__mutmut_*``."""
    names = []
    for function in functions:
        module, _, name = function.rpartition(".")
        owner, _, method = module.rpartition(".")
        if owner and method[:1].isupper():
            names.append(f"{owner}.xǁ{method}ǁ{name}__mutmut_*")
        else:
            names.append(f"{module}.x_{name}__mutmut_*")
    return names


# ---------------------------------------------------------------- running mutmut

# Run in a fresh interpreter inside the part's folder: this file is loaded by path,
# so the tests package is first imported from mutmut's mutated copy, never from here.
BOOT = (
    "import sys, importlib.util as u; s = u.spec_from_file_location('knock_mutants', "
    "sys.argv[1]); m = u.module_from_spec(s); s.loader.exec_module(m); "
    "m.mutmut_run(*sys.argv[2:])"
)


def run(part: str, mutants: list[str] = (), log: str = "") -> int:
    """Runs mutmut for ``part`` in ``mutants/PART/`` (only ``mutants``, when named);
    its output goes to ``mutants/PART.log`` (or ``log``), whose end is printed when
    mutmut fails."""
    folder = RESULTS / part
    folder.mkdir(parents=True, exist_ok=True)
    for name in [*checkout(), "tests", "pyproject.toml"]:
        link = folder / name
        if not link.exists():
            link.symlink_to(ROOT / name)
    log = RESULTS / (log or (f"{part}-retest.log" if mutants else f"{part}.log"))
    env = dict(os.environ)
    if part == "services":
        # tests/mutants_db.py's TEMPLATE: the migrated database every run copies.
        env["KNOCK_MUTATION_DB"] = str(folder / "test.sqlite3")
    with log.open("w") as out:
        code = subprocess.run(
            [sys.executable, "-c", BOOT, __file__, part, *mutants],
            cwd=folder,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            check=False,
        ).returncode
    if code:
        print(log.read_text()[-3000:])
    return code


def mutmut_run(part: str, *mutants: str) -> None:
    """In the part's folder: mutmut with the part's settings, on its functions only
    (or on the mutants named: mutmut tests them again, against the tests as they are
    now, and keeps every other result)."""
    from mutmut import configuration
    from mutmut.__main__ import cli

    settings = config(part)
    configuration._config_reader = lambda: lambda key, default: settings.get(key, default)
    configuration.reset_config()
    _mutate_harmless_decorators()
    _time_limit_by_cpu()
    cli(["run", "--max-children", "2", *(mutants or patterns(part))])


def _time_limit_by_cpu() -> None:
    """mutmut ends a mutant at a CPU-time limit (twice ``timeout_multiplier`` times
    what its tests take un-mutated, plus ``timeout_constant``) or at a wall-clock
    limit half as long, whichever comes first. On a machine shared with other work
    the wall clock runs far ahead of the CPU time, and a mutant that only waited for
    its turn would be counted as a loop. Here the wall-clock limit is ten times
    longer: the CPU time decides, and it does not depend on the load."""
    from mutmut.workers import isolation

    register = isolation.register_timeout
    isolation.register_timeout = lambda pid, timeout_s: register(pid, timeout_s * 10)


def _mutate_harmless_decorators() -> None:
    """mutmut leaves every decorated function alone: a decorator may have effects
    when it runs, and mutmut defines each function once per mutant. The services'
    decorators have none: ``transaction.atomic`` and ``functools.wraps`` only wrap.
    Such a function is mutated here; its decorators stay on the function everyone
    calls (mutmut's trampoline), not on the copies the trampoline switches between,
    so each mutant runs in one transaction, as the service does."""
    import libcst as cst
    import libcst.matchers as m
    from mutmut.mutation import file_mutation

    harmless = m.Decorator(
        decorator=m.Attribute(value=m.Name("transaction"), attr=m.Name("atomic"))
        | m.Call(func=m.Name("wraps"))
    )

    def wrapped_only(node) -> bool:
        return (
            isinstance(node, cst.FunctionDef)
            and bool(node.decorators)
            and all(m.matches(decorator, harmless) for decorator in node.decorators)
        )

    skip = file_mutation.MutationVisitor._skip_node_and_children
    arrange = file_mutation.function_trampoline_arrangement

    def skip_unless_wrapped_only(self, node):
        return False if wrapped_only(node) else skip(self, node)

    def arrange_undecorated(function, mutants, class_name):
        if not wrapped_only(function):
            return arrange(function, mutants, class_name)
        plain = function.with_changes(decorators=[])
        declarations, (trampoline, *copies), assignments, names = arrange(
            plain, mutants, class_name
        )
        trampoline = trampoline.with_changes(
            decorators=[*function.decorators, *trampoline.decorators]
        )
        return declarations, [trampoline, *copies], assignments, names

    file_mutation.MutationVisitor._skip_node_and_children = skip_unless_wrapped_only
    file_mutation.function_trampoline_arrangement = arrange_undecorated


# ---------------------------------------------------------------- the report


def results(part: str) -> dict[str, dict[str, int | None]]:
    """Exit code per mutant of the part, per module (path relative to the checkout)."""
    mutated = RESULTS / part / "mutants"
    wanted = patterns(part)
    by_module = {}
    for meta in sorted(mutated.glob("**/*.py.meta")):
        module = meta.relative_to(mutated).as_posix().removesuffix(".meta")
        codes = json.loads(meta.read_text())["exit_code_by_key"]
        if wanted:
            codes = {
                key: code
                for key, code in codes.items()
                if any(fnmatch.fnmatchcase(key, pattern) for pattern in wanted)
            }
        if codes:
            by_module[module] = codes
    return by_module


def listed() -> set[str]:
    """The mutants tests/mutants.md names (in backticks)."""
    return set(re.findall(r"`([\w.ǁ]+__mutmut_\d+)`", LISTED.read_text()))


def fresh_run(part: str, mutant: str, tests: list[str]) -> int:
    """``tests`` in a new process with ``mutant`` switched on before any import
    ("" for none); the exit code, or -1 when the tests did not end in time."""
    try:
        return subprocess.run(
            [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *tests],
            cwd=RESULTS / part / "mutants",
            env={**os.environ, "MUTANT_UNDER_TEST": mutant},
            capture_output=True,
            timeout=FRESH_TIMEOUT,
            check=False,
        ).returncode
    except subprocess.TimeoutExpired:
        return -1


def fresh_tests(part: str, mutant: str) -> list[str]:
    """The tests that run ``mutant`` once more in a fresh process: for the engine
    its tests, for the services those ``fresh`` names for the few functions that
    run at import (a decorator that wraps the views), none for the rest."""
    settings = config(part)
    if part == "engine":
        return settings["pytest_add_cli_args_test_selection"]
    for function, tests in settings.get("fresh", {}).items():
        if any(fnmatch.fnmatchcase(mutant, name) for name in _names([function])):
            return tests
    return []


def change(part: str, module: str, mutant: str) -> str:
    """The lines the mutant changes, from the mutated copy of the module."""
    functions = _functions(part, module)
    short = mutant.rsplit(".", 1)[1]
    original = functions.get(short.rsplit("__mutmut_", 1)[0] + "__mutmut_orig", [])
    diff = difflib.unified_diff(original, functions.get(short, []), lineterm="", n=0)
    changed = [line for line in diff if line[:1] in "+-" and line[:3] not in ("+++", "---")]
    return "\n".join(f"      {line}" for line in changed)


@functools.cache
def _functions(part: str, module: str) -> dict[str, list[str]]:
    """The lines of every function in the mutated module, by name, without the def line."""
    source = (RESULTS / part / "mutants" / module).read_text()
    lines = source.splitlines()
    return {
        node.name: [line.strip() for line in lines[node.lineno : node.end_lineno]]
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.FunctionDef)
    }


def report_part(part: str, accounted: set[str]) -> tuple[Counter, list[tuple[str, str]]]:
    """Prints the part's table; its totals and the survivors not accounted for."""
    by_module = results(part)
    survivors = [
        (module, mutant)
        for module, codes in by_module.items()
        for mutant, code in codes.items()
        if code in LEFT and mutant not in accounted
    ]
    again = [(mutant, fresh_tests(part, mutant)) for _, mutant in survivors]
    again = [(mutant, tests) for mutant, tests in again if tests]
    print(f"Running {len(again)} surviving mutants again in fresh processes …", flush=True)
    caught_fresh = {mutant for mutant, tests in again if fresh_run(part, mutant, tests) != 0}

    print(
        f"\n{'module':34} {'mutants':>8} {'killed':>7} {'timeout':>7} {'listed':>7} "
        f"{'left':>5} {'rate':>7} {'no t/o':>7}"
    )
    totals, open_survivors = Counter(), []
    for module, codes in by_module.items():
        # A mutant listed as equivalent counts as listed, also when it only made
        # the tests slower than the time limit allows; unlisted, a timeout is a kill.
        same = sum(
            mutant in accounted and code not in FAILED and code is not None
            for mutant, code in codes.items()
        )
        timed_out = sum(
            code in TIMED_OUT and mutant not in accounted for mutant, code in codes.items()
        )
        killed = timed_out + sum(
            code in FAILED or mutant in caught_fresh for mutant, code in codes.items()
        )
        unchecked = sum(code is None for code in codes.values())
        left = [
            (module_, mutant)
            for module_, mutant in survivors
            if module_ == module and mutant not in caught_fresh
        ]
        counted = len(codes) - same - unchecked
        note = f"  ({unchecked} not run)" if unchecked else ""
        print(_row(module, len(codes), killed, timed_out, same, len(left), counted) + note)
        totals.update(
            mutants=len(codes), killed=killed, timed_out=timed_out, same=same, counted=counted
        )
        totals["fresh"] += sum(mutant in caught_fresh for mutant in codes)
        open_survivors += left
    print(
        _row(
            part,
            totals["mutants"],
            totals["killed"],
            totals["timed_out"],
            totals["same"],
            len(open_survivors),
            totals["counted"],
        )
    )
    return totals, open_survivors


def _row(name, mutants, killed, timed_out, same, left, counted) -> str:
    rate = killed / counted if counted else 1.0
    strict = (killed - timed_out) / counted if counted else 1.0
    return (
        f"{name:34} {mutants:8} {killed:7} {timed_out:7} {same:7} {left:5} "
        f"{rate:7.1%} {strict:7.1%}"
    )


def report() -> int:
    if not all((RESULTS / part / "mutants").is_dir() for part in PARTS):
        print("No results in mutants/: run `make mutate`.")
        return 1
    if fresh_run("engine", "", fresh_tests("engine", "")) != 0:
        print("The engine's tests fail in mutants/ without any mutant: nothing to measure.")
        return 1
    accounted = listed()
    failed = False
    for part in PARTS:
        print(f"\n== {part} ==", flush=True)
        totals, open_survivors = report_part(part, accounted)
        counted = totals["counted"]
        rate = totals["killed"] / counted if counted else 1.0
        strict = (totals["killed"] - totals["timed_out"]) / counted if counted else 1.0
        print(
            f"\n{part}: killed {rate:.1%} of the {counted} mutants not listed in "
            f"tests/mutants.md, {strict:.1%} without the {totals['timed_out']} ended by "
            f"the time limit ({totals['same']} listed as equivalent, {totals['fresh']} "
            "killed only in a fresh process)."
        )
        if open_survivors:
            print(f"\n{len(open_survivors)} survivors not accounted for in tests/mutants.md:")
            for module, mutant in open_survivors:
                print(f"  {mutant} ({module})\n{change(part, module, mutant)}")
        failed |= bool(open_survivors) or (part == "engine" and rate < TARGET)
    return 1 if failed else 0


def survivors(part: str) -> list[str]:
    """The part's survivors that tests/mutants.md does not list."""
    accounted = listed()
    return [
        mutant
        for codes in results(part).values()
        for mutant, code in codes.items()
        if code in LEFT and mutant not in accounted
    ]


def smoke() -> int:
    """Mutates SMOKE's module afresh against its tests (SMOKE_SHARE of its mutants)
    and prints their rate: exits 1 when the tooling fails (mutmut, the copy of the
    checkout, the results) or when fewer than 95% of them not listed are killed."""
    import shutil
    import time

    start = time.monotonic()
    shutil.rmtree(RESULTS / "smoke", ignore_errors=True)
    if run("smoke"):
        print("mutmut failed: see mutants/smoke.log.")
        return 1
    totals, open_survivors = report_part("smoke", listed())
    counted, killed = totals["counted"], totals["killed"]
    if not totals["mutants"] or not killed:
        print("No mutant was made, or none killed: the tooling is broken.")
        return 1
    for module, mutant in open_survivors:
        print(f"  survivor {mutant} ({module})\n{change('smoke', module, mutant)}")
    rate = killed / counted if counted else 1.0
    print(
        f"\nsmoke ({SMOKE[0]}): killed {rate:.1%} of {counted} mutants not listed in "
        f"tests/mutants.md, in {time.monotonic() - start:.0f} s."
    )
    return 0 if rate >= TARGET else 1


def modules(paths: list[str]) -> list[str]:
    """mutmut's names for every mutant of the modules at ``paths`` (a path ending in
    .py; anything else is taken as mutmut's names, ``scoring.services.x__audit*``)."""
    return [
        path.removesuffix(".py").replace("/", ".") + ".*" if path.endswith(".py") else path
        for path in paths
    ]


def main(argv: list[str]) -> int:
    if argv[:1] == ["run"] and len(argv) >= 2 and argv[1] in PARTS:
        # `run engine seasons/engine/stats.py ...`: those modules (or mutants) only.
        return run(argv[1], modules(argv[2:]), log=f"{argv[1]}.log")
    if argv == ["smoke"]:
        return smoke()
    if argv[:1] == ["retest"] and len(argv) == 2 and argv[1] in PARTS:
        # After new tests: the survivors again, not the whole run.
        return run(argv[1], survivors(argv[1])) if survivors(argv[1]) else 0
    if argv == ["report"]:
        return report()
    print(
        f"usage: python -m tests.mutants run {{{','.join(PARTS)}}} [MODULE ...] "
        f"| retest {{{','.join(PARTS)}}} | report | smoke"
    )
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
