from django import template

from tournaments.public import slides

register = template.Library()


@register.filter
def pairing_rows(round):
    """A round's pairings at tables of two, its rows written at once (`slides`)."""
    return slides.pairing_rows(round)
