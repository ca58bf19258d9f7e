"""Engine commands of Kubagram (filled in with the solver)."""
