"""What any text a client sends may hold, checked the same way by the forms and the
API's schemas: one rule, two ways of saying no (a form error, a 422).

A NUL byte makes PostgreSQL refuse the whole statement, and other control characters
are invisible on every page that would show them; a lone surrogate cannot even be
stored. None of them belongs in a name, a reason, a card or a key, so they are
refused with a message, before anything is looked up or written. Tabs and line
breaks stay: a reason may run over several lines."""

import re
import unicodedata
from typing import Annotated

from django import forms
from django.core.exceptions import ValidationError
from django.core.validators import RegexValidator
from django.utils.translation import gettext, gettext_lazy
from pydantic import AfterValidator, Field, StringConstraints
from pydantic_core import PydanticCustomError

_CONTROL = r"\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f"
_UNPRINTABLE = re.compile(f"[{_CONTROL}\\ud800-\\udfff]")
#: The same rule as the OpenAPI document states it (the server's own check is
#: `unprintable`, which words the refusal): no control character anywhere... A lone
#: surrogate is no Unicode text, so the document's pattern need not name it (nor can
#: it: the validators' regex engines refuse it).
PRINTABLE_PATTERN = f"^[^{_CONTROL}]*$"
#: ...and, for a text that may not be blank, at least one visible character.
FILLED_PATTERN = f"^[^{_CONTROL}]*[^\\s{_CONTROL}][^{_CONTROL}]*$"

#: An idempotency key: what a client may name a submission by, stored with its seat.
KEY_PATTERN = r"^[A-Za-z0-9_.:-]{1,64}$"
KEY_MAX_LENGTH = 64


def unprintable(text: str) -> str | None:
    """The first character of ``text`` that no text field takes, or None."""
    found = _UNPRINTABLE.search(text)
    return found.group() if found else None


#: What a page draws as nothing: spaces, format characters (the right-to-left
#: override U+202E, zero-width spaces and joiners), marks with nothing to sit on,
#: characters not assigned, and the letters drawn blank (the Hangul fillers, the
#: empty Braille pattern).
_SHOWS_NOTHING = {"Zs", "Zl", "Zp", "Cc", "Cf", "Cs", "Co", "Cn", "Mn", "Me"}
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u180e")


def invisible(text: str) -> bool:
    """Whether a text shows nothing at all though it is not blank: a name of
    U+202E alone would be an empty line on every page and sheet. (A text of spaces
    only is left to the check for a blank one, in the words of its field.)"""
    return bool(text.strip()) and all(
        c.isspace() or c in _BLANK_LETTERS or unicodedata.category(c) in _SHOWS_NOTHING
        for c in text
    )


def _invisible_message() -> str:
    return gettext("This text shows nothing: type at least one letter, digit or sign.")


def _message(character: str) -> str:
    return gettext(
        "This text holds an invisible control character (U+%(code)04X): type it again without it."
    ) % {"code": ord(character)}


# --- Django forms ------------------------------------------------------------------


def validate_printable(value) -> None:
    """A form field's validator: no control character, and not nothing but
    invisible ones."""
    if isinstance(value, str) and (character := unprintable(value)):
        raise ValidationError(_message(character), code="control_character")
    if isinstance(value, str) and invisible(value):
        raise ValidationError(_invisible_message(), code="invisible")


class PrintableForm(forms.Form):
    """A form whose every text field refuses control characters."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            if isinstance(field, forms.CharField):
                field.validators.append(validate_printable)


key_validator = RegexValidator(
    KEY_PATTERN,
    gettext_lazy("This submission's key is not valid: reload the page and enter the hand again."),
    code="invalid_key",
)


# --- pydantic (the API's schemas) ---------------------------------------------------


def _printable(value: str) -> str:
    if character := unprintable(value):
        # A custom error keeps the sentence as it is (pydantic would prefix it).
        raise PydanticCustomError("control_character", _message(character))
    if invisible(value):
        raise PydanticCustomError("invisible", _invisible_message())
    return value


#: A string without control characters, for every text field of a schema. The
#: document says so with a pattern; the validator refuses in the person's words.
Text = Annotated[
    str, AfterValidator(_printable), Field(json_schema_extra={"pattern": PRINTABLE_PATTERN})
]

#: The same, for a text the server refuses when blank (stripped of its spaces): the
#: document asks for a visible character; the check and its message stay the server's.
FilledText = Annotated[
    str, AfterValidator(_printable), Field(json_schema_extra={"pattern": FILLED_PATTERN})
]

#: An idempotency key as the API takes it (the pattern leaves no control character).
KeyText = Annotated[
    str, StringConstraints(min_length=1, max_length=KEY_MAX_LENGTH, pattern=KEY_PATTERN)
]
