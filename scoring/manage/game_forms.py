"""The organizer's forms for the club's other games (Chinchón, Canasta, Blaue
Vierzehn, Cruzo): each game's rule options in a club's words, the players in
seat order, and the entry that decides a disputed hand, as plain fields (the
entry the engine reads, `Game.hand`, is put together here, never typed as JSON).

The forms are looked up by the game's key, as the engines are (`GAMES`); they
only validate: `scoring.services.game_parties` and `scoring.services.games` write."""

from django import forms
from django.utils.translation import gettext_lazy as _

from config.validators import PrintableForm
from scoring.engine.games import GAMES
from scoring.models import Party
from scoring.services.game_sheet import other_game

#: The most players any game seats (Cruzo: seven).
MOST_SEATS = max(size for game in GAMES.values() for size in game.table_sizes)

#: Each game's options as a club names them: (label, help, choices in words, or
#: None for a number the table agrees on, left empty for the game's default).
OPTION_WORDS = {
    "chinchon": {
        "conga": (
            _("Variant"),
            "",
            {
                False: _("Classic: over once someone reaches 100, the lowest total wins"),
                True: _("La Conga: out at 100, the last player under 100 wins"),
            },
        ),
        "deck": (
            _("Pack"),
            "",
            {40: _("40 cards (without 8s and 9s)"), 48: _("48 cards")},
        ),
    },
    "canasta": {
        "partnerships": (
            _("Partnerships"),
            _("Partners sit opposite each other: every second seat (every third of three)."),
            {
                None: _("Each on their own up to three players, two partnerships from four"),
                3: _("Six players: three partnerships of two"),
            },
        ),
    },
    "blaue_vierzehn": {
        "deals": (
            _("Number of deals"),
            _("Empty: one deal each, so every player deals once."),
            None,
        ),
    },
    "cruzo": {
        "games": (
            _("Number of games"),
            _(
                "Scored by place: the last place 0 points, each place above one more. "
                "Empty: one game each."
            ),
            None,
        ),
    },
}


def option_field_name(game: str, option: str) -> str:
    return f"{game}_{option}"


def _option_field(game: str, option: str) -> forms.Field:
    label, help_text, words = OPTION_WORDS[game][option]
    engine_option = GAMES[game].options[option]
    if words is None:
        return forms.IntegerField(
            label=label,
            help_text=help_text,
            required=False,
            min_value=engine_option.least,
            max_value=99,
        )
    values = {str(value): value for value in words}
    # Not required: a form sent without the game's fields (another game chosen,
    # an old page) takes the game's defaults.
    return forms.TypedChoiceField(
        label=label,
        help_text=help_text,
        choices=[(str(value), text) for value, text in words.items()],
        coerce=values.__getitem__,
        initial=str(engine_option.default),
        required=False,
        widget=forms.RadioSelect,
    )


def game_choices() -> list[tuple[str, str]]:
    """Gin Rummy first (the default), then the other games."""
    return [(key, label) for key, label in Party.Game.choices]


class GameStartFields:
    """What `PartyStartForm` adds for the other games: each game's options
    (``<game>_<option>``), all shown, grouped by game, only the chosen game's read;
    and the seats in order (``seat_1`` …), for every game but Gin Rummy, whose
    players draw for their seats."""

    @staticmethod
    def add(form, players) -> None:
        for game in GAMES:
            for option in GAMES[game].options:
                form.fields[option_field_name(game, option)] = _option_field(game, option)
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
        if other_game(game):
            read |= {option_field_name(game, option) for option in GAMES[game].options}
            read |= {f"seat_{number}" for number in range(1, MOST_SEATS + 1)}
        else:
            read |= {"format", "players"}
        for name in [name for name in form.errors if name is not None and name not in read]:
            if name in form.fields:
                del form._errors[name]

    @staticmethod
    def option_groups(form) -> list[dict]:
        """Each other game's option fields, for the template's fieldsets."""
        labels = dict(Party.Game.choices)
        return [
            {
                "game": game,
                "name": labels[game],
                "sizes": GAMES[game].table_sizes,
                "fields": [form[option_field_name(game, option)] for option in GAMES[game].options],
            }
            for game in GAMES
        ]

    @staticmethod
    def seat_fields(form) -> list:
        return [form[f"seat_{number}"] for number in range(1, MOST_SEATS + 1)]

    @staticmethod
    def options_of(form, game: str) -> dict:
        data = form.cleaned_data
        given = {name: data.get(option_field_name(game, name)) for name in GAMES[game].options}
        # Left empty: the game's default (`settle_options`).
        return {option: value for option, value in given.items() if value not in (None, "")}

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


# ----------------------------------------------------------------- deciding a disputed hand


class GameDecisionForm(PrintableForm):
    """The organizer's entry for a disputed hand of another game, field by field as
    the players enter it, and the reason. ``sides``: each side's seats (the sheet's),
    ``out``: the sides out of play (La Conga). Each game says its fields
    (`add_fields`) and how they make the engine's entry (`entry`)."""

    reason = forms.CharField(
        label=_("Reason"),
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 2}),
        error_messages={"required": _("Give a reason: decisions are kept in the party's record.")},
    )

    def __init__(self, *args, sides, out=frozenset(), **kwargs):
        super().__init__(*args, **kwargs)
        self.sides, self.out = sides, out
        self.add_fields()
        self.fields["reason"] = self.fields.pop("reason")

    @staticmethod
    def side_name(seats) -> str:
        return " · ".join(seat.player.name for seat in seats)

    def number(self, name: str, label, **more) -> None:
        self.fields[name] = forms.IntegerField(
            label=label, required=False, min_value=0, max_value=99_999, **more
        )

    def value(self, name: str, default=None):
        value = self.cleaned_data.get(name)
        return default if value is None else value

    def add_fields(self) -> None:
        raise NotImplementedError

    def entry(self) -> dict:
        raise NotImplementedError

    @classmethod
    def initial_from(cls, entry: dict, sides: int) -> dict:
        """The fields as a stored entry fills them (what can be read back)."""
        return {}


class ChinchonDecisionForm(GameDecisionForm):
    def add_fields(self):
        self.fields["closer"] = forms.TypedChoiceField(
            label=_("Closed by"),
            coerce=int,
            choices=[
                (str(side), self.side_name(seats))
                for side, seats in enumerate(self.sides)
                if side not in self.out
            ],
            widget=forms.RadioSelect,
            error_messages={"required": _("Choose who closed the hand.")},
        )
        for side, seats in enumerate(self.sides):
            if side not in self.out:
                self.number(
                    f"penalty_{side}",
                    _("Penalty points of %(name)s") % {"name": self.side_name(seats)},
                )
        self.fields["chinchon"] = forms.BooleanField(
            label=_("Chinchón: seven cards in one run of one suit"), required=False
        )

    def entry(self):
        return {
            "closer": self.cleaned_data["closer"],
            "penalties": [
                None if side in self.out else self.value(f"penalty_{side}")
                for side in range(len(self.sides))
            ],
            "chinchon": self.cleaned_data["chinchon"],
        }

    @classmethod
    def initial_from(cls, entry, sides):
        penalties = entry.get("penalties") or [None] * sides
        return {
            "closer": entry.get("closer"),
            "chinchon": bool(entry.get("chinchon")),
            **{f"penalty_{side}": value for side, value in enumerate(penalties)},
        }


#: A Canasta side's numbers and ticks, in the order of the players' entry.
CANASTA_NUMBERS = {
    "meld_points": _("Meld points"),
    "natural_canastas": _("Natural canastas"),
    "mixed_canastas": _("Mixed canastas"),
    "red_threes": _("Red threes"),
    "hand_points": _("Points left in hand"),
}
CANASTA_TICKS = {
    "has_melded": _("Melded"),
    "went_out": _("Went out"),
    "concealed": _("Went out concealed"),
}


class CanastaDecisionForm(GameDecisionForm):
    def add_fields(self):
        for side, seats in enumerate(self.sides):
            name = self.side_name(seats)
            for key, label in CANASTA_NUMBERS.items():
                self.number(f"side_{side}_{key}", f"{name}: {label}")
            for key, label in CANASTA_TICKS.items():
                # A side has melded unless told otherwise, as the engine reads it.
                self.fields[f"side_{side}_{key}"] = forms.BooleanField(
                    label=f"{name}: {label}", required=False, initial=key == "has_melded"
                )

    def side_fields(self) -> list[dict]:
        """Each side's fields, for the template's fieldsets."""
        return [
            {
                "name": self.side_name(seats),
                # Under the side's name the field's own words are enough.
                "fields": [
                    (self[f"side_{side}_{key}"], label)
                    for key, label in (*CANASTA_NUMBERS.items(), *CANASTA_TICKS.items())
                ],
            }
            for side, seats in enumerate(self.sides)
        ]

    def entry(self):
        return {
            "sides": [
                {
                    **{key: self.value(f"side_{side}_{key}", 0) for key in CANASTA_NUMBERS},
                    **{key: self.cleaned_data[f"side_{side}_{key}"] for key in CANASTA_TICKS},
                }
                for side in range(len(self.sides))
            ]
        }

    @classmethod
    def initial_from(cls, entry, sides):
        given = entry.get("sides") or []
        return {
            f"side_{side}_{key}": value
            for side, numbers in enumerate(given)
            if isinstance(numbers, dict)
            for key, value in numbers.items()
            if key in CANASTA_NUMBERS or key in CANASTA_TICKS
        }


class BlaueVierzehnDecisionForm(GameDecisionForm):
    def add_fields(self):
        for side, seats in enumerate(self.sides):
            self.number(
                f"points_{side}",
                _("Points of %(name)s's tricks") % {"name": self.side_name(seats)},
            )

    def entry(self):
        return {"points": [self.value(f"points_{side}") for side in range(len(self.sides))]}

    @classmethod
    def initial_from(cls, entry, sides):
        points = entry.get("points") or []
        return {f"points_{side}": value for side, value in enumerate(points)}


class CruzoDecisionForm(GameDecisionForm):
    """Who went out in which order, and the cards left on the table of the others
    (seed 003: the fewer, the better placed)."""

    def add_fields(self):
        for side, seats in enumerate(self.sides):
            name = self.side_name(seats)
            self.fields[f"out_{side}"] = forms.IntegerField(
                label=_("%(name)s went out as number") % {"name": name},
                required=False,
                min_value=1,
                max_value=len(self.sides),
            )
            self.number(f"left_{side}", _("%(name)s's cards left on the table") % {"name": name})

    def entry(self):
        out = {side: self.cleaned_data.get(f"out_{side}") for side in range(len(self.sides))}
        went_out = sorted((side for side, n in out.items() if n), key=lambda side: out[side])
        left = {
            str(side): self.value(f"left_{side}", 0)
            for side in range(len(self.sides))
            if not out[side]
        }
        return {"went_out": went_out, "cards_left": left}

    @classmethod
    def initial_from(cls, entry, sides):
        went_out = entry.get("went_out") or []
        initial = {f"out_{side}": n for n, side in enumerate(went_out, 1) if isinstance(side, int)}
        for side, count in (entry.get("cards_left") or {}).items():
            initial[f"left_{side}"] = count
        return initial


#: The decision form of each game, by the game's key (as `GAMES`).
DECISION_FORMS: dict[str, type[GameDecisionForm]] = {
    "chinchon": ChinchonDecisionForm,
    "canasta": CanastaDecisionForm,
    "blaue_vierzehn": BlaueVierzehnDecisionForm,
    "cruzo": CruzoDecisionForm,
}


class VersionForm(PrintableForm):
    """Accepting one of a disputed hand's two entries as it stands."""

    version = forms.ChoiceField(
        choices=[("entered", "entered"), ("counter", "counter")], widget=forms.HiddenInput
    )
    reason = GameDecisionForm.base_fields["reason"]
