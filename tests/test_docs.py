"""The guides stay true to the checkout: no reference leaves the repository, every
module of the apps is named where docs/developers.md says where things are, every
module the import contracts name exists, and the README's links lead somewhere."""

import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DEVELOPERS = ROOT / "docs" / "developers.md"

APPS = ["clubs", "scoring", "tournaments", "seasons", "notices", "demo", "config", "live", "web"]
# Named by the conventions once for every package (docs/developers.md, "Where things are").
SHARED_NAMES = {
    "__init__", "models", "services", "selectors", "tasks", "admin", "apps", "forms",
    "tables", "views", "urls", "schemas", "common",
}  # fmt: skip
SKIPPED_FOLDERS = {
    ".git", ".venv", "node_modules", "mutants", "_build", "staticfiles", "media",
    "__pycache__", ".hypothesis", ".pytest_cache", ".ruff_cache",
}  # fmt: skip
SUFFIXES = {".py", ".toml", ".md", ".html", ".txt", ".cfg", ".ini", ".yaml", ".yml", ".sh", ".js"}
# Built from parts, so that this file does not name them itself.
OUTSIDE = re.compile(
    r"\b(?:" + "|".join(["CONT" + "RACT", "ST" + "YLE", "DES" + "IGN"]) + r")\.md\b"
    r"|\.\./" + "shared" + r"|/work/" + "shared"
)


def checked_files():
    for path in ROOT.rglob("*"):
        parts = set(path.relative_to(ROOT).parts)
        if path.is_file() and not parts & SKIPPED_FOLDERS and path.suffix in SUFFIXES:
            yield path
    yield ROOT / ".ci" / "run"
    yield ROOT / "Makefile"


def test_no_file_names_a_file_outside_the_repository():
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in checked_files()
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1)
        if OUTSIDE.search(line)
    ]
    assert not found, "references to files outside the repository:\n" + "\n".join(found)


def where_things_are() -> dict[str, str]:
    """The rows of docs/developers.md's table of the apps' packages: package → row."""
    text = DEVELOPERS.read_text()
    section = text.split("## Where things are", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in section.splitlines():
        cells = line.split(" | ", 1)
        if line.startswith("| `") and len(cells) == 2:
            for package in re.findall(r"`([a-z_/]+/)`", cells[0]):
                rows[package] = cells[1]
    return rows


def app_modules():
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            relative = path.relative_to(ROOT)
            if {"migrations", "management", "__pycache__"} & set(relative.parts):
                continue
            yield relative


def test_every_module_of_the_apps_is_named_where_things_are():
    rows = where_things_are()
    missing = []
    for module in app_modules():
        package = f"{module.parent.as_posix()}/"
        if package not in rows:
            missing.append(f"{package} (no row)")
        elif module.stem not in SHARED_NAMES and f"`{module.stem}`" not in rows[package]:
            missing.append(module.as_posix())
    assert not missing, "docs/developers.md, 'Where things are', does not name:\n" + "\n".join(
        sorted(set(missing))
    )


def contract_modules() -> set[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    names = set()
    for contract in config["contracts"]:
        for field in ("layers", "source_modules", "modules"):
            for entry in contract.get(field, []):
                names.update(name.strip() for name in entry.split("|"))
    return {name for name in names if "*" not in name}


@pytest.mark.parametrize("module", sorted(contract_modules()))
def test_every_module_the_import_contracts_name_exists_and_is_described(module):
    path = ROOT / module.replace(".", "/")
    assert path.is_dir() or path.with_suffix(".py").is_file()
    assert f"`{module}`" in DEVELOPERS.read_text() or f"`{module.split('.')[-1]}`" in (
        where_things_are().get(f"{'/'.join(module.split('.')[:-1])}/", "")
    )


def test_architecture_points_to_the_developers_guide():
    assert "docs/developers.md" in (ROOT / "ARCHITECTURE.md").read_text()


def test_the_readmes_links_lead_to_files_of_the_checkout():
    links = re.findall(r"\]\((?!https?:|#)([^)#]+)", (ROOT / "README.md").read_text())
    assert links
    assert [link for link in links if not (ROOT / link).exists()] == []


def test_every_picture_the_guides_show_is_one_make_screenshots_takes():
    from tests.browser.pictures import SIZES
    from tests.browser.test_pictures import PAGES

    taken = {f"images/{page}-{size}.png" for page in PAGES for size in SIZES}
    shown = {
        link.removeprefix("docs/")
        for path in [ROOT / "README.md", *(ROOT / "docs").glob("*.md")]
        for link in re.findall(r"!\[[^\]]*\]\(([^)]+)\)", path.read_text())
    }
    assert len(taken) == 10
    assert shown and shown <= taken
    assert all((ROOT / "docs" / picture).is_file() for picture in taken)


#: Read by the settings for the test suite's own runs only.
TEST_ONLY_VARIABLES = {"SQLITE_TEST_PATH", "CELERY_TASK_DEFAULT_QUEUE"}


def test_every_variable_the_settings_read_is_in_the_operators_table():
    settings = (ROOT / "config" / "settings.py").read_text()
    read = set(re.findall(r'(?:environ\.get|env_flag|env_list)\("([A-Z0-9_]+)"', settings))
    table = (ROOT / "docs" / "operators.md").read_text().split("## The variables", 1)[1]
    table = table.split("\n## ", 1)[0]
    assert read - TEST_ONLY_VARIABLES
    assert sorted(name for name in read - TEST_ONLY_VARIABLES if f"`{name}`" not in table) == []


CITATION = re.compile(r"docs/([a-z]+)\.md(?:'s)?,?\s*(?:#:?\s*)?\"([^\"]+)\"")


def test_every_section_the_code_cites_is_a_heading_of_its_guide():
    files = [*checked_files(), ROOT / "docker" / "Dockerfile"]
    cited = {
        (path.relative_to(ROOT).as_posix(), guide, section)
        for path in files
        if path.suffix != ".md" and path.name != "test_docs.py"
        for guide, section in CITATION.findall(path.read_text(errors="replace"))
    }
    assert cited
    headings = {
        guide.stem: {line.lstrip("#").strip() for line in guide.read_text().splitlines()
                     if line.startswith("#")}
        for guide in (ROOT / "docs").glob("*.md")
    }  # fmt: skip
    assert sorted(c for c in cited if c[2] not in headings.get(c[1], set())) == []
