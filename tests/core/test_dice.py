"""The shared dice: typed results, the documented face order, and the three face sources."""

import hashlib
import hmac
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rollbook.domain.dice import (
    HmacFaces, Modifier, SeededFaces, TypedFaces, recompute_faces, roll_pool, sum_roll,
)
from rollbook.domain.errors import DiceError


def test_a_roll_prints_like_a_forum_roller():
    roll = sum_roll(TypedFaces([5, 3]), 2, 6, [Modifier("audacity", 2)])
    assert roll.total == 10
    assert str(roll) == "2d6 = [5, 3] + 2 = 10"


def test_keep_highest_keeps_the_dropped_die_in_the_tree():
    roll = sum_roll(TypedFaces([2, 5, 6]), 3, 6, [Modifier("foresight", 1)], keep_highest=2)
    assert roll.total == 12
    assert [d.kept for d in roll.dice] == [False, True, True]
    assert str(roll) == "3d6kh2 = [~~2~~, 5, 6] + 1 = 12"


def test_keep_lowest():
    assert sum_roll(TypedFaces([2, 5, 6]), 3, 6, keep_lowest=2).total == 7


def test_exploding_pool_rolls_the_pool_first_then_rerolls_round_by_round():
    # two d6 show 6 and 6; round one re-rolls both (6, 2); round two re-rolls the first again (1).
    dice = roll_pool(TypedFaces([6, 6, 6, 2, 1]), 2, 6, explode=True)
    assert [d.faces for d in dice] == [(6, 6, 1), (6, 2)]
    assert [d.total for d in dice] == [13, 8]
    assert str(dice[0]) == "6!6!1"


def test_typed_faces_refuse_an_impossible_face_and_say_which():
    with pytest.raises(DiceError, match="face 2 is 7, impossible on a d6"):
        sum_roll(TypedFaces([3, 7]), 2, 6)


def test_typed_faces_say_how_many_were_missing_or_left_over():
    with pytest.raises(DiceError, match="more dice than the 1 faces given"):
        sum_roll(TypedFaces([3]), 2, 6)
    faces = TypedFaces([3, 4, 5])
    sum_roll(faces, 2, 6)
    with pytest.raises(DiceError, match="3 faces given but the command rolled 2"):
        faces.check_all_used()


def test_hmac_faces_are_reproducible_from_the_seed():
    seed = bytes(range(32))
    source = HmacFaces(seed, "black-sails", 7)
    faces = [source.face(6) for _ in range(5)] + [source.face(20)]
    assert faces == recompute_faces(seed, "black-sails", 7, [6] * 5 + [20])
    assert faces != recompute_faces(seed, "black-sails", 8, [6] * 5 + [20])


def test_hmac_faces_are_uniform_enough():
    source = HmacFaces(b"k" * 32, "c", 0)
    counts = Counter(source.face(6) for _ in range(6000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert all(850 < n < 1150 for n in counts.values())


@given(st.integers(min_value=2, max_value=100), st.integers(min_value=0, max_value=10**6))
def test_every_face_is_on_the_die(sides, seed):
    assert 1 <= SeededFaces(seed).face(sides) <= sides
    assert 1 <= HmacFaces(seed.to_bytes(8, "big"), "c", seed).face(sides) <= sides


def test_a_salt_changes_the_faces_and_an_unsalted_roll_is_exactly_as_before():
    seed = bytes(range(32))
    # Same seed, nonce and cursor; two salts: different faces.
    first = recompute_faces(seed, "black-sails", 3, [6] * 8, salt="post 1041 lantern rope")
    second = recompute_faces(seed, "black-sails", 3, [6] * 8, salt="post 1041 lantern ropes")
    assert first != second and first == recompute_faces(seed, "black-sails", 3, [6] * 8, salt="post 1041 lantern rope")
    # Unsalted: HMAC-SHA256(seed, "campaign:nonce:cursor"), the message stores made before salts exist use.
    block = hmac.new(seed, b"black-sails:3:0", hashlib.sha256).digest()
    assert HmacFaces(seed, "black-sails", 3).face(2**32) == int.from_bytes(block[:8], "big") % 2**32 + 1
