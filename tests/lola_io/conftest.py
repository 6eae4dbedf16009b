"""Fixtures of the lola_io tests."""

from __future__ import annotations

import os
import shutil
import tempfile

import pytest


@pytest.fixture
def sock_path():
    """A fresh Unix socket path, short enough for the 108-byte limit (pytest's tmp_path isn't)."""
    directory = tempfile.mkdtemp(dir="/tmp", prefix="lola")
    yield os.path.join(directory, "s")
    shutil.rmtree(directory, ignore_errors=True)
