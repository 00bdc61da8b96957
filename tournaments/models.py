"""A tournament as stored: who entered, the rounds, and the tables each round plays.

The pairing and standings rules live in `tournaments.engine`; results are never
stored here: every table plays a party of `scoring`, and the standings are read
from those parties."""

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scoring.engine.games import GAMES
from scoring.models import DEFAULT_GAME, game_choices
from tournaments.engine.formats import DEFAULT_FORMAT


class Tournament(models.Model):
    class Format(models.TextChoices):
        SWISS = "swiss", _("Swiss system")
        ROUND_ROBIN = "round_robin", _("round robin")
        PLANNED = "planned", _("planned ahead (mixer)")
        KNOCKOUT = "knockout", _("knockout")

    class Status(models.TextChoices):
        REGISTRATION = "registration", _("registration")
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")

    club = models.ForeignKey(
        "clubs.Club", verbose_name=_("club"), on_delete=models.PROTECT, related_name="tournaments"
    )
    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("short name"), max_length=60, unique=True)
    date = models.DateField(_("date"), default=timezone.localdate)
    format = models.CharField(_("format"), max_length=16, choices=Format, default=DEFAULT_FORMAT)
    # What every table plays: Gin Rummy (two at a table, plus/minus standings) or one
    # of the other games of seed 003 at tables of three to six (issue 28; points by
    # place, `tournaments.engine.table_points`).
    game = models.CharField(
        _("card game"), max_length=32, choices=game_choices, default=DEFAULT_GAME
    )
    # Another game's options as its engine settled them at creation (`settle_options`),
    # copied onto every table's party; empty for Gin Rummy, whose rules are ``ruleset``.
    game_options = models.JSONField(_("game options"), default=dict, blank=True)
    # Players per table for another game (3 to 6); empty for Gin Rummy (two).
    table_size = models.PositiveSmallIntegerField(_("players per table"), null=True, blank=True)
    ruleset = models.CharField(_("rules"), max_length=40, default="classic")
    target = models.PositiveSmallIntegerField(_("party target"), default=100)
    # Empty: the seed's table for the number of entrants checked in at the start.
    rounds = models.PositiveSmallIntegerField(_("rounds"), null=True, blank=True)
    bye_value = models.IntegerField(_("points for a bye"), default=0)
    forfeit_value = models.IntegerField(
        _("points for a forfeit"),
        default=100,
        help_text=_("Plus for the player who came, minus for the one who did not."),
    )
    confirmation_required = models.BooleanField(_("opponent confirms each hand"), default=True)
    public_pairings = models.BooleanField(_("pairings are public"), default=True)
    public_standings = models.BooleanField(_("standings are public"), default=True)
    public_results = models.BooleanField(_("results are public"), default=True)
    round_minutes = models.PositiveSmallIntegerField(
        _("time limit per round (minutes)"), null=True, blank=True
    )
    status = models.CharField(
        _("status"), max_length=16, choices=Status, default=Status.REGISTRATION
    )
    # The final card draw that gives every player a place of his own, if wanted.
    final_seed = models.BigIntegerField(null=True, blank=True)
    final_draws = models.JSONField(_("final card draw"), default=list, blank=True)
    # The secret of the self check-in link on the QR code at the door; empty while
    # the organizer has not opened self check-in. A new link replaces the old one.
    # NULL, not "": tournaments without a link never collide in the unique index.
    door_token = models.CharField(max_length=64, null=True, blank=True, unique=True)
    # An evening planned ahead (`TournamentFormat.plans_ahead`): every round as
    # planned, [{"tables": [[entrant id, …] in seat order, …], "byes": [id, …]}, …];
    # the rounds not yet played are re-planned when the field changes
    # (`tournaments.planned`). Empty for every other format.
    plan = models.JSONField(_("planned rounds"), default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-date", "name"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")

    def __str__(self):
        return self.name

    @property
    def plays_at_tables(self) -> bool:
        """A game without party formats (`Game.formats`), whose hands are its own
        entry: tables of three to six, points by place. A game with them (Gin
        Rummy) is played two at a table, plus/minus."""
        return not GAMES[self.game].formats

    @property
    def draws_for_ties(self) -> bool:
        """Whether entrants tied on points draw cards (`Game.draws_for_ties`)."""
        return GAMES[self.game].draws_for_ties


class Entrant(models.Model):
    """A player in a tournament: a member or a guest, both `clubs.Player` rows."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entrants")
    player = models.ForeignKey(
        "clubs.Player", verbose_name=_("player"), on_delete=models.PROTECT, related_name="entries"
    )

    class By(models.TextChoices):
        ORGANIZER = "organizer", _("by the organizer")
        SELF = "self", _("on their own phone")

    checked_in = models.BooleanField(_("checked in"), default=False)
    # How and when he was checked in (empty while he is not): shown at the desk.
    checked_in_by = models.CharField(_("checked in"), max_length=16, choices=By, blank=True)
    checked_in_at = models.DateTimeField(_("checked in at"), null=True, blank=True)
    # The first round he can be paired in: 1, or later for a late entrant.
    joined_round = models.PositiveSmallIntegerField(_("joined in round"), default=1)
    # The last round he was paired in; empty while he plays on.
    withdrawn_after = models.PositiveSmallIntegerField(
        _("withdrawn after round"), null=True, blank=True
    )

    class Meta:
        ordering = ["tournament", "player__name"]
        verbose_name = _("entrant")
        verbose_name_plural = _("entrants")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="one_entry_per_player"),
        ]

    def __str__(self):
        return str(self.player)

    @property
    def club(self):
        return self.tournament.club


class Round(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("waiting to be paired")
        PAIRING = "pairing", _("being paired")
        STUCK = "stuck", _("no pairing without a rematch")
        PLAYING = "playing", _("playing")
        CLOSED = "closed", _("closed")

    class How(models.TextChoices):
        LOT = "lot", _("by lot")
        SWISS = "swiss", _("Swiss rule")
        FEWEST_REMATCHES = "fewest", _("fewest rematches")
        SCHEDULE = "schedule", _("round-robin schedule")
        TABLES = "tables", _("tables with the fewest repeat meetings")
        PLANNED = "planned", _("planned ahead")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField(_("round"))
    status = models.CharField(_("status"), max_length=16, choices=Status, default=Status.PENDING)
    how = models.CharField(_("paired"), max_length=16, choices=How, blank=True)
    # Every random choice of the round (lots, card draws, the parties' seat draws)
    # comes from this seed, so it can be shown and replayed.
    seed = models.BigIntegerField(_("random seed"))
    # Entrant ids, best first: the standings the round was paired from.
    standings = models.JSONField(_("standings used"), default=list, blank=True)
    # Their plus/minus points then, by entrant id (JSON keys are strings).
    points = models.JSONField(_("points then"), default=dict, blank=True)
    # [{"entrant": id, "cards": ["KH", …], "by": "knock" | "venue", "points": the tie}],
    # best first per tie (draws stored before "points" was kept lack it).
    draws = models.JSONField(_("card draws"), default=list, blank=True)
    # One `tournaments.engine.explain.Line` per table (as dicts).
    explanation = models.JSONField(_("explanation"), default=list, blank=True)
    problem = models.TextField(_("problem"), blank=True)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        constraints = [
            # Pairing the same round twice can never make a second round.
            models.UniqueConstraint(fields=["tournament", "number"], name="one_round_per_number"),
        ]

    def __str__(self):
        return f"{self.tournament} – {self.number}"

    @property
    def club(self):
        return self.tournament.club


class Table(models.Model):
    """One board of a round: two entrants and their party (three to six in a
    tournament of another game), or one entrant's bye.

    Who sits here is in `Seating`; ``absent`` is the side (0 or 1) that did not
    turn up (a forfeit, at a table of two)."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(_("table"))
    bye = models.BooleanField(_("bye"), default=False)
    absent = models.PositiveSmallIntegerField(_("no-show (side)"), null=True, blank=True)
    party = models.OneToOneField(
        "scoring.Party",
        verbose_name=_("party"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="tournament_table",
    )

    class Meta:
        ordering = ["round", "number"]
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="one_table_per_number"),
            models.CheckConstraint(
                condition=Q(absent__isnull=True) | Q(absent__in=[0, 1], bye=False),
                name="absent_is_a_side_of_a_game",
            ),
        ]

    def __str__(self):
        return f"{self.round} – {self.number}"

    @property
    def club(self):
        return self.round.tournament.club


class Seating(models.Model):
    """An entrant at a table: side 0 is the higher placed (listed first). At a table
    of another game (three to six) ``side`` is the seat, 0 to 5, in standings
    order: the order the party's players sit in."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="seatings")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seatings")
    entrant = models.ForeignKey(Entrant, on_delete=models.PROTECT, related_name="seatings")
    side = models.PositiveSmallIntegerField(_("side"))

    class Meta:
        ordering = ["table", "side"]
        verbose_name = _("seating")
        verbose_name_plural = _("seatings")
        constraints = [
            models.UniqueConstraint(fields=["round", "entrant"], name="one_table_per_entrant"),
            models.UniqueConstraint(fields=["table", "side"], name="one_entrant_per_side"),
            models.CheckConstraint(condition=Q(side__lte=5), name="side_is_a_seat_of_six"),
        ]

    def __str__(self):
        return f"{self.entrant} @ {self.table}"


class KeptResult(models.Model):
    """What one seat at a table adds to its entrant's line of the standings, kept
    so that the standings of a thousand entrants add up kept rows instead of
    reading every table and party again (`tournaments.kept`). ``entrant``,
    ``party``, ``changes`` and ``absent`` say what it was worked out from (the
    seat's entrant, the table's party and its count of changes, `Party.changes`,
    and the side that did not come, -1 for none): a seat whose table has moved on
    since is worked out again. Derived data only: deleting every row loses nothing."""

    seating = models.OneToOneField(
        Seating, primary_key=True, on_delete=models.CASCADE, related_name="kept"
    )
    entrant = models.PositiveIntegerField()
    party = models.PositiveIntegerField()  # 0: no party
    changes = models.PositiveIntegerField()
    absent = models.SmallIntegerField()
    # Gin Rummy: the party's plus/minus; at tables of another game: the tournament
    # points of the place. A bye's and a forfeit's value are the tournament's
    # settings, added when the lines are read: they may change.
    points = models.IntegerField(default=0)
    score = models.IntegerField(default=0)  # at tables: the margin
    won = models.PositiveSmallIntegerField(default=0)
    games = models.PositiveSmallIntegerField(default=0)  # 1 once the result is in
    byes = models.PositiveSmallIntegerField(default=0)
    forfeits = models.SmallIntegerField(default=0)  # +1 the opponent did not come, -1 did not come

    class Meta:
        verbose_name = _("kept result")
        verbose_name_plural = _("kept results")

    def __str__(self):
        return f"{self.seating_id} at {self.party}/{self.changes}"


class KeepApart(models.Model):
    """Two entrants who should not meet (family, partners): paired like a
    previous meeting. Stored with the lower id first, so a pair is stored once."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="apart")
    first = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="+")
    second = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="+")

    class Meta:
        verbose_name = _("pair kept apart")
        verbose_name_plural = _("pairs kept apart")
        constraints = [
            models.UniqueConstraint(fields=["first", "second"], name="keep_apart_once"),
            models.CheckConstraint(condition=Q(first__lt=F("second")), name="keep_apart_ordered"),
        ]

    def __str__(self):
        return f"{self.first} / {self.second}"

    @property
    def club(self):
        return self.tournament.club


class CheckIn(models.Model):
    """Append-only: every check-in and check-out of an entrant, by whom (the
    organizer, or the player on his phone with the door link) and from where.
    Nothing it refers to can be deleted while it exists (``PROTECT``)."""

    entrant = models.ForeignKey(Entrant, on_delete=models.PROTECT, related_name="check_ins")
    checked_in = models.BooleanField(_("checked in"))
    by = models.CharField(_("by"), max_length=16, choices=Entrant.By)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    address = models.GenericIPAddressField(_("address"), null=True, blank=True)
    at = models.DateTimeField(_("when"), default=timezone.now, editable=False)

    class Meta:
        ordering = ["at", "pk"]
        verbose_name = _("check-in")
        verbose_name_plural = _("check-ins")

    def __str__(self):
        return f"{self.at:%Y-%m-%d %H:%M:%S} {self.entrant} {self.checked_in}"


class TournamentRecord(models.Model):
    """Append-only: what the organizer did to a tournament's results and pairings,
    and what he took back. Like the parties' audit records, the tournament cannot be
    deleted while it has records, and on PostgreSQL a trigger refuses every UPDATE
    and DELETE of its rows (migration 0003)."""

    class Action(models.TextChoices):
        FORFEIT = "forfeit", _("forfeit recorded")
        FORFEIT_UNDONE = "forfeit_undone", _("forfeit taken back")
        WITHDRAWN = "withdrawn", _("entrant withdrawn")
        REINSTATED = "reinstated", _("entrant reinstated")
        APART = "apart", _("pair kept apart")
        APART_REMOVED = "apart_removed", _("pair no longer kept apart")
        ROUND_UNDONE = "round_undone", _("round undone")
        FINISHED = "finished", _("tournament finished")
        VENUE_DRAW = "venue_draw", _("cards drawn at the venue entered")
        FINAL_ADDED = "final_added", _("final added")
        FINAL_REMOVED = "final_removed", _("final removed")
        FINAL_STARTED = "final_started", _("final started")
        FINAL_UNDONE = "final_undone", _("start of the final undone")
        MATCH_FORFEIT = "match_forfeit", _("match forfeit recorded")
        MATCH_UNFORFEIT = "match_unforfeit", _("match forfeit taken back")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.PROTECT, related_name="records", verbose_name=_("tournament")
    )
    action = models.CharField(_("action"), max_length=16, choices=Action)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    address = models.GenericIPAddressField(_("address"), null=True, blank=True)
    # What changed, in words that stay true after the rows change: names, round and
    # table numbers (an undone round's tables are gone).
    details = models.JSONField(_("details"), default=dict, blank=True)
    at = models.DateTimeField(_("when"), default=timezone.now, editable=False)

    class Meta:
        ordering = ["at", "pk"]
        verbose_name = _("tournament record")
        verbose_name_plural = _("tournament records")

    def __str__(self):
        return f"{self.at:%Y-%m-%d %H:%M:%S} {self.get_action_display()}"


class FinalStage(models.Model):
    """A knockout final after the qualifying rounds (or instead of them: a knockout
    tournament). The bracket is `Match` rows; who won each is read from their
    games' parties, like a round's tables."""

    class Seeding(models.TextChoices):
        STANDINGS = "standings", _("by the standings")
        RATING = "rating", _("by rating")
        LOT = "lot", _("by lot")

    class Status(models.TextChoices):
        PLANNED = "planned", _("planned")
        PLAYING = "playing", _("playing")
        FINISHED = "finished", _("finished")

    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, related_name="final_stage"
    )
    # Empty: every entrant checked in at the start qualifies (a knockout tournament).
    qualifiers = models.PositiveSmallIntegerField(_("qualifiers"), null=True, blank=True)
    best_of = models.PositiveSmallIntegerField(_("games per match (best of)"), default=1)
    third_place = models.BooleanField(_("match for third place"), default=False)
    # Entrant ids, seed 1 first: fixed when the final starts.
    seeds = models.JSONField(_("seeds"), default=list, blank=True)
    seeding = models.CharField(
        _("seeded"), max_length=16, choices=Seeding, default=Seeding.STANDINGS
    )
    # The lot (seeding by lot, or ratings tied) and the games' seat draws come from it.
    seed = models.BigIntegerField(_("random seed"))
    status = models.CharField(_("status"), max_length=16, choices=Status, default=Status.PLANNED)

    class Meta:
        verbose_name = _("final")
        verbose_name_plural = _("finals")
        constraints = [
            models.CheckConstraint(condition=Q(best_of__in=[1, 3]), name="best_of_1_or_3"),
        ]

    def __str__(self):
        return f"{self.tournament} – {self._meta.verbose_name}"

    @property
    def club(self):
        return self.tournament.club


class Match(models.Model):
    """One match of the bracket: ``first`` is the better seed (side 0). A bye has no
    ``second`` and ``first`` as its winner; ``absent`` is the side that did not come
    (the other wins the match)."""

    stage = models.ForeignKey(FinalStage, on_delete=models.CASCADE, related_name="matches")
    round = models.PositiveSmallIntegerField(_("round"))
    slot = models.PositiveSmallIntegerField(_("position"))
    third_place = models.BooleanField(_("for third place"), default=False)
    first = models.ForeignKey(
        Entrant, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    second = models.ForeignKey(
        Entrant, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    winner = models.ForeignKey(
        Entrant, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    absent = models.PositiveSmallIntegerField(_("no-show (side)"), null=True, blank=True)

    class Meta:
        ordering = ["stage", "third_place", "round", "slot"]
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        constraints = [
            models.UniqueConstraint(
                fields=["stage", "round", "slot", "third_place"], name="one_match_per_place"
            ),
            models.CheckConstraint(
                condition=Q(absent__isnull=True) | Q(absent__in=[0, 1], second__isnull=False),
                name="match_absent_is_a_side",
            ),
        ]

    def __str__(self):
        return f"{self.stage} – {self.round}/{self.slot}"

    @property
    def bye(self) -> bool:
        return self.second_id is None

    @property
    def club(self):
        return self.stage.tournament.club


class MatchGame(models.Model):
    """One game of a match: a two-player party, like a round's table."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveSmallIntegerField(_("game"))
    party = models.OneToOneField(
        "scoring.Party", on_delete=models.PROTECT, related_name="match_game"
    )

    class Meta:
        ordering = ["match", "number"]
        verbose_name = _("game")
        verbose_name_plural = _("games")
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="one_game_per_number"),
        ]

    def __str__(self):
        return f"{self.match} – {self.number}"
