"""Amounts typed and shown in the reader's language: "0,05" in German is five cents,
an amount that reads two ways is refused, and every amount is shown with its
currency and thousands separators."""

from decimal import Decimal

import pytest
from django.utils import translation

from web.money import AmountField, AmountUnreadable, money, parse_amount


@pytest.mark.parametrize(
    "language, text, amount",
    [
        ("de", "0,05", "0.05"),
        ("de", "0.05", "0.05"),
        ("de", ",5", "0.5"),
        ("de", "1234,5", "1234.5"),
        ("de", "1.234,50", "1234.50"),
        ("de", " 2 ", "2"),
        ("de", "1 234,50", "1234.50"),
        ("en", "0.05", "0.05"),
        ("en", "1,234.50", "1234.50"),
        ("en", "1234.5", "1234.5"),
        ("en", "-1", "-1"),
    ],
)
def test_an_amount_is_read_in_the_readers_language(language, text, amount):
    with translation.override(language):
        assert parse_amount(text) == Decimal(amount)


@pytest.mark.parametrize(
    "language, text",
    [
        ("en", "1.234,5"),
        ("en", "0,05"),
        ("de", "1.234"),  # a thousand and more, or one and a bit?
        ("de", "1,2,3"),
        ("en", "1,2,3"),
        ("de", "1,234.5"),
        ("de", "5 €"),
        ("en", "abc"),
        ("en", "--1"),
    ],
)
def test_an_amount_that_reads_two_ways_or_none_is_refused(language, text):
    with translation.override(language), pytest.raises(AmountUnreadable):
        parse_amount(text)


def test_the_refusal_shows_how_to_write_it_in_german():
    with translation.override("de"), pytest.raises(AmountUnreadable) as refusal:
        parse_amount("1.234")
    assert "0,05" in str(refusal.value) and "1.234,50" in str(refusal.value)


@pytest.mark.parametrize(
    "language, amount, currency, signed, shown",
    [
        ("de", "0.05", "EUR", False, "0,05\u00a0€"),
        ("de", "2525", "EUR", True, "+2.525,00\u00a0€"),
        ("de", "-20.2", "EUR", False, "−20,20\u00a0€"),
        ("en", "2525", "EUR", True, "+€2,525.00"),
        ("en", "0.05", "CHF", False, "CHF\u00a00.05"),
        ("de", "1234567.5", "CHF", False, "1.234.567,50\u00a0CHF"),
    ],
)
def test_an_amount_is_shown_with_its_currency_and_thousands(
    language, amount, currency, signed, shown
):
    with translation.override(language):
        assert money(Decimal(amount), currency, signed=signed) == shown


def test_the_amount_field_is_a_text_box_for_the_decimal_keypad():
    field = AmountField(decimal_places=2, max_digits=7)
    html = field.widget.render("stake", "0.05", attrs=field.widget_attrs(field.widget))
    assert 'type="text"' in html and 'inputmode="decimal"' in html
    assert "step" not in html
    with translation.override("de"):
        assert field.prepare_value(Decimal("0.05")) == "0,05"
        assert field.clean("0,05") == Decimal("0.05")
