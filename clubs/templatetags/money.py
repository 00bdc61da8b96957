"""``{{ amount|money:club.currency }}``: an amount with its currency and thousands
separators in the reader's language (`web.money.money`); ``money_signed`` puts a
"+" before a gain."""

from django import template

from web.money import money as shown

register = template.Library()


@register.filter
def money(amount, currency):
    return shown(amount, currency)


@register.filter
def money_signed(amount, currency):
    return shown(amount, currency, signed=True)
