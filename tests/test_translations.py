"""The German catalogue is complete, and the compiled .mo matches the .po."""

import ast
import gettext
import shutil
from pathlib import Path

import pytest
from django.core.management import call_command

LOCALE = Path(__file__).resolve().parent.parent / "locale"


def read_po(path):
    """(msgctxt, msgid, msgid_plural, msgstrs, flags) for each entry of a .po file."""
    entries, entry, field = [], None, None
    for line in [*path.read_text(encoding="utf-8").splitlines(), ""]:
        if not line.strip():
            if entry and entry["msgid"]:
                entries.append(entry)
            entry, field = None, None
            continue
        entry = entry or {"msgid": "", "plural": None, "msgstr": {}, "flags": "", "context": None}
        if line.startswith("#,"):
            entry["flags"] += line[2:]
        elif line.startswith("#"):
            continue
        elif line.startswith('"'):
            text = ast.literal_eval(line)
            if field[0] == "msgstr":
                entry["msgstr"][field[1]] += text
            else:
                entry[field[0]] += text
        else:
            keyword, text = line.split(" ", 1)
            text = ast.literal_eval(text)
            if keyword == "msgctxt":
                field = ("context",)
                entry["context"] = text
            elif keyword == "msgid":
                field = ("msgid",)
                entry["msgid"] = text
            elif keyword == "msgid_plural":
                field = ("plural",)
                entry["plural"] = text
            else:
                index = int(keyword[7:-1]) if "[" in keyword else 0
                field = ("msgstr", index)
                entry["msgstr"][index] = text
    return entries


def test_every_german_message_is_translated():
    entries = read_po(LOCALE / "de/LC_MESSAGES/django.po")
    assert len(entries) > 30
    untranslated = [e["msgid"] for e in entries if not all(e["msgstr"].values())]
    fuzzy = [e["msgid"] for e in entries if "fuzzy" in e["flags"]]
    assert untranslated == []
    assert fuzzy == []


def test_compiled_catalogue_matches_the_po_file():
    with open(LOCALE / "de/LC_MESSAGES/django.mo", "rb") as compiled:
        catalogue = gettext.GNUTranslations(compiled)
    for entry in read_po(LOCALE / "de/LC_MESSAGES/django.po"):
        if entry["context"]:
            translated = catalogue.pgettext(entry["context"], entry["msgid"])
            assert translated == entry["msgstr"][0], entry["msgid"]
        elif entry["plural"]:
            assert catalogue.ngettext(entry["msgid"], entry["plural"], 1) == entry["msgstr"][0]
        else:
            assert catalogue.gettext(entry["msgid"]) == entry["msgstr"][0], entry["msgid"]


@pytest.mark.skipif(not shutil.which("xgettext"), reason="needs GNU gettext's xgettext")
def test_the_catalogue_holds_every_message_of_the_code_and_templates(
    tmp_path, settings, monkeypatch
):
    # makemessages writes beside the sources it reads, so it reads a copy of them.
    for folder in ("clubs", "scoring", "tournaments", "seasons", "notices", "config", "templates"):
        shutil.copytree(
            LOCALE.parent / folder, tmp_path / folder, ignore=shutil.ignore_patterns("__pycache__")
        )
    settings.LOCALE_PATHS = [tmp_path / "locale"]
    monkeypatch.chdir(tmp_path)
    call_command("makemessages", locale=["de"], no_location=True, verbosity=0)
    fresh = read_po(tmp_path / "locale/de/LC_MESSAGES/django.po")
    ours = read_po(LOCALE / "de/LC_MESSAGES/django.po")
    missing = {(e["context"], e["msgid"]) for e in fresh} - {
        (e["context"], e["msgid"]) for e in ours
    }
    assert len(fresh) > 300
    assert missing == set()
