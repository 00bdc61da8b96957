"""The organizer's forms: a club night, the start of a party (Gin Rummy's format
and players who draw for their seats, another game's options and players in seat
order), and the decision on a hand of any game (correct it, void it, or settle a
dispute by accepting one version). They only validate: the services write.

The options' fields are `scoring.option_fields`' (a tournament's form has them
too)."""

from django import forms
from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from scoring import entries, errors
from scoring.engine.games import FORMAT_GAMES, GAMES
from scoring.engine.rules import RULESETS
from scoring.forms import QuickEntryForm
from scoring.labels import RULESET_LABELS
from scoring.models import DEFAULT_GAME, Hand, Party, game_choices, game_name
from scoring.option_fields import add_option_fields, option_groups, option_names, options_of
from scoring.selectors import RULINGS
from scoring.services.knocks import Result
from web.money import AmountField, money_example
from web.validators import PrintableForm


class Decision(models.TextChoices):
    CORRECT = "correct", _("correct the result")
    RESOLVE = "resolve", _("settle the dispute with the right result")
    VOID = "void", _("void the hand")
    ENTERED = "entered", _("accept the version entered first")
    COUNTER = "counter", _("accept the other side's version")


#: The decisions that accept one of a disputed hand's versions (`entries.VERSIONS`).
VERSION_OF = {Decision.ENTERED: "entered", Decision.COUNTER: "counter"}

#: Whether the hand must be disputed for the decision (None: either), checked by
#: `hand_decide` under the party's lock: a phone may have changed it meanwhile.
DISPUTED = {Decision.RESOLVE: True, Decision.ENTERED: True, Decision.COUNTER: True}


class DecisionForm(PrintableForm):
    """The organizer's decision on a hand of any game: what (``decision``) and why
    (``reason``). The result, when the decision carries one, is in the fields of
    the table's entry form (`HandDecisionForm`'s own, or the game's beside it)."""

    decision = forms.ChoiceField(choices=Decision.choices, widget=forms.HiddenInput)
    reason = forms.CharField(
        label=_("Reason"),
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 2}),
        error_messages={"required": _("Give a reason: decisions are kept in the party's record.")},
    )

    def __init__(self, data=None, *args, **kwargs):
        super().__init__(_named(data), *args, **kwargs)

    def carries_result(self) -> bool:
        return self.data.get("decision") in (Decision.CORRECT, Decision.RESOLVE)


def _named(data):
    """The decision as sent. A page drawn before every game's hands were decided in
    one form may still post another game's decision as ``version`` (entered,
    counter) or ``action`` (resolve, correct, void), or neither (the right result
    of a dispute): still read, as ``decision``."""
    if data is None or "decision" in data:
        return data
    data = data.copy()
    data["decision"] = data.get("version") or data.get("action") or Decision.RESOLVE
    return data


class HandDecisionForm(DecisionForm, QuickEntryForm):
    """A decision on a hand of a game of party formats: the result fields of the
    table's entry form (whatever rulings it offers), then the reason. The hand
    number comes from the URL."""

    number = None
    key = None
    version = None
    knocker = forms.TypedChoiceField(
        label=_("Knocker"), coerce=int, required=False, empty_value=None
    )

    field_order = ["decision", "ending", "knocker", "knocker_deadwood", "defender_deadwood"]

    def __init__(self, *args, hand: Hand, players, **kwargs):
        """``players``: the seats that may be named the knocker (see
        `manage_selectors.hand_players`)."""
        super().__init__(*args, **kwargs)
        self.hand = hand
        self.fields["knocker"].choices = [
            ("", "–"),
            *((seat.position, seat.player.name) for seat in players),
        ]
        # Only a correction carries a result; voiding or accepting a version does not.
        self.fields["ending"].required = False
        if hand.party.rules.get("big_gin_bonus") is None:
            # Rules without big gin do not offer it: eleven cards in melds are gin there.
            self.fields["ending"].choices = [
                choice for choice in Hand.Ending.choices if choice[0] != Hand.Ending.BIG_GIN
            ]
        if not hand.party.rules.get("oklahoma"):
            # The up-card only sets the knock limit under Oklahoma.
            self.fields.pop("up_card", None)
        # The reason comes last, after whatever fields the entry form has grown.
        self.fields["reason"] = self.fields.pop("reason")

    @classmethod
    def for_hand(cls, hand: Hand, players) -> "HandDecisionForm":
        """An unbound correction form that starts from the hand as it stands."""
        initial = {
            "decision": Decision.CORRECT,
            "ending": hand.ending,
            "knocker": hand.knocker.position if hand.knocker else None,
            "knocker_deadwood": hand.knocker_deadwood,
            "defender_deadwood": hand.defender_deadwood,
            "up_card": hand.details.get("up_card"),
            **{name: hand.details.get(name) for name in RULINGS if hand.details.get(name)},
        }
        return cls(hand=hand, players=players, initial=initial, auto_id=f"hand-{hand.pk}-%s")

    def ruling_fields(self) -> list:
        """The director's rulings (seed 000 § 14), shown apart: they are rarely needed."""
        return [self[name] for name in self.fields if name in RULINGS]

    def result_fields(self) -> list:
        return [self[name] for name in self.fields if name not in (*RULINGS, "reason")]

    def clean(self):
        decision = self.cleaned_data.get("decision")
        if decision in (Decision.CORRECT, Decision.RESOLVE):
            if not self.cleaned_data.get("ending"):
                raise forms.ValidationError(_("Choose how the hand ended."))
            return super().clean()
        if decision in VERSION_OF:
            try:
                self._accepted = entries.result_of_version(self.hand, VERSION_OF[decision])
            except errors.WrongDecision as error:
                raise forms.ValidationError(str(error)) from error
        return self.cleaned_data

    def service_arguments(self) -> dict:
        return {
            "entry": self.decided_result(),
            "reason": self.cleaned_data["reason"],
            "disputed": DISPUTED.get(self.cleaned_data["decision"]),
        }

    def decided_result(self) -> Result | None:
        """The result the organizer settles on; None voids the hand."""
        decision = self.cleaned_data["decision"]
        if decision == Decision.VOID:
            return None
        if decision in VERSION_OF:
            return self._accepted
        return self.result()


# How many play each format; party_start enforces the counts, the labels tell them.
FORMAT_LABELS = {
    Party.Format.TWO: _("Two players"),
    Party.Format.ROTATION: _("Three players in rotation"),
    Party.Format.CHOUETTE: _("Chouette, 3 to 6 players"),
    Party.Format.PARTNERS: _("Partnerships, 4 or 6 players"),
}


# The largest id a row can have (a 64-bit column).
MAX_ID = 2**63 - 1


def _possible_id(value) -> bool:
    text = str(value)
    return text.isascii() and text.isdigit() and 0 < int(text) <= MAX_ID


class MemberChoiceField(forms.ModelMultipleChoiceField):
    """The players ticked, by id. An id no row can have is refused before the
    database is asked: past the column's range it would be the database's error,
    not a miss."""

    def clean(self, value):
        if isinstance(value, list | tuple):
            for pk in value:
                if not _possible_id(pk):
                    raise ValidationError(
                        self.error_messages["invalid_pk_value"],
                        code="invalid_pk_value",
                        params={"pk": pk},
                    )
        return super().clean(value)


class MemberField(forms.ModelChoiceField):
    """One player, by id, refused like `MemberChoiceField` before any query when no
    row can have that id."""

    def to_python(self, value):
        if value not in self.empty_values and not _possible_id(value):
            raise ValidationError(self.error_messages["invalid_choice"], code="invalid_choice")
        return super().to_python(value)


class NightForm(PrintableForm):
    name = forms.CharField(label=_("Name"), max_length=120)
    date = forms.DateField(
        label=_("Date"),
        initial=timezone.localdate,
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )
    ruleset = forms.ChoiceField(
        label=_("Rules"),
        # Lazy labels: the choices are made once, the page is read in many languages.
        choices=[(key, RULESET_LABELS.get(key, key)) for key in RULESETS],
        initial="classic",
    )
    confirmation_required = forms.BooleanField(
        label=_("The opponent confirms each hand"),
        required=False,
        initial=True,
        help_text=_("A hand entered at one seat counts once the other side confirms it."),
    )


#: The most players any game seats (Cruzo: seven).
MOST_SEATS = max(size for game in GAMES.values() for size in game.table_sizes)


class GameStartFields:
    """What `PartyStartForm` adds for the other games: each game's options
    (``<game>_<option>``), all shown, grouped by game, only the chosen game's read;
    and the seats in order (``seat_1`` …), for every game but Gin Rummy, whose
    players draw for their seats."""

    @staticmethod
    def add(form, players) -> None:
        add_option_fields(form)
        # One query for the seven lists: the members are read once.
        members = {str(player.pk): player for player in players}
        label = form.fields["players"].label_from_instance
        choices = [("", "–"), *((pk, label(player)) for pk, player in members.items())]
        for number in range(1, MOST_SEATS + 1):
            form.fields[f"seat_{number}"] = forms.TypedChoiceField(
                label=_("Seat %(n)d") % {"n": number},
                choices=choices,
                coerce=members.__getitem__,
                required=False,
                empty_value=None,
            )

    @staticmethod
    def drop_unread(form, game: str) -> None:
        """Forgets what is wrong with the fields the chosen game does not read (a
        number left in another game's options, a seat left from a change of
        mind): only the chosen game's fields count."""
        read = {"game", "label", "anyway"}
        if not GAMES[game].formats:
            read |= option_names(game)
            read |= {f"seat_{number}" for number in range(1, MOST_SEATS + 1)}
        else:
            read |= {"format", "players"}
        for name in [name for name in form.errors if name is not None and name not in read]:
            if name in form.fields:
                del form._errors[name]

    @staticmethod
    def option_groups(form) -> list[dict]:
        return option_groups(form)

    @staticmethod
    def seat_fields(form) -> list:
        return [form[f"seat_{number}"] for number in range(1, MOST_SEATS + 1)]

    @staticmethod
    def seat_picks(form) -> list[dict]:
        """Each seat's field with the games whose tables have that seat (``games``,
        their keys spaced), so the page shows Chinchón four seats, not seven."""
        return [
            {
                "field": field,
                "games": " ".join(
                    key
                    for key, game in GAMES.items()
                    if not game.formats and number <= max(game.table_sizes)
                ),
            }
            for number, field in enumerate(GameStartFields.seat_fields(form), 1)
        ]

    @staticmethod
    def options_of(form, game: str) -> dict:
        return options_of(form.cleaned_data, game)

    @staticmethod
    def seated(form) -> list:
        """The players in the seat fields, in seat order (empty seats skipped); a
        player in two seats is an error on the second."""
        players, seen = [], set()
        for number in range(1, MOST_SEATS + 1):
            player = form.cleaned_data.get(f"seat_{number}")
            if player is None:
                continue
            if player.pk in seen:
                form.add_error(
                    f"seat_{number}",
                    _("%(name)s already has a seat.") % {"name": player.name},
                )
                continue
            seen.add(player.pk)
            players.append(player)
        return players


def table_sizes_text(sizes) -> str:
    """2, 3, 4 → "2 to 4"; 2, 4 → "2 or 4"."""
    sizes = sorted(sizes)
    if sizes == list(range(sizes[0], sizes[-1] + 1)) and len(sizes) > 2:
        return _("%(low)d to %(high)d") % {"low": sizes[0], "high": sizes[-1]}
    return _(" or ").join(str(size) for size in sizes)


class PartyStartForm(PrintableForm):
    """Gin Rummy in one of its formats, the players ticked (they draw for their
    seats); or another game with its options and the players in seat order
    (`GameStartFields`). Every game's fields are on the page, grouped under the
    game's name, so it works without script (which shows the chosen game's
    alone); only the chosen game's are read."""

    game = forms.ChoiceField(
        label=_("Game"),
        choices=game_choices,
        initial=DEFAULT_GAME,
        # Left out (a page of before the other games came): Gin Rummy.
        required=False,
        widget=forms.RadioSelect,
    )
    format = forms.ChoiceField(
        label=_("Format"),
        choices=list(FORMAT_LABELS.items()),
        initial=Party.Format.TWO,
        # Gin Rummy's only: left out, a game of two (`clean`).
        required=False,
        widget=forms.RadioSelect,
    )
    players = MemberChoiceField(
        label=_("Players"),
        queryset=None,
        # Gin Rummy's (another game's players come in seat order): `clean` asks.
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    label = forms.CharField(
        label=_("Label (optional)"),
        max_length=120,
        required=False,
        help_text=_("For example the table number."),
    )

    anyway = forms.BooleanField(
        label=_("Seat them anyway"),
        required=False,
        help_text=_("Only needed when a player already sits at a running party of this night."),
    )

    def __init__(self, *args, players, seated=None, **kwargs):
        """``players``: the club's members, the only ones who may take a seat;
        ``seated``: player id → the running party of the night they sit at."""
        super().__init__(*args, **kwargs)
        seated = seated or {}
        field = self.fields["players"]
        field.queryset = players
        field.label_from_instance = lambda player: (
            _("%(name)s (at %(party)s)") % {"name": player.name, "party": seated[player.pk]}
            if player.pk in seated
            else player.name
        )
        GameStartFields.add(self, players)
        # The label and "anyway" last, after every game's fields.
        for name in ("label", "anyway"):
            self.fields[name] = self.fields.pop(name)

    def start_arguments(self) -> dict:
        """What `parties.party_start` takes from the valid form: the game, its
        players and, as the game is played, its format (the seats drawn) or its
        options (the players seated in order)."""
        data = self.cleaned_data
        if not GAMES[data["game"]].formats:
            return {"game": data["game"], "players": data["seated"], "options": data["options"]}
        return {"game": data["game"], "players": list(data["players"]), "format": data["format"]}

    def option_groups(self) -> list[dict]:
        return GameStartFields.option_groups(self)

    def seat_fields(self) -> list:
        return GameStartFields.seat_fields(self)

    def seat_picks(self) -> list[dict]:
        return GameStartFields.seat_picks(self)

    def format_groups(self) -> list[dict]:
        """The fieldset of each game of party formats: its format and the players,
        whose seats are drawn."""
        fields = [self["format"], self["players"]]
        return [{"game": key, "name": game_name(key), "fields": fields} for key in FORMAT_GAMES]

    def clean(self):
        cleaned = super().clean()
        if "game" not in cleaned:
            return cleaned
        game = cleaned["game"] = cleaned["game"] or DEFAULT_GAME
        GameStartFields.drop_unread(self, game)
        if GAMES[game].formats:
            cleaned["format"] = cleaned.get("format") or Party.Format.TWO
            if not cleaned.get("players"):
                self.add_error("players", _("Tick the players who sit down at this party."))
            return cleaned
        players = GameStartFields.seated(self)
        sizes = GAMES[game].table_sizes
        name = game_name(game)
        if not players:
            self.add_error(None, _("Choose the players of %(game)s seat by seat.") % {"game": name})
        elif len(players) not in sizes:
            self.add_error(
                None,
                ngettext(
                    "%(game)s is played by %(sizes)s players: %(count)d is seated.",
                    "%(game)s is played by %(sizes)s players: %(count)d are seated.",
                    len(players),
                )
                % {"game": name, "sizes": table_sizes_text(sizes), "count": len(players)},
            )
        cleaned["seated"] = players
        cleaned["options"] = GameStartFields.options_of(self, game)
        return cleaned


class StakeForm(PrintableForm):
    stake = AmountField(
        label=_("Stake per point"),
        required=False,
        min_value=0,
        max_digits=7,
        decimal_places=2,
        help_text=_(
            "Each party is paid at this rate: every player or side settles with every "
            "other the difference of their totals (of their place points, where the "
            "game scores places); a tied party is not paid. Empty: not played for money."
        ),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # The example in the reader's own way of writing it: "0,05" in German.
        self.fields["stake"].widget.attrs["placeholder"] = money_example()


class CancelForm(PrintableForm):
    reason = forms.CharField(
        label=_("Reason"),
        max_length=500,
        error_messages={"required": _("Give a reason: a cancelled party stays in the record.")},
    )


class SwapForm(PrintableForm):
    player = MemberField(label=_("Player"), queryset=None)

    def __init__(self, *args, players, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["player"].queryset = players
