"""The seasons' forms, shared by the organizer's pages: they only validate."""

import re

from django import forms
from django.utils.translation import gettext_lazy as _

from seasons.models import ALL_GAMES, Season
from web.validators import PrintableForm

#: Whole numbers one separator apart: "10-8-6", "10, 8, 6", "10 8 6". ASCII digits
#: only ("²" and other digits pass isdigit() but not int()); no sign, so "-1" and
#: "10--8" are no list of points (a minus there is a typing slip, not a separator).
POINTS = re.compile(r"[0-9]+(?:\s*[,;/-]\s*[0-9]+|\s+[0-9]+)*")
#: The most points a place may give: far above any club's, far below a number that
#: would overflow the season's sums.
MOST_POINTS = 9999


class PointsField(forms.CharField):
    """Points by place as clubs write them: "10-8-6-5-4-3-2-1" (or with commas)."""

    def to_python(self, value):
        text = super().to_python(value).strip()
        if not text:
            return []
        if not POINTS.fullmatch(text):
            raise forms.ValidationError(
                _("Write the points for each place as whole numbers, e.g. 10-8-6-5-4-3-2-1.")
            )
        parts = re.findall(r"[0-9]+", text)
        if any(len(p) > len(str(MOST_POINTS)) or int(p) > MOST_POINTS for p in parts):
            raise forms.ValidationError(
                _("A place gives at most %(most)s points.") % {"most": MOST_POINTS}
            )
        return [int(p) for p in parts]


class SchemeForm(PrintableForm):
    scheme = forms.ChoiceField(label=_("Scoring"), choices=Season.Scheme.choices)
    place_points = PointsField(
        label=_("Points by place"),
        required=False,
        max_length=200,
        help_text=_("For points by place: 1st, 2nd, 3rd … e.g. 10-8-6-5-4-3-2-1."),
    )
    best_of = forms.IntegerField(
        label=_("Best events that count"),
        required=False,
        min_value=1,
        max_value=999,
        help_text=_("Only a player's best N events count; empty: all of them."),
    )
    minimum_events = forms.IntegerField(
        label=_("Events needed to be ranked"), required=False, min_value=0, max_value=999
    )

    def clean(self):
        data = super().clean()
        if data.get("scheme") == Season.Scheme.PLACES and not data.get("place_points"):
            self.add_error("place_points", _("Give the points for at least the first place."))
        data["minimum_events"] = data.get("minimum_events") or 0
        return data


class SeasonForm(SchemeForm):
    name = forms.CharField(label=_("Name"), max_length=120)
    starts = forms.DateField(label=_("From"), widget=forms.DateInput(attrs={"type": "date"}))
    ends = forms.DateField(label=_("To"), widget=forms.DateInput(attrs={"type": "date"}))
    counts = forms.ChoiceField(label=_("Events that count"), choices=Season.Counts.choices)
    game = forms.ChoiceField(
        label=_("Game"),
        choices=Season._meta.get_field("game").choices,
        required=False,
        help_text=_(
            "All games: only points by place count, since plus/minus points of "
            "different games do not add up."
        ),
    )
    published = forms.BooleanField(label=_("Public (page, CSV and API)"), required=False)

    field_order = [
        "name",
        "starts",
        "ends",
        "game",
        "counts",
        "scheme",
        "place_points",
        "best_of",
        "minimum_events",
        "published",
    ]

    def __init__(self, *args, game: str, **kwargs):
        """``game``: what the season counts unless the organizer chooses another
        (a new season: the game the club plays most; a season: its own)."""
        super().__init__(*args, **kwargs)
        self.game = game
        self.fields["game"].initial = game

    def clean(self):
        data = super().clean()
        if data.get("starts") and data.get("ends") and data["ends"] < data["starts"]:
            self.add_error("ends", _("The season cannot end before it starts."))
        data["game"] = data.get("game") or self.game
        if data.get("game") == ALL_GAMES and data.get("scheme") == Season.Scheme.PLUS_MINUS:
            self.add_error("scheme", _("A season of all games is scored by points by place."))
        return data

    @classmethod
    def for_season(cls, season: Season, data=None) -> "SeasonForm":
        initial = {
            "name": season.name,
            "starts": season.starts,
            "ends": season.ends,
            "counts": season.counts,
            "game": season.game,
            "scheme": season.scheme,
            "place_points": "-".join(map(str, season.place_points or [])),
            "best_of": season.best_of,
            "minimum_events": season.minimum_events,
            "published": season.published,
        }
        return cls(data, initial=initial, game=season.game)


class ReopenForm(PrintableForm):
    reason = forms.CharField(label=_("Reason"), max_length=500)


class MergeForm(PrintableForm):
    """The member a guest became: his parties and rating come along."""

    member = forms.ModelChoiceField(label=_("Member the guest became"), queryset=None)

    def __init__(self, *args, members=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["member"].queryset = members


class EraseForm(PrintableForm):
    """The erasure's confirmation: the organizer types the player's name, so that a
    slip of the finger on the wrong player's page erases nobody."""

    name = forms.CharField(
        label=_("The player's name, to confirm"),
        max_length=120,
        help_text=_("Type the name exactly as it is shown above."),
    )

    def __init__(self, *args, name: str, **kwargs):
        super().__init__(*args, **kwargs)
        self.expected = name

    def clean_name(self):
        typed = " ".join(self.cleaned_data["name"].split())
        if typed.casefold() != " ".join(self.expected.split()).casefold():
            raise forms.ValidationError(_("That is not the player's name: nothing was erased."))
        return typed
