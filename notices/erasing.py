"""What the notices keep of a player erased at his club (`seasons.erasure`): the
words of every notice that named him (a sheet mailed to his opponents, "Zelda
Quixotic: +332"), the phones he let Knock push to, his choices, and what a
refused mail said of his address. The notices stay, as the club's log of what
was sent; only his name and address leave them."""

from django.db.models import Q

from notices.models import Choice, Notice, PushSubscription


def _replaced(text: str, erased) -> str:
    text = erased.named.sub(erased.new_name, text)
    for address in erased.addresses:
        text = text.replace(address, "")
    return text


def notices_erased(erased) -> None:
    """Runs inside the erasure's transaction (`seasons.erasure.after_erasure`)."""
    player = erased.player
    PushSubscription.objects.filter(player=player).delete()
    Choice.objects.filter(player=player).delete()
    naming = Q(subject__contains=erased.old_name) | Q(body__contains=erased.old_name)
    for address in erased.addresses:
        naming |= Q(error__contains=address)
    found = Notice.objects.filter(Q(club=erased.club) | Q(player=player)).filter(naming)
    for notice in found.only("pk", "subject", "body", "error"):
        Notice.objects.filter(pk=notice.pk).update(
            subject=_replaced(notice.subject, erased)[:200],
            body=_replaced(notice.body, erased),
            error=_replaced(notice.error, erased),
        )
