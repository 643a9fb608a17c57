"""Crude stems: one stem for the forms of a word, none shared by unrelated words."""

import pytest

from synth.support.lexical import specifics, stem


@pytest.mark.parametrize(("one", "other"), [
    ("apply", "applied"), ("reply", "replied"), ("copy", "copied"), ("eager", "eagerly"),
    ("quick", "quickly"), ("cache", "caching"), ("move", "moved"), ("pass", "passes"),
    ("rotation", "rotated"), ("stop", "stopped"),
])
def test_forms_share_a_stem(one, other):
    assert stem(one) == stem(other)


@pytest.mark.parametrize(("one", "other"), [("apply", "app"), ("reply", "rep"), ("only", "on")])
def test_a_word_ending_in_ly_is_no_adverb(one, other):
    assert stem(one) != stem(other)


def test_words_joined_by_a_slash_are_no_path():
    assert specifics("compared the before/after numbers") == set()
    assert "src/locales" not in specifics("moved the files to src/locales")
    assert "api/files" in specifics("the /api/files route")
    assert "internal/decode/pool.go" in specifics("in internal/decode/pool.go")
