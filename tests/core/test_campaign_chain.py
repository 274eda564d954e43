"""The campaign's command log as the aggregate keeps it (domain/campaign_chain.py): in order, and its tree."""

from datetime import UTC, datetime

import pytest

from rollbook.domain.campaign_chain import check_in_order, extend_tree, tree_root
from rollbook.domain.errors import RuleViolation
from rollbook.domain.transparency.merkle import EMPTY_ROOT, root_of
from rollbook.domain.transparency.proof import command_leaf


def test_a_command_dated_before_the_last_is_refused_and_one_at_or_after_it_is_not():
    last = "2026-03-01T12:00:00+00:00"
    with pytest.raises(RuleViolation, match="earlier than the campaign's last command") as refused:
        check_in_order(last, datetime(2026, 3, 1, 11, 59, tzinfo=UTC))
    assert refused.value.field == "at"
    check_in_order(last, datetime(2026, 3, 1, 12, 0, tzinfo=UTC))
    check_in_order(None, datetime(2000, 1, 1, tzinfo=UTC))  # no command yet


def test_the_tree_kept_command_by_command_has_the_root_of_all_its_leaves():
    tree: list[str] = []
    assert tree_root(tree) == EMPTY_ROOT.hex()
    chains = [f"{n:064x}" for n in range(1, 6)]
    for seq, chain in enumerate(chains, start=1):
        extend_tree(tree, seq - 1, seq, chain)
        leaves = [command_leaf(s, c) for s, c in enumerate(chains[:seq], start=1)]
        assert tree_root(tree) == root_of(leaves).hex()
    assert len(tree) == 2  # 5 commands: a subtree of 4 and one of 1


def test_an_unknown_tree_stays_unknown():
    extend_tree(None, 2, 3, "0" * 64)
    assert tree_root(None) is None


def test_a_command_that_does_not_follow_the_last_cannot_extend_the_tree():
    """An edited `seq` (issue 44, t38): a one-line refusal, not an IndexError deep in the Merkle append."""
    with pytest.raises(ValueError, match="command 500 is recorded after command 14: its seq was edited"):
        extend_tree([], 14, 500, "0" * 64)
