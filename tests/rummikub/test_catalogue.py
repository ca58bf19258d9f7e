"""The catalogue of candidate sets (the integer programme's columns) keeps, for each set, the first-meld value of its
best reading, computed as the set is generated; it must equal the independent set_value of every set."""

from __future__ import annotations

import pytest

from kubasolve.games.rummikub import RummikubRules
from kubasolve.games.rummikub.sets import candidate_sets, set_value


@pytest.mark.parametrize("settings", [{}, {"jokers": 4}, {"jokers": 3, "numbers": 9, "colours": 3}, {"min_set_size": 2, "jokers": 2},
                                      {"colours": 6, "min_set_size": 4, "colour_letters": "rbokgp"}])
def test_catalogue_values_are_the_best_reading_of_each_set(settings: dict) -> None:
    rules = RummikubRules.from_dict(settings)
    catalogue = candidate_sets(rules)
    assert len(set(catalogue.sets)) == len(catalogue.sets)
    assert [int(v) for v in catalogue.values] == [set_value(s, rules) for s in catalogue.sets]
