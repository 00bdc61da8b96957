"""The English wording speaks of players, organizers, members and guests without
"he", "his" or "him" (nor "she" or "her"): the templates and every English message
of the catalogue, which holds the messages of the code as well."""

import re

from tests.test_translations import LOCALE, read_po

TEMPLATES = LOCALE.parent / "templates"
GENDERED = re.compile(r"\b(?:he|his|him|himself|she|her|hers|herself)\b", re.IGNORECASE)

# Lines that may keep such a word because no reader sees them, each with the reason:
# (template, relative to the project; the line, stripped).
EXCEPTIONS = {
    (
        "templates/tournaments/_bracket.html",
        "no-show (or, for a player who withdrew, his reinstatement). Names as the reader",
    ): "inside a {% comment %}: a note for whoever edits the template, not rendered",
}


def template_lines():
    """(template, line) for every line of every template."""
    for path in sorted(TEMPLATES.rglob("*")):
        if path.is_file():
            name = str(path.relative_to(LOCALE.parent))
            for line in path.read_text(encoding="utf-8").splitlines():
                yield name, line.strip()


def test_the_templates_do_not_say_he_of_a_person():
    lines = list(template_lines())
    assert len(lines) > 500
    found = [
        f"{name}: {line}"
        for name, line in lines
        if GENDERED.search(line) and (name, line) not in EXCEPTIONS
    ]
    assert found == []
    # An exception whose line is gone is dropped from the list, not kept.
    assert set(EXCEPTIONS) <= set(lines)


def test_the_english_messages_do_not_say_he_of_a_person():
    entries = read_po(LOCALE / "de/LC_MESSAGES/django.po")
    assert len(entries) > 300
    found = [
        text
        for entry in entries
        for text in (entry["msgid"], entry["plural"] or "")
        if GENDERED.search(text)
    ]
    assert found == []


def test_the_check_finds_the_words_and_only_the_words():
    for text in ("He may not lay off.", "on his phone", "tick him", "each for himself"):
        assert GENDERED.search(text), text
    for text in ("the other players", "their own phone", "then", "the theme", "shed", "where"):
        assert not GENDERED.search(text), text
