"""The lines a carried part changed by (scoring/carried.py): applied to the text
the page holds, they make the new text exactly, whatever the two texts."""

from hypothesis import given
from hypothesis import strategies as st

from scoring.carried import edits, patched

# Lines of a rendered part: few distinct ones, so that the texts share most lines
# (as two boards do), and some empty, as a template's blank lines.
line = st.sampled_from(["", "<tr>", "</tr>", "<td>1</td>", "<td>18</td>", "  <td>Ana</td>"])
text = st.lists(line, max_size=40).map("\n".join)


@given(text, text)
def test_the_edits_make_the_new_text_from_the_old(old, new):
    assert patched(old, edits(old, new)) == new


@given(text)
def test_an_unchanged_text_has_no_edits(old):
    assert edits(old, old) == []


def test_a_changed_line_is_carried_alone():
    old = "\n".join(f"<td>{n}</td>" for n in range(500))
    new = old.replace("<td>250</td>", "<td>18</td>")
    assert edits(old, new) == [[250, 251, ["<td>18</td>"]]]
