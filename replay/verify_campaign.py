"""`rollbook verify` of one campaign: every revision's report, from the store alone and the checkpoints
published (replay/verify.py), each later revision held to its ruling (verify_revisions.py), and the stored
projections held to the events (verify_views.py)."""

from __future__ import annotations

from typing import Any

from ..domain.revisions import revision_key
from ..domain.errors import UnknownName
from ..domain.ids import campaign_id
from ..projections.queries import Reader
from ..store import Store
from ..store.failures import is_store_failure
from ..store.reads import has_events
from ..store.one_state import one_state
from ..store.tlog import LogTree
from ..store.tlog_rows import rows_for
from .history import campaign_events
from .verify import Finding, Report
from .verify import verify as run_verify
from .verify_revisions import check_revisions
from .verify_views import check_views


def verified(opened: Store, campaign: str, revision: int | None, published: list[Any]) -> dict[str, Report]:
    """Every revision's report (or the one asked for), from the store alone and the checkpoints published,
    all read from one state of the store while other processes write it (store/one_state.py)."""
    views = _views(opened)
    rows_for(opened)  # the tables read are made first: the one state is read in a read-only transaction
    with one_state(opened):
        return _verified(opened, campaign, revision, published, views)


def _verified(opened: Store, campaign: str, revision: int | None, published: list[Any],
              views: Any) -> dict[str, Report]:
    # No catching up: verify writes nothing, so it runs on a read-only file and a full disk.
    projected, projected_to, views = _projected(views, campaign)
    stored = _stored(opened, campaign)
    if not stored and not projected:
        raise UnknownName("no campaign {campaign!r} in this store", field="campaign", campaign=campaign)
    revisions = _revisions(opened, campaign) if stored else 1
    if revision is not None and not 1 <= revision <= revisions:
        raise UnknownName("{campaign} has revisions 1..{last}, not {revision}", field="revision", campaign=campaign,
                          last=revisions, revision=revision)
    numbers = [revision] if revision is not None else list(range(1, revisions + 1))
    held = {n: [(where, c) for where, c in published if c.revision == n] for n in numbers}
    # A checkpoint of no revision verified here is held to the last one, and named as not its own.
    held[numbers[-1]] += [(where, c) for where, c in published if c.revision not in held]
    # The projections' position is the store's, not a revision's: held once, with the first report.
    reports = {revision_key(campaign, n): run_verify(opened, revision_key(campaign, n), projected=projected,
                                                      checkpoints=held[n], projected_to=projected_to if i == 0 else None)
               for i, n in enumerate(numbers)}
    for n, found in check_revisions(opened, campaign, numbers).items():  # each revision is its ruling's
        reports[revision_key(campaign, n)].findings += found
    for key, report in reports.items():  # the tiles proofs are read from must hold the tree the chain makes
        damage = LogTree(opened, key).damage(report.chain)
        if damage is not None:
            report.findings.append(Finding(None, None, damage, campaign_id(key).hex))
    if views is not None:  # what the sheets, rolls and timeline show must be what the events make
        for key, report in reports.items():
            report.findings += check_views(opened, views, [key])
    return reports


def _revisions(opened: Store, campaign: str) -> int:
    """How many revisions the campaign has, as its rulings adopted them: read from its events, not its
    fold, so a campaign whose events cannot be folded (a finding of each report) is verified all the same."""
    adopted = campaign_events(opened, campaign, names=("RevisionAdopted",), unreadable=lambda stored, error: None)
    return max((int(event["revision"]) for _, event in adopted), default=1)


def _views(opened: Store) -> Any:
    """The store's projections; None for a store that never had them (and cannot make them)."""
    try:
        return Reader(opened).views
    except Exception as error:
        if not is_store_failure(error):
            raise
        return None


def _projected(views: Any, campaign: str) -> tuple[bool, int | None, Any]:
    """Whether the projections show the campaign, up to which position they have read, and
    the projections themselves; a store without them shows nothing."""
    if views is None:
        return False, None, None
    try:
        return views.get(campaign, "campaign", "") is not None, views.position(), views
    except Exception as error:
        if not is_store_failure(error):
            raise
        return False, None, None


def _stored(opened: Store, campaign: str) -> bool:
    return has_events(opened, campaign_id(campaign))
