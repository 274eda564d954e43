"""The campaign's revisions as the aggregate reads them (domain/campaign_revisions.py)."""

from dataclasses import dataclass

from rollbook.domain.campaign_revisions import first_unrolled_nonce, root_of


@dataclass
class Revision:
    campaign: str
    nonce: int = 0
    nonces_spent: int | None = None


def test_every_revision_belongs_to_the_campaign_players_know():
    assert root_of("tortuga") == "tortuga"
    assert root_of("tortuga@r3") == "tortuga"


def test_the_first_revision_goes_on_from_its_own_last_roll():
    assert first_unrolled_nonce(Revision("tortuga", nonce=9), lambda key: None) == 0


def test_a_later_revision_starts_where_the_rulings_left_the_first():
    revisions = {"tortuga": Revision("tortuga", nonce=4, nonces_spent=12)}
    assert first_unrolled_nonce(Revision("tortuga@r3"), revisions.get) == 12


def test_without_what_the_rulings_kept_the_earlier_revisions_say_how_far_each_rolled():
    revisions = {"tortuga": Revision("tortuga", nonce=4), "tortuga@r2": Revision("tortuga@r2", nonce=7),
                 "tortuga@r3": Revision("tortuga@r3", nonce=20)}
    assert first_unrolled_nonce(revisions["tortuga@r3"], revisions.get) == 7
    assert first_unrolled_nonce(Revision("lost@r2"), revisions.get) == 0  # its first revision is gone
