"""A whole tournament, or a club night, as one JSON archive: everything needed to
bring it back on another Knock (a backup, a move to a new server) with nothing
lost — every party with its seats, hands and audit record, and for a tournament
its entrants, rounds (seeds, draws, explanations), tables and seatings. Every
party comes in one shape whatever its game (`parties`): its game and rules or
options, and each hand as the table entered it, what its game scored and the
confirmations so far; a tournament with its game, options and table size.
Archives are written as version 3; those of versions 1 (Gin Rummy only) and 2
(each kind of party in a shape of its own) are read into the shape of 3 first
(`older`, `export.VERSIONS`).

Players are written by name, with their place in the club (member, guest, or
none for a tournament's walk-in); importing into a club reuses its player of the
same name, else adds them to the member list (into the club's record, unlisted)
or, for a walk-in, makes a bare player. Rows get new ids on import; within the
archive things refer to each other by the archive's own numbers. Seat links are
made new (whoever holds the archive holds its links), and the tournament lands in
the importer's club. An organizer who decided a hand is named as the club's pages
name them, by their player's name, never by their login (often an e-mail address, and
any organizer downloads an archive); the import credits the club's member of
that name. A cancelled party comes back cancelled, counted nowhere, as
it was.

What an archive may hold is `schema` (its parties `parties`, its bounded values
`fields`); what its parts must say about each other, `references`; why one is
refused, in the reader's language, `refusals`."""
