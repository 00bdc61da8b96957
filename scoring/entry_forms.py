"""The form that enters a hand of a game played at one whole table: plain HTML
fields, made from the game's own declaration of its entry (`EntryField`s, asked
through `scoring.engine.games.game.entry_fields`), that become the entry its
engine reads (`Game.hand`). A field checks only what it can say on its own (a
whole number, a choice); what the fields say together is the game's call
(`entry_problems`), and whether the hand fits together its engine's, so their
words are the ones the table reads."""

from functools import cache

from django import forms

from scoring.engine.games import ENTRY_GAMES
from scoring.engine.games.game import entry_fields, entry_from, entry_problems, entry_values
from scoring.errors import translated
from scoring.forms import key_field, version_field
from scoring.option_fields import engine_words
from web.validators import PrintableForm


def _field(spec, choices) -> forms.Field:
    """The form field of one `EntryField` (``choices``: the sides in play)."""
    label = engine_words(spec.label)
    if spec.kind == "tick":
        return forms.BooleanField(label=label, required=False)
    if spec.kind == "cards":
        attrs = {"autocomplete": "off", "autocapitalize": "characters", "spellcheck": "false"}
        attrs |= {"placeholder": spec.placeholder, "data-spanish-cards": ""}
        widget = forms.TextInput(attrs=attrs)
        return forms.CharField(label=label, required=False, max_length=60, widget=widget)
    if spec.kind in ("side", "place"):
        missing = {"required": engine_words(spec.missing)} if spec.missing else {}
        return forms.TypedChoiceField(
            label=label,
            choices=choices,
            coerce=int,
            required=spec.required,
            empty_value=None,
            widget=forms.RadioSelect if spec.kind == "side" else forms.Select,
            error_messages=missing,
        )
    return forms.IntegerField(
        label=label,
        required=spec.required,
        min_value=spec.least,
        max_value=spec.most,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )


class GameEntryForm(PrintableForm):
    """A hand's entry of the form's ``game``: its number, the submission's key (the
    same key sent twice stores once) and, when it answers another player's entry,
    the version the page showed, then the game's fields. ``sides``: the party's
    sides (lists of seats), so each player's fields carry the player's name;
    ``out``: the sides out of play. ``hand_fields``: False for the organizer's
    decision of a disputed hand, which names its hand by its address and answers
    no entry: the game's fields alone. A field by side is named ``<name>_<side>``."""

    game = None
    #: How the sheet's row of the game's hints for the next hand is headed.
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
        self.specs = entry_fields(self.game)
        for spec in self.specs:
            if not spec.per_side:
                self.fields[spec.name] = _field(spec, self._choices(spec))
        for side in self.playing():
            for spec in self.specs:
                if spec.per_side:
                    self.fields[f"{spec.name}_{side}"] = _field(spec, self._choices(spec))

    def _choices(self, spec):
        if spec.kind == "side":
            return [(side, self.side_names[side]) for side in self.playing()]
        places = [(n, str(n)) for n in range(1, len(self.sides) + 1)]
        return [("", engine_words(spec.none)), *places] if spec.kind == "place" else []

    def playing(self):
        """The numbers of the sides still in play."""
        return [side for side in range(len(self.sides)) if side not in self.out]

    def blocks(self):
        """The fields grouped by side, for the template: (side, name, fields) per side."""
        return [
            (side, self.side_names[side], [self[name] for name in self.side_fields(side)])
            for side in self.playing()
        ]

    def side_fields(self, side):
        return [f"{spec.name}_{side}" for spec in self.specs if spec.per_side]

    def common_fields(self):
        """The fields that belong to no one side (shown above the sides' blocks)."""
        return [self[spec.name] for spec in self.specs if not spec.per_side]

    def picker_rows(self):
        """The cards a picker on the page taps into the form's card fields, by suit;
        none for a game entered by its numbers alone."""
        rows = getattr(self.game, "picker_rows", None)
        return rows(self.options) if rows else []

    def preview(self) -> dict:
        """What the engine makes of the cards typed so far, by side, for the page's
        picker to show before the hand is entered: nothing is stored."""
        look = getattr(self.game, "preview_cards", None)
        if look is None:
            return {}
        found = {}
        for side in self.playing():
            for spec in self.specs:
                text = (self.data.get(f"{spec.name}_{side}") or "").strip()
                if spec.kind == "cards" and text:
                    said = look(text, self.options)
                    found[side] = {
                        k: translated(v) if k == "message" else v for k, v in said.items()
                    }
        return {"sides": found}

    def values(self) -> dict:
        """The fields' values as the game reads them: one by side for each field of
        a side; a field that could not be read is left out."""
        data = self.cleaned_data
        values = {spec.name: data[spec.name] for spec in self.specs if spec.name in data}
        for spec in self.specs:
            if spec.per_side:
                named = {side: f"{spec.name}_{side}" for side in self.playing()}
                values[spec.name] = {
                    side: data[name] for side, name in named.items() if name in data
                }
        return values

    def clean(self):
        data = super().clean()
        names = {side: self.side_names[side] for side in self.playing()}
        for field, side, problem in entry_problems(self.game, self.values(), names, self.options):
            name = field if side is None else f"{field}_{side}"
            if field is None or name not in self.errors:
                self.add_error(None if field is None else name, translated(problem))
        return data

    def entry(self) -> dict:
        """The entry as the game's engine reads it."""
        return entry_from(self.game, self.values(), len(self.sides), self.options)

    def service_arguments(self) -> dict:
        return {"entry": self.entry(), "version": self.cleaned_data.get("version")}

    @classmethod
    def initial_from(cls, entry: dict) -> dict:
        """The fields filled in from a stored entry (a correction starts from it)."""
        values, initial = entry_values(cls.game, entry), {}
        for spec in entry_fields(cls.game):
            value = values.get(spec.name)
            if spec.per_side:
                initial |= {f"{spec.name}_{side}": each for side, each in (value or {}).items()}
            else:
                initial[spec.name] = value
        return initial


@cache
def _form_of(game) -> type[GameEntryForm]:
    label = getattr(game, "hint_label", "")
    return type(
        f"{type(game).__name__}EntryForm",
        (GameEntryForm,),
        {"game": game, "hint_label": engine_words(label), "__module__": __name__},
    )


def entry_form_for(party):
    """The entry form of the party's game; None for a game of party formats, whose
    hands are entered as knocks at the format's tables."""
    if party.game not in ENTRY_GAMES:
        return None
    return _form_of(ENTRY_GAMES[party.game])
