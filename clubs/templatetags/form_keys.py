"""``{% form_key %}``: the hidden one-time key of an organizer's create form
(`clubs.submissions`), a new one each time the form is shown."""

from django import template
from django.utils.html import format_html

from clubs.submissions import FIELD, new_key

register = template.Library()


@register.simple_tag
def form_key():
    return format_html('<input type="hidden" name="{}" value="{}">', FIELD, new_key())
