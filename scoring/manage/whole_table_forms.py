"""The organizer's forms for the club's other games (Chinchón, Canasta, Blaue
Vierzehn, Cruzo): each game's rule options in a club's words, the players in
seat order, and what a decision of a disputed hand adds to the game's entry form
(`scoring.entry_forms`, the players' own).

The options' fields are `scoring.option_fields`' (a tournament's form has them
too); the forms only validate: `scoring.services.game_parties` and `scoring.services.hands`
write."""

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.engine.games import GAMES
from scoring.option_fields import (
    add_option_fields,
    option_groups,
    option_names,
    options_of,
)
from scoring.services.whole_table_sheet import other_game
from web.validators import PrintableForm

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
        if other_game(game):
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
                    if other_game(key) and number <= max(game.table_sizes)
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


# ----------------------------------------------------------------- deciding a disputed hand


class ReasonForm(PrintableForm):
    """What the organizer's decision of a disputed hand has beside the game's entry
    form (`scoring.entry_forms`, whose fields the players enter): the reason."""

    reason = forms.CharField(
        label=_("Reason"),
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 2}),
        error_messages={"required": _("Give a reason: decisions are kept in the party's record.")},
    )


class VersionForm(ReasonForm):
    """Accepting one of a disputed hand's two entries as it stands."""

    version = forms.ChoiceField(
        choices=[("entered", "entered"), ("counter", "counter")], widget=forms.HiddenInput
    )
