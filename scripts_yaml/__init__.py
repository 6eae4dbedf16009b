"""Keyframe scripts shipped as data (YAML, rUNSWift .pos)."""
