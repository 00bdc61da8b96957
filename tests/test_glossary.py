"""One concept, one German word: every German message uses the words of the glossary
(docs/glossary.md) and none of the words it rejects."""

import re
from pathlib import Path

import pytest

from tests.test_translations import LOCALE, read_po

GLOSSARY = Path(__file__).resolve().parent.parent / "docs" / "glossary.md"


def glossary_rows():
    """(English, the German words, the rejected words) for each row of the glossary's table."""
    rows = []
    for line in GLOSSARY.read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 3 or cells[0] in ("English", "---"):
            continue
        german = [word.strip() for word in cells[1].split(",") if word.strip()]
        rejected = [word.strip() for word in cells[2].split(",") if word.strip()]
        rows.append((cells[0], german, rejected))
    return rows


def german_messages():
    messages = []
    for entry in read_po(LOCALE / "de" / "LC_MESSAGES" / "django.po"):
        messages += [text for text in entry["msgstr"].values() if text]
    return messages


def test_the_glossary_has_its_terms():
    terms = [english for english, _german, _rejected in glossary_rows()]
    for term in ("deadwood", "undercut", "natural canasta", "mixed canasta", "Chinchón"):
        assert any(english.startswith(term) for english in terms), term


@pytest.mark.parametrize("english, german, rejected", glossary_rows(), ids=lambda v: str(v))
def test_no_german_message_uses_a_rejected_word(english, german, rejected):
    messages = german_messages()
    for word in rejected:
        # A whole word (its endings too: "Unterbietungen"), as the reader sees it.
        pattern = re.compile(rf"(?<![\w-]){re.escape(word)}(?:e|en|s|n)?(?![\w-])")
        found = [text for text in messages if pattern.search(text)]
        assert not found, f"{english}: {word!r} instead of {german}: {found[:3]}"


@pytest.mark.parametrize("english, german, rejected", glossary_rows(), ids=lambda v: str(v))
def test_each_german_word_of_the_glossary_is_used(english, german, rejected):
    messages = german_messages()
    assert any(word in text for word in german for text in messages), english
