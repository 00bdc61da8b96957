"""The forms that enter a hand, shared by the table's pages and the organizer's
decision. They only validate: the services write."""

import re

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring import entries, errors
from scoring.engine.cards import InvalidCard, parse_card
from scoring.models import Hand
from scoring.selectors import RULINGS
from scoring.services import knocks
from scoring.services.knocks import Result
from web.validators import KEY_MAX_LENGTH, PrintableForm, key_validator

# Melds are written "2H 3H 4H | 7C 7D 7S": a bar, semicolon or new line between melds.
_MELD_BREAK = re.compile(r"[|;\n]")
_CARD_BREAK = re.compile(r"[\s,]+")
COUNTS = ("ending", "knocker", "knocker_deadwood", "defender_deadwood")


def key_field():
    return forms.CharField(
        max_length=KEY_MAX_LENGTH,
        required=False,
        validators=[key_validator],
        widget=forms.HiddenInput,
    )


def version_field(*, required: bool):
    return forms.IntegerField(
        min_value=1,
        max_value=2_147_483_647,
        required=required,
        widget=forms.HiddenInput,
        error_messages={"required": _("This page is old: look at the entry again and confirm it.")},
    )


class HandEntryForm(PrintableForm):
    """What every entry of a hand carries: its number, the idempotency key, the
    up-card (Oklahoma) and the director's rulings of seed 000 § 14. ``version``
    is the other side's entry the page showed, when there was one."""

    number = forms.IntegerField(min_value=1, widget=forms.HiddenInput)
    key = key_field()
    version = version_field(required=False)
    up_card = forms.CharField(label=_("Up-card"), max_length=8, required=False)
    illegal_knock_accepted = forms.BooleanField(
        label=_("The defender accepted a knock over the limit (§ 14.7, § 14.8)"), required=False
    )
    knocker_missing_cards = forms.IntegerField(
        label=_("Cards the knocker is short (§ 14.11)"), required=False, min_value=0, max_value=9
    )
    defender_missing_cards = forms.IntegerField(
        label=_("Cards the defender is short (§ 14.12)"), required=False, min_value=0, max_value=9
    )
    defender_too_many_cards = forms.BooleanField(
        label=_("The defender has too many cards (§ 14.13)"), required=False
    )

    def clean_up_card(self):
        text = self.cleaned_data["up_card"].strip()
        return _card(text) if text else None

    def clean(self):
        data = super().clean()
        if data.get("defender_missing_cards") and data.get("defender_too_many_cards"):
            raise forms.ValidationError(
                _("The defender cannot be short of cards and have too many at once.")
            )
        return data

    def rulings(self) -> dict:
        """The rulings that apply, named as in `RULINGS`; none by default."""
        return {name: self.cleaned_data[name] for name in RULINGS if self.cleaned_data.get(name)}

    def service_arguments(self) -> dict:
        return {"entry": self.result(), "version": self.cleaned_data.get("version")}

    def result(self) -> Result:
        raise NotImplementedError


class QuickEntryForm(HandEntryForm):
    """Who ended the hand and how, and the deadwood counts after lay-offs."""

    ending = forms.ChoiceField(
        label=_("How did it end?"), choices=Hand.Ending.choices, widget=forms.RadioSelect
    )
    knocker = forms.IntegerField(required=False, min_value=0)
    # Above the knock limit only with a ruling (§ 14.7, § 14.8), and never above what
    # the cards hold: the engine decides, with a message that says so.
    knocker_deadwood = forms.IntegerField(
        label=_("Knocker's deadwood"), required=False, min_value=0, max_value=999
    )
    defender_deadwood = forms.IntegerField(
        label=_("Opponent's deadwood (after laying off)"),
        required=False,
        min_value=0,
        max_value=999,
    )

    def clean(self):
        data = super().clean()
        if not data.get("ending"):
            return data
        # The page shows every field whatever the ending: those that do not apply
        # to it are left out, the rest is checked as the API checks it.
        counts = self.counts()
        problem = entries.counts_problem(**counts, rulings=self.rulings())
        if problem:
            raise forms.ValidationError(problem)
        return data

    def counts(self) -> dict:
        data = self.cleaned_data
        ending = data.get("ending")
        if ending == Hand.Ending.NO_GAME:
            return dict.fromkeys(COUNTS) | {"ending": ending}
        # Gin keeps the knocker's deadwood as typed: `entries.counts_problem` refuses
        # gin with deadwood rather than storing it as 0.
        return {name: data.get(name) for name in COUNTS}

    def result(self) -> Result:
        return entries.result_from_counts(
            **self.counts(), up_card=self.cleaned_data.get("up_card"), rulings=self.rulings()
        )


class CardsEntryForm(HandEntryForm):
    """The cards both players show, as text ("AS 2S 3S …"): the card picker fills
    these fields, and without JavaScript they are typed. The rules engine works out
    the ending and the deadwood; validation includes it, so every mistake in the
    cards is a message on the form."""

    knocker = forms.IntegerField(min_value=0, error_messages={"required": _("Tap who knocked.")})
    knocker_cards = forms.CharField(label=_("Knocker's cards"), max_length=200)
    defender_cards = forms.CharField(label=_("Defender's cards"), max_length=200)
    melds = forms.CharField(label=_("The knocker's melds"), max_length=300, required=False)

    def __init__(self, *args, rules, **kwargs):
        super().__init__(*args, **kwargs)
        self.rules = rules
        if rules.oklahoma:
            self.fields["up_card"].required = True
            self.fields["up_card"].error_messages["required"] = _(
                "Tap the up-card too: under Oklahoma it sets the knock limit."
            )

    def clean_knocker_cards(self):
        return _cards(self.cleaned_data["knocker_cards"])

    def clean_defender_cards(self):
        return _cards(self.cleaned_data["defender_cards"])

    def clean_melds(self):
        groups = [_cards(text) for text in _MELD_BREAK.split(self.cleaned_data["melds"])]
        groups = [group for group in groups if group]
        return groups or None

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        try:
            self._result = knocks.result_from_cards(
                self.rules,
                knocker=data["knocker"],
                knocker_cards=data["knocker_cards"],
                defender_cards=data["defender_cards"],
                up_card=data.get("up_card"),
                melds=data.get("melds"),
                rulings=self.rulings(),
            )
        except ValueError as error:
            raise forms.ValidationError(errors.explain(error)) from error
        return data

    def result(self) -> Result:
        return self._result


def _card(text: str):
    try:
        return parse_card(text)
    except InvalidCard:
        raise forms.ValidationError(
            _("%(text)s is not a card: write e.g. AS, 10H or QD."), params={"text": text}
        ) from None


def _cards(text: str) -> tuple:
    cards = tuple(_card(item) for item in _CARD_BREAK.split(text) if item)
    seen = set()
    for card in cards:
        if card in seen:
            raise forms.ValidationError(_("%(card)s is tapped twice."), params={"card": card})
        seen.add(card)
    return cards


class ConfirmForm(PrintableForm):
    """A confirmation names the entry it approves: the version the page showed."""

    number = forms.IntegerField(min_value=1)
    key = key_field()
    version = version_field(required=True)

    def service_arguments(self) -> dict:
        return {"version": self.cleaned_data["version"]}


def first_error(form) -> str:
    """The form's first error, as one line a player reads: its field's label first."""
    for field, errors_ in form.errors.items():
        label = form.fields[field].label if field in form.fields else ""
        return f"{label}: {errors_[0]}" if label else errors_[0]
    return ""
