"""Word colonies ("colonii"): the Romanian letter-card game.

Players build words from letter cards, extend any word, conquer other players' words and grow
chains of words (colonies). See ``docs/colonii.md`` for the rules and every documented choice.
"""
