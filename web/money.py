"""Amounts of money, read and shown in the reader's language.

Money is where nothing may be bent: "0,05" typed in German is five cents, never
five; an amount that could be read two ways ("1.234" in German: a thousand and
more, or one and a bit?) is refused with a message instead of guessed. Every amount
typed goes through `parse_amount` (the form field `AmountField`), every amount shown
through `money`, with its currency and thousands separators."""

import re
from decimal import Decimal

from django import forms
from django.core.exceptions import ValidationError
from django.utils.formats import get_format, number_format
from django.utils.translation import gettext, pgettext

#: The currencies a club may keep its accounts in (ISO 4217), each with its sign.
CURRENCIES = {"EUR": "€", "CHF": "CHF", "GBP": "£", "USD": "$", "DKK": "kr.", "SEK": "kr"}
DEFAULT_CURRENCY = "EUR"
#: Spaces a spreadsheet or a phone's keyboard may put between the digits.
_SPACES = re.compile(r"[\s\u00a0\u202f']")


class AmountUnreadable(ValueError):
    """Text that is no amount, or could be read as two; the message says how to write it."""


def parse_amount(text: str) -> Decimal:
    """The amount ``text`` stands for in the active language: its own decimal mark
    (a comma in German), or a point, which every keypad has; thousands grouped by
    the language's separator ("1.234,50" in German, "1,234.50" in English). A point
    followed by three digits in a language that groups thousands with it ("1.234" in
    German) is refused, as is anything else read two ways ("1.234,5" in English,
    "1,2,3")."""
    decimal = get_format("DECIMAL_SEPARATOR")
    thousands = get_format("THOUSAND_SEPARATOR")
    plain = _SPACES.sub("", str(text))
    # Below nought is read as such, so that the field's own limit says what is wrong.
    negative = plain[:1] in ("-", "−")
    plain = plain[1:] if negative else plain
    marks = {decimal, "."}
    one_mark = re.fullmatch(r"(\d*)([.,])(\d+)", plain)
    if re.fullmatch(r"\d+", plain):
        number = plain
    elif one_mark and one_mark[2] in marks:
        whole, mark, part = one_mark.groups()
        if mark == thousands and len(part) == 3:
            raise AmountUnreadable(_ambiguous(plain))
        number = f"{whole or 0}.{part}"
    elif re.fullmatch(_grouped(thousands, decimal), plain):
        number = plain.replace(thousands, "").replace(decimal, ".")
    else:
        raise AmountUnreadable(_ambiguous(plain) if re.fullmatch(r"[\d.,]+", plain) else _unread())
    return -Decimal(number) if negative else Decimal(number)


def _grouped(thousands: str, decimal: str) -> str:
    """An amount with its thousands grouped: "1.234.567,50" in German."""
    return rf"\d{{1,3}}(?:{re.escape(thousands)}\d{{3}})+(?:{re.escape(decimal)}\d+)?"


def money_example() -> str:
    """A small amount as the reader writes it ("0,05" in German): a form's example."""
    return number_format(Decimal("0.05"), 2)


def _unread() -> str:
    return gettext("Give an amount in digits, e.g. %(example)s.") % {"example": money_example()}


def _ambiguous(text: str) -> str:
    return gettext(
        "“%(text)s” can be read as more than one amount: write it like %(example)s or %(larger)s."
    ) % {
        "text": text,
        "example": money_example(),
        "larger": number_format(Decimal("1234.50"), 2, force_grouping=True),
    }


def currency_sign(currency: str) -> str:
    return CURRENCIES.get(currency, currency)


def money(amount, currency: str = DEFAULT_CURRENCY, *, signed: bool = False) -> str:
    """``amount`` with two decimals, thousands grouped and the currency's sign in the
    reader's language ("+2.525,00 €" in German, "+€2,525.00" in English); ``signed``
    puts a "+" before a gain. None: a dash."""
    if amount is None:
        return "–"
    amount = Decimal(amount)
    number = number_format(abs(amount), 2, force_grouping=True)
    sign = currency_sign(currency)
    if sign[:1].isalpha():
        # Translators: an amount with a currency of letters ("CHF 5.00"), spaced.
        pattern = pgettext("amount of money", "%(currency)s %(amount)s")
    else:
        # Translators: an amount with its currency's symbol ("€5.00"); German: "5,00 €".
        pattern = pgettext("amount of money", "%(currency)s%(amount)s")
    # The sign and the number stay on one line.
    shown = pattern.replace(" ", "\u00a0") % {"currency": sign, "amount": number}
    if amount < 0:
        return "−" + shown
    return "+" + shown if signed and amount > 0 else shown


class AmountInput(forms.TextInput):
    """A text box, not ``type=number``: Chromium in German drops a typed comma from a
    number box ("0,05" arrived as 5). ``inputmode`` still brings the phone's keypad."""

    def __init__(self, attrs=None):
        super().__init__({"inputmode": "decimal", "autocomplete": "off", **(attrs or {})})


class AmountField(forms.DecimalField):
    """An amount typed in the reader's language (`parse_amount`), shown back in it."""

    widget = AmountInput

    def widget_attrs(self, widget):
        # DecimalField would add step/min/max, which only a number box reads.
        return forms.Field.widget_attrs(self, widget)

    def to_python(self, value):
        if value in self.empty_values or str(value).strip() == "":
            return None
        if isinstance(value, Decimal):
            return value
        try:
            return parse_amount(value)
        except AmountUnreadable as error:
            raise ValidationError(str(error), code="invalid") from None

    def prepare_value(self, value):
        if isinstance(value, Decimal):
            return number_format(value, self.decimal_places or 2)
        return value
