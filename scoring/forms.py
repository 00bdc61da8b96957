from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.models import Hand
from scoring.services import Result


class QuickEntryForm(forms.Form):
    """Who ended the hand and how, and the deadwood counts after lay-offs."""

    number = forms.IntegerField(min_value=1, widget=forms.HiddenInput)
    key = forms.CharField(max_length=64, required=False, widget=forms.HiddenInput)
    ending = forms.ChoiceField(choices=Hand.Ending.choices, widget=forms.RadioSelect)
    knocker = forms.IntegerField(required=False, min_value=0)
    knocker_deadwood = forms.IntegerField(
        label=_("Knocker's deadwood"), required=False, min_value=0, max_value=10
    )
    defender_deadwood = forms.IntegerField(
        label=_("Opponent's deadwood (after laying off)"),
        required=False,
        min_value=0,
        max_value=110,
    )

    def clean(self):
        data = super().clean()
        ending = data.get("ending")
        if ending and ending != Hand.Ending.NO_GAME:
            if data.get("knocker") is None:
                raise forms.ValidationError(_("Tap who knocked (or went gin)."))
            if data.get("defender_deadwood") is None:
                raise forms.ValidationError(_("Enter the opponent's deadwood."))
            if ending == Hand.Ending.KNOCK and data.get("knocker_deadwood") is None:
                raise forms.ValidationError(_("Enter the knocker's deadwood."))
        return data

    def service_arguments(self) -> dict:
        return {"result": self.result()}

    def result(self) -> Result:
        data = self.cleaned_data
        if data["ending"] == Hand.Ending.NO_GAME:
            return Result(Hand.Ending.NO_GAME)
        gin = data["ending"] != Hand.Ending.KNOCK
        return Result(
            data["ending"],
            knocker=data["knocker"],
            knocker_deadwood=0 if gin else data["knocker_deadwood"],
            defender_deadwood=data["defender_deadwood"],
        )


class ConfirmForm(forms.Form):
    number = forms.IntegerField(min_value=1)
    key = forms.CharField(max_length=64, required=False)

    def service_arguments(self) -> dict:
        return {}
