"""Engine commands of Rummikub (filled in with the solver)."""
