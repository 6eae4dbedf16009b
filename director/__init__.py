"""The Director: robot-agnostic arbitration of tasks over provider groups."""
