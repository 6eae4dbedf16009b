"""``motiond sim`` end to end: a subprocess serving LoLA, a client, the truth log, pictures."""

from __future__ import annotations

import csv
import signal
import subprocess
import sys
import zlib

import numpy as np
import trio

from lola_io.connection import LolaConnection
from lola_io.frames import ActuatorFrame
from lola_io.joints import NUM_JOINTS
from motiond.cli import main
from naosim import postures
from naosim.model_builder import build_spec
from naosim.render import write_png


async def test_motiond_sim_serves_logs_truth_and_renders(tmp_path):
    sock, log, pictures = tmp_path / "lola.sock", tmp_path / "truth.csv", tmp_path / "pics"
    args = [sys.executable, "-m", "motiond.cli", "sim", "--socket", str(sock)]
    args += ["--truth-log", str(log), "--seed", "3", "--render", str(pictures)]
    args += ["--render-every", "20", "--start", "standing"]
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        command = ActuatorFrame(postures.standing(), np.ones(NUM_JOINTS))
        count = 0
        async with LolaConnection(str(sock), connect_timeout=60.0) as conn:
            async for _frame in conn:
                await conn.send(command)
                count += 1
                if count == 60:
                    break
    finally:
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=30)
    assert proc.returncode == 0, out
    assert "serving a simulated NAO (standing, lockstep)" in out
    rows = list(csv.reader(log.read_text().splitlines()))
    assert rows[0][:2] == ["t", "x"]
    assert len(rows) >= 1 + 60
    assert all(row[7] == "0" for row in rows[1:])  # it kept standing
    pngs = sorted(pictures.glob("*.png")) if pictures.exists() else []
    # Either pictures were saved or the run said plainly why not.
    assert pngs or "rendering skipped" in out
    for png in pngs:
        assert png.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


def test_motiond_sim_refuses_a_model_missing_leg_joints(tmp_path, capsys):
    xml = build_spec().to_xml().replace('"LHipRoll"', '"hip_roll_l"')
    path = tmp_path / "bad.xml"
    path.write_text(xml)
    assert main(["sim", "--model", str(path), "--socket", str(tmp_path / "s")]) == 2
    assert "leg joints missing: LHipRoll" in capsys.readouterr().err


def test_write_png_round_trips_the_pixels(tmp_path):
    image = (np.arange(4 * 5 * 3) % 256).astype(np.uint8).reshape(4, 5, 3)
    path = tmp_path / "x.png"
    write_png(path, image)
    data = path.read_bytes()
    # IHDR width/height, then the IDAT payload decompresses to filter byte + row, per row.
    assert int.from_bytes(data[16:20], "big") == 5 and int.from_bytes(data[20:24], "big") == 4
    start = data.index(b"IDAT") + 4
    length = int.from_bytes(data[start - 8 : start - 4], "big")
    raw = zlib.decompress(data[start : start + length])
    rows = [raw[i * 16 + 1 : (i + 1) * 16] for i in range(4)]
    assert b"".join(rows) == image.tobytes()


async def test_sim_command_rejects_negative_delay(tmp_path, capsys):
    await trio.lowlevel.checkpoint()
    assert main(["sim", "--delay", "-1", "--socket", str(tmp_path / "s")]) == 2
    assert "--delay must be >= 0" in capsys.readouterr().err
