"""What behaviours ask for: walk, kick, scripts, stand, get-up, look, freeze."""
