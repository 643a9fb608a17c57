"""Units: sentences and clauses of an event, as the rules of meaning read them."""

import pytest

from synth.support.units import is_figure, key_tokens, sentences


@pytest.mark.parametrize(("text", "expected"), [
    # a numbered list marker stays with its item
    ("Two options:\n1. Switch to insert_overwrite. Fast.\n2. Keep merge.",
     ["Two options:", "1. Switch to insert_overwrite.", "Fast.", "2. Keep merge."]),
    # a code span is never cut, even by its own "..."
    ("Use `INSERT ... ON CONFLICT DO NOTHING` here. Then rerun.",
     ["Use `INSERT ... ON CONFLICT DO NOTHING` here.", "Then rerun."]),
    # a bold lettered bullet is one sentence; a bare "A." reply picks option A
    ("- **A.** Unique index\n- **B.** Redis lock", ["- **A.** Unique index", "- **B.** Redis lock"]),
    ("A. and no redis please", ["A.", "and no redis please"]),
])
def test_sentences(text, expected):
    assert sentences(text) == expected


def test_a_time_of_day_is_one_figure():
    assert key_tokens("rolled out at 14:48, queue hit 0 at 15:21") == (
        "roll", "14:48", "queu", "hit", "0", "15:21")
    assert is_figure("14:10") and not is_figure("14:10:05")
