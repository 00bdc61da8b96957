"""The organizer's forms for club nights. They only validate: the services write."""

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scoring.engine.rules import RULESETS
from scoring.labels import ruleset_label
from scoring.models import Party

# How many play each format; party_start enforces the counts, the labels tell them.
FORMAT_LABELS = {
    Party.Format.TWO: _("Two players"),
    Party.Format.ROTATION: _("Three players in rotation"),
    Party.Format.CHOUETTE: _("Chouette, 3 to 6 players"),
    Party.Format.PARTNERS: _("Partnerships, 4 or 6 players"),
}


class NightForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    date = forms.DateField(
        label=_("Date"),
        initial=timezone.localdate,
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )
    ruleset = forms.ChoiceField(
        label=_("Rules"),
        choices=[(key, ruleset_label(key)) for key in RULESETS],
        initial="classic",
    )
    confirmation_required = forms.BooleanField(
        label=_("The opponent confirms each hand"),
        required=False,
        initial=True,
        help_text=_("A hand entered at one seat counts once the other side confirms it."),
    )


class PartyStartForm(forms.Form):
    format = forms.ChoiceField(
        label=_("Format"),
        choices=list(FORMAT_LABELS.items()),
        initial=Party.Format.TWO,
        widget=forms.RadioSelect,
    )
    players = forms.ModelMultipleChoiceField(
        label=_("Players"),
        queryset=None,
        widget=forms.CheckboxSelectMultiple,
        error_messages={"required": _("Tick the players who sit down at this party.")},
    )
    label = forms.CharField(
        label=_("Label (optional)"),
        max_length=120,
        required=False,
        help_text=_("For example the table number."),
    )

    def __init__(self, *args, players, **kwargs):
        """``players``: the club's members, the only ones who may take a seat."""
        super().__init__(*args, **kwargs)
        self.fields["players"].queryset = players
