"""The mails as sent: a plain-text part and an HTML part with the same words, the
club's name above them and the links as buttons; a Message-ID of the site's own
host; a long subject folded without a blank first line."""

import email
from email import policy

from clubs.mails import mail_send
from web.mail import html_blocks, mail_build

TEXT = (
    "Hello,\n\nAda invites you to organize the Knickerbocker Whist Club on Knock. "
    "Open this link to accept:\n\nhttps://knock.example.org/invitations/abc/\n\n"
    "Your seat link, to enter the hands on your phone:\nhttps://knock.example.org/table/xyz/"
)


def sent(mail):
    return email.message_from_bytes(mail.message().as_bytes(), policy=policy.default)


def test_a_mail_has_the_same_words_as_text_and_as_html_under_the_clubs_name():
    message = sent(
        mail_build(subject="Hi", text=TEXT, to=["a@example.org"], heading="Gin Club", language="de")
    )

    assert message.get_content_type() == "multipart/alternative"
    assert message.get_body(("plain",)).get_content().strip() == TEXT
    html = message.get_body(("html",)).get_content()
    assert '<html lang="de">' in html
    assert "<b>Gin Club</b>" in html
    assert "Ada invites you to organize the Knickerbocker Whist Club on Knock." in html


def test_a_link_alone_on_its_line_is_a_button_named_by_the_line_before():
    blocks = html_blocks(TEXT)

    assert blocks[2] == [{"button": "https://knock.example.org/invitations/abc/",
                          "link": "https://knock.example.org/invitations/abc/"}]  # fmt: skip
    assert blocks[3] == [{"button": "Your seat link, to enter the hands on your phone",
                          "link": "https://knock.example.org/table/xyz/"}]  # fmt: skip
    html = (
        sent(
            mail_build(subject="Hi", text=TEXT, to=["a@example.org"], heading="Club", language="en")
        )
        .get_body(("html",))
        .get_content()
    )
    assert '<a href="https://knock.example.org/table/xyz/">' in html


def test_the_message_id_is_of_the_sites_host_whatever_its_port(settings):
    settings.SITE_URL = "http://127.0.0.1:8123"

    message = sent(mail_build(subject="Hi", text="x", to=["a@example.org"], heading="C",
                              language="en"))  # fmt: skip

    assert message["Message-ID"].endswith("@127.0.0.1>")


def test_a_long_subject_is_folded_without_a_blank_first_line():
    subject = "Ihre Saison: Herbst 2026 – Knickerbocker Whist Club, die Tabelle nach dem Spieltag"

    raw = mail_build(subject=subject, text="x", to=["a@example.org"], heading="C", language="de")
    raw = raw.message().as_bytes().decode()

    line = next(line for line in raw.splitlines() if line.startswith("Subject:"))
    assert line.startswith("Subject: =?utf-8?")
    assert email.message_from_string(raw, policy=policy.default)["Subject"] == subject


def test_an_account_mail_goes_out_as_text_and_html(mailoutbox, settings):
    settings.SITE_URL = "https://knock.example.org"
    context = {"club": "Gin Club", "by": "Ada", "link": "https://knock.example.org/i/1/", "days": 7}

    assert mail_send(to="o@example.org", template="invitation", context=context, language="en")

    (mail,) = mailoutbox
    message = sent(mail)
    assert "https://knock.example.org/i/1/" in message.get_body(("plain",)).get_content()
    html = message.get_body(("html",)).get_content()
    assert "<b>Gin Club</b>" in html
    assert '<a href="https://knock.example.org/i/1/">' in html
    assert message["Message-ID"].endswith("@knock.example.org>")
