"""The forms that enter a hand of the club's other games (Chinchón, Canasta, Blaue
Vierzehn, Cruzo): plain HTML fields that become the entry the game's engine reads
(`Game.hand`). They only check what a field can say on its own (a whole number, a
choice); whether the hand fits together is the engine's call, so its words are the
ones the table reads.

`ENTRY_FORMS` is the one place that picks a form by the game's key."""

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from scoring.engine.games import ENTRY_GAMES
from scoring.engine.games import chinchon as chinchon_rules
from scoring.forms import key_field, version_field
from web.validators import PrintableForm

# A Chinchón hand holds at most eight cards of at most 12 points each.
MOST_PENALTY = 8 * 12
# Every Canasta card of the two packs together is worth 1,280 points.
MOST_CANASTA_POINTS = 1280
MOST_CANASTAS = 15


def _number(label, *, most, required=True, least=0):
    return forms.IntegerField(
        label=label,
        required=required,
        min_value=least,
        max_value=most,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )


class GameEntryForm(PrintableForm):
    """What every entry of a hand carries: its number, the submission's key (the
    same key sent twice stores once) and, when it answers another player's entry,
    the version the page showed. ``sides``: the party's sides (lists of seats), so
    each player's fields carry the player's name; ``out``: the sides out of play.
    ``hand_fields``: False for the organizer's decision of a disputed hand, which
    names its hand by its address and answers no entry: the game's fields alone."""

    #: How a row of the sheet's foot under the totals is headed, when the game gives
    #: hints for the next hand (`Game.hints`).
    hint_label = ""

    number = forms.IntegerField(min_value=1, max_value=32767, widget=forms.HiddenInput)
    key = key_field()
    version = version_field(required=False)

    HAND_FIELDS = ("number", "key", "version")

    def __init__(self, *args, sides, out=frozenset(), options=None, hand_fields=True, **kwargs):
        super().__init__(*args, **kwargs)
        if not hand_fields:
            for name in self.HAND_FIELDS:
                del self.fields[name]
        self.sides, self.out, self.options = sides, out, options or {}
        self.side_names = [" · ".join(s.player.name for s in seats) for seats in sides]
        self.add_fields()

    def add_fields(self):
        """The game's own fields, per side."""

    def playing(self):
        """The numbers of the sides still in play."""
        return [side for side in range(len(self.sides)) if side not in self.out]

    def blocks(self):
        """The fields grouped by side, for the template: (side, name, fields) per side."""
        return [
            (side, self.side_names[side], [self[name] for name in self.side_fields(side)])
            for side in self.playing()
        ]

    #: The cards a picker on the page taps into the form's card fields, by suit
    #: (`picker_rows`); none for a game entered by its numbers alone.
    def picker_rows(self):
        return []

    def preview(self) -> dict:
        """What the engine makes of the cards typed so far, by side, for the page's
        picker to show before the hand is entered: nothing is stored."""
        return {}

    def side_fields(self, side):
        return [name for name in self.fields if name.endswith(f"_{side}")]

    def common_fields(self):
        """The fields that belong to no one side (shown above the sides' blocks)."""
        per_side = {name for side in range(len(self.sides)) for name in self.side_fields(side)}
        return [
            self[name]
            for name in self.fields
            if name not in self.HAND_FIELDS and name not in per_side
        ]

    def entry(self) -> dict:
        """The entry as the game's engine reads it."""
        raise NotImplementedError

    def service_arguments(self) -> dict:
        return {"entry": self.entry(), "version": self.cleaned_data.get("version")}

    @classmethod
    def initial_from(cls, entry: dict) -> dict:
        """The fields filled in from a stored entry (a correction starts from it)."""
        return {}


class ChinchonForm(GameEntryForm):
    """Who closed, each player's penalty points (the cards left out of melds), and
    whether the closer showed a Chinchón (seven cards in one run). Instead of the
    penalty, a player's seven cards may be given: the engine finds the melds that
    leave the least penalty, and a Chinchón in the closer's cards."""

    chinchon = forms.BooleanField(
        label=_("The closer showed a Chinchón (seven cards in one run)"), required=False
    )

    def add_fields(self):
        self.fields["closer"] = forms.TypedChoiceField(
            label=_("Who closed?"),
            choices=[(side, self.side_names[side]) for side in self.playing()],
            coerce=int,
            widget=forms.RadioSelect,
            error_messages={"required": _("Say who closed the hand.")},
        )
        self.fields = {"closer": self.fields.pop("closer"), **self.fields}
        for side in self.playing():
            self.fields[f"penalty_{side}"] = _number(
                _("Penalty points"), most=MOST_PENALTY, required=False
            )
            self.fields[f"cards_{side}"] = forms.CharField(
                label=_("or the cards"),
                required=False,
                max_length=60,
                widget=forms.TextInput(
                    attrs={
                        "autocomplete": "off",
                        "autocapitalize": "characters",
                        "spellcheck": "false",
                        "placeholder": "1O 2O 3O 5C 5E 5B 12C",
                        "data-spanish-cards": "",
                    }
                ),
            )

    @property
    def deck(self) -> int:
        return self.options.get("deck", 40)

    def clean(self):
        data = super().clean()
        self.shown = {}
        for side in self.playing():
            text = (data.get(f"cards_{side}") or "").strip()
            if not text:
                if data.get(f"penalty_{side}") is None and f"penalty_{side}" not in self.errors:
                    self.add_error(
                        f"penalty_{side}",
                        _("Give the penalty points or the cards."),
                    )
                continue
            try:
                cards = chinchon_rules.parse_cards(text, self.deck)
                penalty = chinchon_rules.least_penalty(cards, self.deck)
            except ValueError:
                self.add_error(f"cards_{side}", self._bad_cards())
                continue
            typed = data.get(f"penalty_{side}")
            if typed is not None and typed != penalty:
                self.add_error(
                    f"penalty_{side}",
                    _("The cards leave %(penalty)s penalty points, not %(typed)s.")
                    % {"penalty": penalty, "typed": typed},
                )
            data[f"penalty_{side}"] = penalty
            self.shown[side] = [str(card) for card in cards]
        seen = {}
        for side, cards in self.shown.items():
            for card in cards:
                if card in seen and seen[card] != side:
                    raise forms.ValidationError(
                        _("%(card)s is in two hands: the pack holds every card once."),
                        params={"card": card},
                    )
                seen[card] = side
        return data

    def picker_rows(self):
        names = chinchon_rules.SUIT_NAMES
        deck = chinchon_rules.spanish_deck(self.deck)
        return [
            {
                "suit": suit,
                "name": names[suit].capitalize(),
                "cards": [
                    {"code": str(card), "rank": card.rank, "label": f"{card.rank} {names[suit]}"}
                    for card in deck
                    if card.suit == suit
                ],
            }
            for suit in chinchon_rules.SUITS
        ]

    def preview(self) -> dict:
        found = {}
        for side in self.playing():
            text = (self.data.get(f"cards_{side}") or "").strip()
            if not text:
                continue
            try:
                cards = chinchon_rules.parse_cards(text, self.deck)
                found[side] = {
                    "penalty": chinchon_rules.least_penalty(cards, self.deck),
                    "chinchon": chinchon_rules.is_chinchon(cards, self.deck),
                    "count": len(cards),
                }
            except ValueError:
                found[side] = {"message": str(self._bad_cards())}
        return {"sides": found}

    def _bad_cards(self):
        if self.deck == 40:
            return _(
                "Write each card as its rank 1–7 or 10–12 and its suit O, C, E or B "
                "(e.g. 12E), every card once, seven or eight in all."
            )
        return _(
            "Write each card as its rank 1–12 and its suit O, C, E or B (e.g. 12E), "
            "every card once, seven or eight in all."
        )

    def entry(self) -> dict:
        data = self.cleaned_data
        sides = range(len(self.sides))
        entry = {"closer": data["closer"], "chinchon": bool(data.get("chinchon"))}
        if self.shown and set(self.shown) == set(self.playing()):
            # Every hand shown: the engine reads the cards themselves.
            return entry | {"cards": [self.shown.get(side) for side in sides]}
        return entry | {
            "penalties": [None if side in self.out else data[f"penalty_{side}"] for side in sides]
        }

    @classmethod
    def initial_from(cls, entry):
        penalties = entry.get("penalties") or []
        cards = entry.get("cards") or []
        return {
            "closer": entry.get("closer"),
            "chinchon": entry.get("chinchon", False),
            **{f"penalty_{side}": value for side, value in enumerate(penalties)},
            **{f"cards_{side}": " ".join(hand) for side, hand in enumerate(cards) if hand},
        }


# Canasta's entries of one side, in the order the score card asks them.
CANASTA_NUMBERS = (
    ("meld_points", _("Points of the melded cards"), MOST_CANASTA_POINTS),
    ("natural_canastas", _("Natural canastas"), MOST_CANASTAS),
    ("mixed_canastas", _("Mixed canastas"), MOST_CANASTAS),
    ("red_threes", _("Red threes"), 4),
    ("hand_points", _("Points left in hand"), MOST_CANASTA_POINTS),
)
CANASTA_TICKS = (
    ("went_out", _("Went out")),
    ("concealed", _("Went out concealed")),
    ("melded_nothing", _("Melded nothing")),
)


class CanastaForm(GameEntryForm):
    """One block per side: its melded cards' points, its natural and mixed
    canastas, red threes, whether it went out (concealed), and the points of the
    cards left in its players' hands. A side that melded nothing says so (its red
    threes then count against it)."""

    hint_label = _("First meld at least")

    def add_fields(self):
        for side in self.playing():
            for name, label, most in CANASTA_NUMBERS:
                required = name == "meld_points"
                self.fields[f"{name}_{side}"] = _number(label, most=most, required=required)
            for name, label in CANASTA_TICKS:
                self.fields[f"{name}_{side}"] = forms.BooleanField(label=label, required=False)

    def entry(self) -> dict:
        data = self.cleaned_data

        def side(n):
            given = {name: data.get(f"{name}_{n}") or 0 for name, _label, _most in CANASTA_NUMBERS}
            return {
                **given,
                "went_out": bool(data.get(f"went_out_{n}")),
                "concealed": bool(data.get(f"concealed_{n}")),
                "has_melded": not data.get(f"melded_nothing_{n}"),
            }

        return {"sides": [side(n) for n in range(len(self.sides))]}

    @classmethod
    def initial_from(cls, entry):
        initial = {}
        for n, side in enumerate(entry.get("sides") or []):
            for name, _label, _most in CANASTA_NUMBERS:
                initial[f"{name}_{n}"] = side.get(name)
            initial[f"went_out_{n}"] = side.get("went_out", False)
            initial[f"concealed_{n}"] = side.get("concealed", False)
            initial[f"melded_nothing_{n}"] = not side.get("has_melded", True)
        return initial


class PointsForm(GameEntryForm):
    """Each player's points for the hand, the entry as the engine reads it
    (``{"points": [...]}``): the form of a game that has no form of its own."""

    label = _("Points")
    most = 32767

    def add_fields(self):
        for side in self.playing():
            self.fields[f"points_{side}"] = _number(self.label, most=self.most)

    def entry(self) -> dict:
        return {"points": [self.cleaned_data[f"points_{n}"] for n in range(len(self.sides))]}

    @classmethod
    def initial_from(cls, entry):
        return {f"points_{n}": value for n, value in enumerate(entry.get("points") or [])}


class BlaueVierzehnForm(PointsForm):
    """Each player's points from the cards of their tricks; a deal adds up to 56."""

    label = _("Points from the tricks")
    most = 56


class CruzoForm(GameEntryForm):
    """The order in which the players went out (1 first); a player still in when
    the game stopped has a count of the cards left on the table (open cards and
    Bunker, 0 to 6), fewer placing better."""

    def add_fields(self):
        places = [("", pgettext_lazy("Cruzo", "still in"))]
        places += [(n, str(n)) for n in range(1, len(self.sides) + 1)]
        for side in self.playing():
            self.fields[f"out_{side}"] = forms.TypedChoiceField(
                label=_("Order going out"),
                choices=places,
                coerce=int,
                required=False,
                empty_value=None,
            )
            self.fields[f"left_{side}"] = _number(
                _("Cards left on the table"), most=6, required=False
            )

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        places = sorted(
            data[f"out_{n}"] for n in self.playing() if data.get(f"out_{n}") is not None
        )
        if places != list(range(1, len(places) + 1)):
            raise forms.ValidationError(
                _("Number the players who went out 1, 2, 3 … in the order they went out.")
            )
        for n in self.playing():
            if data.get(f"out_{n}") is None and data.get(f"left_{n}") is None:
                raise forms.ValidationError(
                    _("%(name)s did not go out: give the cards left on the table."),
                    params={"name": self.side_names[n]},
                )
        return data

    def entry(self) -> dict:
        data = self.cleaned_data
        went_out = sorted(
            (n for n in self.playing() if data.get(f"out_{n}") is not None),
            key=lambda n: data[f"out_{n}"],
        )
        left = {str(n): data[f"left_{n}"] for n in self.playing() if n not in went_out}
        return {"went_out": went_out, "cards_left": left}

    @classmethod
    def initial_from(cls, entry):
        initial = {f"out_{n}": place for place, n in enumerate(entry.get("went_out") or [], 1)}
        for n, count in (entry.get("cards_left") or {}).items():
            initial[f"left_{n}"] = count
        return initial


#: The entry form of each game, by the game's key (`scoring.engine.games.GAMES`).
ENTRY_FORMS = {
    "chinchon": ChinchonForm,
    "canasta": CanastaForm,
    "blaue_vierzehn": BlaueVierzehnForm,
    "cruzo": CruzoForm,
}


def entry_form_for(party):
    """The entry form of the party's game (each player's points where the game has
    no form of its own); None for Gin Rummy, whose hands have their own forms."""
    if party.game not in ENTRY_GAMES:
        return None
    return ENTRY_FORMS.get(party.game, PointsForm)
