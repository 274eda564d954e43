"""The games' refusals in Russian and English (issue 49): every refusal raised in the listed directories is a
template the catalog translates (never an f-string Babel skips), and real refusals of each game, made by posting
bad commands to a campaign of it, read in the original's words in Russian and unchanged in English."""

import contextlib
import io
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir

import rollbook
from rollbook.domain.errors import Count, RuleViolation, Word
from rollbook.language import refusal, speaking
from tests.gladiators.gladiator_builders import START, enemy, gladiator, turn
from tests.heroes.heroes_builders import hero
from tests.implant.implant_builders import boss, ganger
from tests.implant.implant_builders import hero as implant_hero
from tests.language.test_catalog import KEYWORDS, catalog
from tests.pirates.pirates_crew import crew, harm, luck, roll, step

ROOT = Path(rollbook.__file__).parent
#: Where every refusal is a translatable template; a layer joins the list once its refusals are templates.
TRANSLATED = ("domain",)
#: Babel's word (on stderr) for a marked call it cannot extract because its message is an f-string.
SKIPPED_FSTRING = "Skipping f-string with substitutions"


def extraction(directory: str) -> tuple[set[str], str]:
    """The messages Babel extracts from `directory` with README's keywords, and what it warned of."""
    warnings = io.StringIO()
    with contextlib.redirect_stderr(warnings):
        extracted = extract_from_dir(ROOT / directory, [("**.py", "python")], keywords=KEYWORDS)
        found = {message[0] if isinstance(message, tuple) else message for _, _, message, _, _ in extracted}
    return found, warnings.getvalue()


@pytest.mark.parametrize("directory", TRANSLATED)
def test_every_refusal_is_a_template_babel_extracts(directory: str) -> None:
    _, warned = extraction(directory)
    assert [line for line in warned.splitlines() if SKIPPED_FSTRING in line] == []


@pytest.mark.parametrize("directory", TRANSLATED)
def test_every_refusal_has_its_russian(directory: str) -> None:
    found, _ = extraction(directory)
    known = {message.id[0] if isinstance(message.id, tuple) else message.id for message in catalog() if message.id}
    assert len(found) > 300  # the refusals of the core and of the four games, not nothing
    assert sorted(found - known) == []


def said_both_ways(error: Exception) -> tuple[str, str]:
    """A refusal as a Russian reader reads it, and as an English one does."""
    with speaking("ru"):
        russian = refusal(error)
    with speaking("en"):
        english = refusal(error)
    return russian, english


@pytest.mark.parametrize(("amount", "russian"), [
    (1, "1 пункт фарта"), (3, "3 пункта фарта"), (5, "5 пунктов фарта"), (21, "21 пункт фарта")])
def test_a_counted_value_takes_the_plural_form_of_the_readers_language(amount: int, russian: str) -> None:
    """L43: «1 фарт за 1 рану»; L46: «потратив 1 пункт фарта»."""
    error = RuleViolation("{character} has {luck} and cannot absorb {absorb_with_luck} wounds with it (L43)",
                          character="Anna", luck=Count(amount, "{count} luck", "{count} luck"), absorb_with_luck=30)
    assert said_both_ways(error) == (f"у Anna {russian} — не хватит, чтобы избежать ран: 30 (L43)",
                                     f"Anna has {amount} luck and cannot absorb 30 wounds with it (L43)")
    assert error.message == f"Anna has {amount} luck and cannot absorb 30 wounds with it (L43)"


def test_a_games_word_is_translated_and_a_typed_name_is_not() -> None:
    error = RuleViolation("{kind} {name!r} already exists in {campaign}", kind=Word("character"), name="Сhaika",
                          campaign="silver-fleet")
    assert said_both_ways(error) == ("персонаж 'Сhaika' уже есть в silver-fleet",
                                     "character 'Сhaika' already exists in silver-fleet")


def refused(campaign, command) -> Exception:
    campaign.when(command)
    campaign.then_rejected()
    return campaign.error


def test_the_pirates_refusals_say_luck_ambush_and_the_sea_in_the_originals_words(campaign) -> None:
    """фарт (L38-L46), жетоны засады (L56), «в море» (L146-L151); the crew's ship starts at sea."""
    crew(campaign, anna_luck=1)
    assert said_both_ways(refused(campaign, harm("Anna", 2, absorb_with_luck=2))) == (
        "у Anna 1 пункт фарта — не хватит, чтобы избежать ран: 2 (L43)",
        "Anna has 1 luck and cannot absorb 2 wounds with it (L43)")
    campaign.given(step("start_scene", enemy="Governor"), step("gain_ambush_token", character="Anna"))
    assert said_both_ways(refused(campaign, step("spend_ambush_token", character="Anna", enemy="Kraken"))) == (
        "у Anna нет жетона засады против 'Kraken' (есть: Governor ×1); жетон действует только против своего "
        "противника (L56)",
        "Anna has no ambush token against 'Kraken' (held: Governor ×1); a token works only against its own enemy (L56)")
    russian, english = said_both_ways(refused(campaign, step("put_to_sea", ship="Chaika")))
    assert (russian, english) == ("Chaika уже в море", "Chaika is already at sea")


def test_a_limits_refusal_says_the_rule_in_the_originals_words(campaign) -> None:
    """L45: «+1 к результату проверки (только 1 пункт за ход)»."""
    crew(campaign, anna_luck=3)
    campaign.given(roll("Anna", "guile", [3, 3], luck_bonus=True, id="r1"))
    russian, english = said_both_ways(refused(campaign, luck("Anna", "roll_bonus")))
    assert russian == ("пират может потратить фарт на +1 к своей проверке: только один раз в пределах: ход (r1) "
                       "(L45); уже использовано: 1")
    assert english == "a pirate may spend luck for +1 to his own roll: only once per move (r1) (L45); already used 1"


def test_the_heroes_refusals_say_resolve_in_the_originals_words(campaign) -> None:
    """Решимость (L77-L84, L105): 0 Решимости, never below."""
    campaign.of("heroes", trait_limit=3)
    campaign.given(hero("Ann"))
    campaign.dice(1, 1, 1).given({"type": "roll_check", "character": "Ann", "trait": "will"})
    error = refused(campaign, {"type": "spend_resolve", "character": "Ann", "purpose": "reroll"})
    russian, english = said_both_ways(error)
    assert russian.startswith("у Ann 0 Решимости, потратить 1 нельзя (")
    assert russian.endswith("); Решимость не опускается ниже 0 (L84, L105)")
    assert english == error.message and english.startswith("Ann has 0 Resolve and cannot spend 1 (")


def test_the_implant_refusals_say_bennies_and_shaken_in_the_originals_words(campaign) -> None:
    """фишки (L63), шок (L65, L110)."""
    campaign.of("implant").given(implant_hero(), boss("Kessler"), ganger("A"), {"type": "start_scene"})
    benny = {"type": "spend_benny", "character": "Vera"}
    assert said_both_ways(refused(campaign, {**benny, "purpose": "unshake"})) == (
        "Vera не в шоке (L65)", "Vera is not Shaken (L65)")
    campaign.given(*[{**benny, "purpose": "energy"}] * 3)
    russian, english = said_both_ways(refused(campaign, {**benny, "purpose": "energy"}))
    assert russian.startswith("у Vera не осталось фишек (") and russian.endswith("; L63)")
    assert english.startswith("Vera has no bennies left to spend (") and english.endswith("; L63)")


def test_the_gladiators_refusals_say_signature_moves_and_tokens_in_the_originals_words(campaign) -> None:
    """коронные приёмы, атакующие или оборонительные (L6); модификаторы за отыгрыш (L26-L28)."""
    campaign.of("gladiators")
    campaign.given(gladiator(player="marcus"), enemy("Barbarians", 8, 3), START)
    assert said_both_ways(refused(campaign, {**turn([3, 3, 3]), "attack_move": "Parry"})) == (
        "Parry — коронный приём Marcus (защита), а не атакующий приём (L6)",
        "Parry is Marcus's defence signature move, not an attack move (L6)")
    assert said_both_ways(refused(campaign, {**turn([3, 3, 3]), "spend_tokens": 1})) == (
        "у Marcus 0 модификаторов за отыгрыш, потратить 1 нельзя (L27-L28)",
        "Marcus has 0 role-play tokens and cannot spend 1 (L27-L28)")
