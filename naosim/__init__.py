"""A simulated NAO in MuJoCo behind a LoLA server."""
