"""The message catalogs (issue 49): every message has its Russian, extraction finds nothing the catalog lacks,
translations keep their placeholders, and counts take the CLDR plural forms."""

import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po

import rollbook
from rollbook import language
from rollbook.language import number, speaking
from rollbook.projections.narration import count

ROOT = Path(rollbook.__file__).parent
RUSSIAN = ROOT / "locale" / "ru" / "LC_MESSAGES" / "rollbook.po"
#: As README's `pybabel extract` command ("Languages"): narration's `said` and `count` are gettext's keywords too,
#: a refusal's template (its first argument), a game's `Word` and a refusal's `Count` (singular, plural), and the
#: templates' `_` (one of pybabel's own); `NC_`, a game's word under its game's context (msgctxt).
REFUSALS = ("RuleViolation", "CommandRejected", "UnknownName", "PermissionDenied", "DiceError", "DamagedHistory")
KEYWORDS = {"gettext": None, "ngettext": (1, 2), "N_": None, "NC_": ((1, "c"), 2), "said": None, "count": (1, 2),
            **dict.fromkeys(REFUSALS, (1,)), "Word": None, "Count": (2, 3), "Limit": (5,), "_": None}
#: As babel.cfg: every module of the package, and the web pages' templates with Jinja2's i18n extension.
METHODS = [("**.py", "python"), ("web/templates/**.html", "jinja2")]
TEMPLATES = {"web/templates/**.html": {"extensions": "jinja2.ext.i18n"}}
SKIPPED = {".venv", "tests", "bench", "build", "docs", "examples"}


def catalog():
    with RUSSIAN.open("rb") as source:
        return read_po(source, locale="ru")


def extracted() -> set[str]:
    found = set()
    for _, _, message, _, _ in extract_from_dir(
            ROOT, METHODS, options_map=TEMPLATES, keywords=KEYWORDS, comment_tags=("Terms:",),
            directory_filter=lambda path: not (set(Path(path).relative_to(ROOT).parts) & SKIPPED)
            and "__pycache__" not in path):
        found.add(message[0] if isinstance(message, tuple) else message)
    return found


def test_every_message_of_the_catalog_has_its_russian() -> None:
    untranslated = [message.id for message in catalog() if message.id and (
        message.fuzzy or not all(message.string if isinstance(message.string, tuple) else [message.string]))]
    assert untranslated == []


def test_extraction_finds_no_message_the_catalog_lacks() -> None:
    known = {message.id[0] if isinstance(message.id, tuple) else message.id for message in catalog() if message.id}
    found = extracted()
    assert found - known == set()
    assert len(found) > 200  # the extraction ran over the games' narration, not over nothing


def test_extraction_finds_the_templates_messages() -> None:
    """babel.cfg's jinja2 section: the pages' `{% trans %}` blocks, `_()` and counted messages are extracted."""
    found = extracted()
    assert {"Sign out", "Once-only limits", "%(count)s command", "Step %(step)s of %(steps)s · position %(position)s"} <= found


def test_every_translation_keeps_the_placeholders_of_its_message() -> None:
    fields = re.compile(r"\{(\w*)\}")
    wrong = []
    for message in catalog():
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        wanted = set(fields.findall(ids[-1]))
        wrong += [(ids[0], string) for string in strings if set(fields.findall(string)) != wanted]
    assert wrong == []


def test_the_plural_rule_is_cldrs_for_russian() -> None:
    rule = get_plural("ru")
    assert catalog().num_plurals == rule.num_plurals == 3
    assert catalog().plural_expr == rule.plural_expr


@pytest.mark.parametrize(("amount", "said"), [
    (1, "1 пункт фарта"), (2, "2 пункта фарта"), (5, "5 пунктов фарта"), (11, "11 пунктов фарта"),
    (21, "21 пункт фарта"), (22, "22 пункта фарта")])
def test_luck_counts_as_the_original_counts_it(amount: int, said: str) -> None:
    """L43, L46: «1 фарт за 1 рану», «потратив 1 пункт фарта»; L50-L51: «1 пункт фарта … 2 пункта фарта»."""
    with speaking("ru"):
        assert count("{who}spends {count} luck", "{who}spends {count} luck", amount, who="") == f"тратит {said}"
    assert count("{who}spends {count} luck", "{who}spends {count} luck", amount, who="") == f"spends {amount} luck"


@pytest.mark.parametrize(("amount", "russian", "english"), [
    (1, "1 фишка", "1 benny"), (2, "2 фишки", "2 bennies"), (5, "5 фишек", "5 bennies"), (11, "11 фишек", "11 bennies"),
    (21, "21 фишка", "21 bennies"), (22, "22 фишки", "22 bennies")])
def test_bennies_count_by_the_plural_rule_of_each_language(amount: int, russian: str, english: str) -> None:
    with speaking("ru"):
        assert count("{whose} has {count} benny", "{whose} has {count} bennies", amount, whose="Vera") == \
            f"у Vera {russian}"
    assert count("{whose} has {count} benny", "{whose} has {count} bennies", amount, whose="Vera") == \
        f"Vera has {english}"


def test_numbers_are_written_by_cldr_in_russian_and_as_always_in_english() -> None:
    with speaking("ru"):
        assert number(1500) == "1\u00a0500"
        assert count("{count} piastres", "{count} piastres", 1500) == "1\u00a0500 пиастров"
    assert number(1500) == "1500"


def test_a_language_rollbook_does_not_speak_is_english_and_speaking_ends_with_its_block() -> None:
    with speaking("xx"):
        assert language.spoken() == "en"
    with speaking("ru"):
        with speaking("en"):
            assert language.gettext("scene") == "scene"
        assert language.gettext("scene") == "сцена"
    assert language.spoken() == "en"


def test_a_compiled_catalog_reads_as_its_source(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What setup.py puts in a wheel (a .mo compiled with Babel) says what the .po says."""
    from babel.messages.mofile import write_mo

    compiled = tmp_path / "ru" / "LC_MESSAGES" / "rollbook.mo"
    compiled.parent.mkdir(parents=True)
    with compiled.open("wb") as target:
        write_mo(target, catalog())
    language.translations.cache_clear()
    monkeypatch.setattr(language, "CATALOGS", tmp_path)
    try:
        with speaking("ru"):
            assert language.ngettext("{count} success", "{count} successes", 21).format(count=21) == "21 успех"
    finally:
        language.translations.cache_clear()
