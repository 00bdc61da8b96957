"""Each other game's rule options as form fields, in a club's words: the one
place the organizer's forms take them from, a club night's party start and a
tournament's creation alike. What the options are, what they may be
(`settle_options`) and how a club says them (`Option`'s label, help and words)
is the game's own (`ENTRY_GAMES`)."""

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.engine.games import ENTRY_GAMES, GAMES
from scoring.models import game_choices


def engine_words(text: str):
    """A word of the engine's (a `Problem`, or an option's key) in the reader's
    language, when the page is drawn; nothing for nothing."""
    return _(str(text)) if text else ""


def option_words(game: str, option: str) -> tuple:
    """How a club names ``game``'s ``option`` (`Option`): its label (its key where
    the game gives none), help, and choices in words (``None``: a number)."""
    said = GAMES[game].options[option]
    words = None
    if said.words:
        words = {value: engine_words(text) for value, text in said.words.items()}
    return (engine_words(said.label or option), engine_words(said.help), words)


def option_field_name(game: str, option: str) -> str:
    return f"{game}_{option}"


def option_field(game: str, option: str) -> forms.Field:
    label, help_text, words = option_words(game, option)
    engine_option = ENTRY_GAMES[game].options[option]
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


def add_option_fields(form) -> None:
    """Every other game's option fields (``<game>_<option>``) added to ``form``."""
    for game in ENTRY_GAMES:
        for option in ENTRY_GAMES[game].options:
            form.fields[option_field_name(game, option)] = option_field(game, option)


def option_names(game: str) -> set[str]:
    """The form fields of ``game``'s options (none for Gin Rummy)."""
    engine = ENTRY_GAMES.get(game)
    return {option_field_name(game, option) for option in engine.options} if engine else set()


def all_option_names() -> set[str]:
    """The form fields of every other game's options."""
    return {name for game in ENTRY_GAMES for name in option_names(game)}


def options_of(cleaned_data: dict, game: str) -> dict:
    """``game``'s options as the form gave them; one left empty takes the game's
    default (`settle_options`)."""
    given = {
        name: cleaned_data.get(option_field_name(game, name)) for name in ENTRY_GAMES[game].options
    }
    return {option: value for option, value in given.items() if value not in (None, "")}


def option_groups(form) -> list[dict]:
    """Each other game's option fields with its name and the numbers of players it
    takes, for the template's fieldsets (one per game, all on the page)."""
    labels = dict(game_choices())
    return [
        {
            "game": game,
            "name": labels[game],
            "sizes": ENTRY_GAMES[game].table_sizes,
            "fields": [
                form[option_field_name(game, option)] for option in ENTRY_GAMES[game].options
            ],
        }
        for game in ENTRY_GAMES
    ]
