"""Every hand keeps what the engine made of it in the same two places: each side's
points (``scores``) and the facts (``facts``). Another game's facts move out of
``details["facts"]``; a hand of the party formats gets its scores and facts from
the columns it was always kept in, the way `scoring.services.keeping.FormatTables`
writes them from now on. Nothing is scored again: the points are the stored ones."""

from django.db import migrations, models


def format_scores(hand, sides: dict[int, int], count: int):
    """A hand of the party formats as scores by side and facts, from its columns
    (``sides``: seat id → side)."""
    scores = [0] * count
    winner = sides.get(hand.winner_id)
    if winner is not None and hand.points:
        scores[winner] = hand.points
    facts = {
        "kind": hand.kind or ("no_game" if hand.ending == "no_game" else ""),
        "winner": winner if hand.points else None,
        "knocker": sides.get(hand.knocker_id),
        "defender": sides.get(hand.defender_id),
        "knocker_deadwood": hand.knocker_deadwood,
        "round": hand.number,
    }
    return scores, facts


def forwards(apps, schema_editor):
    Hand = apps.get_model("scoring", "Hand")
    Seat = apps.get_model("scoring", "Seat")
    sides = dict(Seat.objects.values_list("pk", "side"))
    counts: dict[int, int] = {}
    for party_id, side in Seat.objects.values_list("party_id", "side"):
        counts[party_id] = max(counts.get(party_id, 0), side + 1)
    changed = []
    for hand in Hand.objects.all().iterator(chunk_size=2000):
        details = dict(hand.details or {})
        if hand.ending == "scored":
            hand.facts = details.pop("facts", {}) or {}
            hand.details = details
        else:
            hand.scores, hand.facts = format_scores(hand, sides, counts[hand.party_id])
        changed.append(hand)
        if len(changed) >= 2000:
            Hand.objects.bulk_update(changed, ["scores", "facts", "details"])
            changed = []
    Hand.objects.bulk_update(changed, ["scores", "facts", "details"])


def backwards(apps, schema_editor):
    Hand = apps.get_model("scoring", "Hand")
    changed = []
    for hand in Hand.objects.all().iterator(chunk_size=2000):
        if hand.ending == "scored":
            hand.details = {**(hand.details or {}), "facts": hand.facts}
        else:
            hand.scores = None
        changed.append(hand)
    Hand.objects.bulk_update(changed, ["scores", "details"])


class Migration(migrations.Migration):
    dependencies = [("scoring", "0012_game_choices_from_games")]

    operations = [
        migrations.AddField(
            model_name="hand",
            name="facts",
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.RunPython(forwards, backwards),
    ]
