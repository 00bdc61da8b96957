"""Cards as players read them: ``TH`` becomes 10♥, in red."""

from django import template
from django.utils.html import format_html, format_html_join

from scoring import labels
from scoring.labels import SYMBOLS

register = template.Library()


@register.filter
def card(code: str) -> str:
    rank, suit = code[:-1], code[-1:]
    colour = "red" if suit in "DH" else "black"
    return format_html(
        '<span class="c {}">{}{}</span>',
        colour,
        "10" if rank == "T" else rank,
        SYMBOLS.get(suit, suit),
    )


register.filter("ruleset", labels.ruleset_label)
register.filter("ending", labels.ending_label)
register.filter("party_title", labels.party_title)


@register.filter
def cards(codes) -> str:
    return format_html_join(" ", "{}", ((card(code),) for code in codes or ()))
