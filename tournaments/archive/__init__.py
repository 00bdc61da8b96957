"""A whole tournament, or a club night, as one JSON archive: everything needed to
bring it back on another Knock (a backup, a move to a new server) with nothing
lost — every party with its seats, hands and audit record, and for a tournament
its entrants, rounds (seeds, draws, explanations), tables and seatings.

Players are written by name, with their place in the club (member, guest, or
none for a tournament's walk-in); importing into a club reuses its player of the
same name, else adds them to the member list (into the club's record, unlisted)
or, for a walk-in, makes a bare player. Rows get new ids on import; within the
archive things refer to each other by the archive's own numbers. Seat links are
kept, so the printed table cards still work, unless the link is taken on the new
server. A cancelled party comes back cancelled, counted nowhere, as it was."""
