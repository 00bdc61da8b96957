"""The organizer's tournament forms. They only validate: the services write."""

from django import forms
from django.conf import settings
from django.template.defaultfilters import filesizeformat
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring.engine.rules import RULESETS
from scoring.labels import RULESET_LABELS
from scoring.models import game_choices
from scoring.option_fields import (
    add_option_fields,
    all_option_names,
    option_groups,
    option_names,
    options_of,
)
from tournaments.archive.refusals import ArchiveError, archive_loads
from tournaments.engine.formats import DEFAULT_FORMAT
from tournaments.models import DEFAULT_GAME, Tournament
from tournaments.registration import LIMITS
from web.validators import PrintableForm


class TournamentForm(PrintableForm):
    name = forms.CharField(label=_("Name"), max_length=120)
    date = forms.DateField(
        label=_("Date"),
        initial=timezone.localdate,
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )
    format = forms.ChoiceField(
        label=_("Format"),
        choices=Tournament.Format.choices,
        initial=DEFAULT_FORMAT,
        widget=forms.RadioSelect,
    )
    ruleset = forms.ChoiceField(
        label=_("Rules"),
        # The lazy labels: words made when the module loads would stay English.
        choices=[(key, RULESET_LABELS.get(key, key)) for key in RULESETS],
        initial="classic",
    )
    target = forms.IntegerField(
        label=_("Party target"),
        min_value=LIMITS["target"].low,
        max_value=LIMITS["target"].high,
        initial=100,
    )
    rounds = forms.IntegerField(
        label=_("Rounds"),
        min_value=LIMITS["rounds"].low,
        max_value=LIMITS["rounds"].high,
        required=False,
        help_text=_(
            "Leave empty for the usual number: Swiss 3 rounds for 5–8 entrants, 4 for "
            "9–16, 5 for 17–32, and so on; a round robin plays everyone once."
        ),
    )
    bye_value = forms.IntegerField(
        label=_("Points for a bye"),
        initial=0,
        min_value=LIMITS["bye_value"].low,
        max_value=LIMITS["bye_value"].high,
    )
    forfeit_value = forms.IntegerField(
        label=_("Points for a forfeit"),
        initial=100,
        min_value=LIMITS["forfeit_value"].low,
        max_value=LIMITS["forfeit_value"].high,
        help_text=_("Plus for the player who came, minus for the one who did not."),
    )
    round_minutes = forms.IntegerField(
        label=_("Time limit per round (minutes)"),
        min_value=LIMITS["round_minutes"].low,
        max_value=LIMITS["round_minutes"].high,
        required=False,
        help_text=_("Optional: the round page shows the clock."),
    )
    confirmation_required = forms.BooleanField(
        label=_("The opponent confirms each hand"), required=False, initial=True
    )
    public_pairings = forms.BooleanField(
        label=_("Pairings are public"), required=False, initial=True
    )
    public_standings = forms.BooleanField(
        label=_("Standings are public"), required=False, initial=True
    )
    public_results = forms.BooleanField(label=_("Results are public"), required=False, initial=True)
    game = forms.ChoiceField(
        label=_("Card game"),
        choices=game_choices,
        initial=DEFAULT_GAME,
        # Left out (a page of before the other games came): the default.
        required=False,
        widget=forms.RadioSelect,
    )
    table_size = forms.IntegerField(
        label=_("Players per table"),
        min_value=3,
        max_value=6,
        required=False,
        help_text=_(
            "For a game played at tables of three to six: as many at each table as the "
            "game is played by (empty: two at a table). The Swiss system seats the tables "
            "from the standings; a round robin and an evening planned ahead seat every "
            "round at the start, with the fewest repeat meetings known."
        ),
    )

    def __init__(self, *args, **kwargs):
        """Every other game's options too (`scoring.option_fields`, the club night's
        fields), all on the page, only the chosen game's read."""
        super().__init__(*args, **kwargs)
        add_option_fields(self)

    def general_fields(self) -> list:
        """The tournament's own fields, for the page (the game's are grouped below)."""
        games = {"game", "table_size"} | all_option_names()
        return [self[name] for name in self.fields if name not in games]

    def option_groups(self) -> list[dict]:
        return option_groups(self)

    def clean(self):
        """The chosen game with its options by name (`game_options`) and table size,
        as `registration.tournament_create` takes them; the service says whether
        they go together. What is wrong with another game's option fields counts
        only for that game."""
        cleaned = super().clean()
        game = cleaned.get("game") or DEFAULT_GAME
        cleaned["game"] = game
        read = option_names(game)
        for name in all_option_names() - read:
            if name in self._errors:
                del self._errors[name]
        cleaned["game_options"] = options_of(cleaned, game) if read else {}
        for name in all_option_names():
            cleaned.pop(name, None)
        return cleaned


class MembersForm(PrintableForm):
    players = forms.ModelMultipleChoiceField(
        label=_("Members"),
        queryset=None,
        widget=forms.CheckboxSelectMultiple,
        error_messages={"required": _("Tick the members who enter.")},
    )

    def __init__(self, *args, players, **kwargs):
        """``players``: the club's members who have not entered yet."""
        super().__init__(*args, **kwargs)
        self.fields["players"].queryset = players


class GuestsForm(PrintableForm):
    names = forms.CharField(
        label=_("Guests, one name a line"),
        max_length=5000,
        widget=forms.Textarea(attrs={"rows": 4}),
        error_messages={"required": _("Write one name a line.")},
    )
    check_in = forms.BooleanField(
        label=_("They are here: check them in"),
        required=False,
        help_text=_("On the tournament's day names typed at the door are checked in at once."),
    )
    # Set by the page that asks about names already entered: "enter" or "skip".
    duplicates = forms.ChoiceField(
        choices=[("ask", "ask"), ("enter", "enter"), ("skip", "skip")],
        required=False,
        widget=forms.HiddenInput,
    )

    def __init__(self, *args, late=False, **kwargs):
        """``late``: the tournament runs, and a late entrant is checked in anyway."""
        super().__init__(*args, **kwargs)
        if late:
            self.fields["check_in"].widget = forms.HiddenInput()


def _entrant_choices(entrants):
    return [("", "–"), *((e.pk, str(e)) for e in entrants)]


class PairForm(PrintableForm):
    """Two entrants: kept apart, or swapped between tables."""

    first = forms.TypedChoiceField(label=_("First player"), coerce=int)
    second = forms.TypedChoiceField(label=_("Second player"), coerce=int)

    def __init__(self, *args, entrants, **kwargs):
        super().__init__(*args, **kwargs)
        self.entrants = {e.pk: e for e in entrants}
        for name in ("first", "second"):
            self.fields[name].choices = _entrant_choices(entrants)
            self.fields[name].error_messages["required"] = _("Choose two players.")

    def clean(self):
        first, second = self.cleaned_data.get("first"), self.cleaned_data.get("second")
        if first is not None and first == second:
            raise forms.ValidationError(_("Choose two different players."))
        return self.cleaned_data

    def pair(self):
        return self.entrants[self.cleaned_data["first"]], self.entrants[self.cleaned_data["second"]]


class CardsForm(PrintableForm):
    """The cards drawn at the venue, one field per tied entrant (e.g. "KH", "10♣")."""

    def __init__(self, *args, groups, **kwargs):
        """``groups``: the tied groups (`selectors.venue_draw_groups`)."""
        super().__init__(*args, **kwargs)
        for group in groups:
            for line in group:
                self.fields[f"card-{line.entrant.pk}"] = forms.CharField(
                    label=str(line.entrant),
                    max_length=4,
                    required=False,
                    widget=forms.TextInput(attrs={"size": 4, "autocomplete": "off"}),
                )
        self.groups = groups

    def grouped(self) -> list[tuple[int, list]]:
        """Each tied group's points with its entrants' fields."""
        return [
            (group[0].points, [self[f"card-{line.entrant.pk}"] for line in group])
            for group in self.groups
        ]

    def cards(self) -> dict[int, str]:
        """Entrant id -> the card written, for the entrants a card was written for."""
        return {
            int(name.removeprefix("card-")): value.strip()
            for name, value in self.cleaned_data.items()
            if value and value.strip()
        }

    def clean(self):
        if not any(v and v.strip() for v in self.cleaned_data.values()):
            raise forms.ValidationError(_("Write the card each tied player drew."))
        return self.cleaned_data


class FinishForm(PrintableForm):
    final_draw = forms.BooleanField(
        label=_("One place for every player: tied players draw cards"),
        required=False,
        help_text=_("Otherwise players on equal points share their place."),
    )


class ArchiveForm(PrintableForm):
    """An archive file as `GET /api/manage/tournaments/<slug>/archive` (or the
    export_archive command) gives it: JSON, no larger than the site's limit. What
    it holds is checked by the import (`tournaments.archive`)."""

    file = forms.FileField(
        label=_("Archive file"),
        widget=forms.FileInput(attrs={"accept": ".json,application/json"}),
        help_text=_("The JSON file of a tournament or a club night exported from Knock."),
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        limit = settings.ARCHIVE_UPLOAD_MAX_BYTES
        if upload.size > limit:
            raise forms.ValidationError(
                gettext("The file is too large (%(size)s; at most %(limit)s).")
                % {"size": filesizeformat(upload.size), "limit": filesizeformat(limit)}
            )
        # Nesting deeper than the parser goes is a RecursionError (no archive nests so).
        try:
            return archive_loads(upload.read())
        except ArchiveError as error:
            raise forms.ValidationError(str(error)) from None
        except (UnicodeDecodeError, ValueError, RecursionError):
            raise forms.ValidationError(
                gettext("This file is not JSON: choose the .json file of a Knock archive.")
            ) from None


class FinalStageForm(PrintableForm):
    """A knockout after the qualifying rounds: how many qualify, how long a match is,
    and whether the semi-finals' losers play for third place."""

    qualifiers = forms.IntegerField(
        label=_("Qualifiers"),
        min_value=2,
        max_value=256,
        initial=8,
        help_text=_(
            "The best placed play on: 2, 4, 8, 16, or any number (the best seeds get byes)."
        ),
    )
    best_of = forms.TypedChoiceField(
        label=_("A match is"),
        choices=[(1, _("one party")), (3, _("the best of three parties"))],
        coerce=int,
        initial=1,
        widget=forms.RadioSelect,
    )
    third_place = forms.BooleanField(
        label=_("The semi-finals' losers play for third place"), required=False
    )
