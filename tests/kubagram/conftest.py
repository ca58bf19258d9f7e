import pytest

from kubasolve.games.kubagram.rules import KubagramRules
from kubasolve.lexicon import Lexicon

# A small Dutch lexicon holding every word the rulebook's examples need.
RULEBOOK_WORDS = [
    "kroeg", "kroegen", "tocht", "kroegentocht", "kroegentochten", "en", "ten", "tochten",
    "regen", "regent", "tegen", "groen", "groente", "groenten", "erg", "ergo", "toen", "toe",
    "rente", "renten", "geen", "teken", "tekenen", "oog", "ogen", "rood", "rode", "roede",
]


@pytest.fixture(scope="session")
def rulebook_lexicon() -> Lexicon:
    return Lexicon.from_words(RULEBOOK_WORDS, name="rulebook")


@pytest.fixture(scope="session")
def nl():
    import kubasolve

    return kubasolve.load_lexicon("nl")


@pytest.fixture(scope="session")
def rules() -> KubagramRules:
    return KubagramRules()
