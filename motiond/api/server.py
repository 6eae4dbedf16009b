"""The behaviour API server: a local Unix socket inside the daemon's trio loop.

- **Local only, owner only.** The socket is created with mode 0600 (bound under umask 0o177,
  so there is no instant when it is open to others), and a connecting peer whose uid
  (``SO_PEERCRED``) is neither ours nor root's is refused. There is no network listener.
- **One emitter per connection** (:class:`~motiond.api.session.Session`): its tasks vanish
  when it disconnects, goes silent for ``timeout`` seconds (clients ping), or stops reading.
- **Publishing costs the cycle one encode**: right after every cycle's reply has gone out
  (``Runtime.after_reply``), the state is built and MessagePack-encoded once if any subscriber
  is due, and the same bytes are written to each socket (queued only when a socket is full);
  the Director's tree is sent to its subscribers only when it changed.
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket as stdlib_socket
import struct
from typing import TYPE_CHECKING, Any

import attrs
import trio

from lola_io.joints import JOINT_NAMES
from lola_io.server import remove_stale_socket
from motiond.api.protocol import MAX_MESSAGE, VERSION, pack, plain
from motiond.api.session import Session, SessionEnded
from motiond.api.state import state_message, tree_message
from motiond.api.task_types import TASK_TYPES
from skills.freeze import FREEZE_PRIORITY
from skills.safety import SAFETY_PRIORITY

if TYPE_CHECKING:
    from motiond.runtime import Runtime

log = logging.getLogger(__name__)

#: Seconds without any message after which a client counts as gone (its tasks withdrawn).
DEFAULT_TIMEOUT = 1.0
#: Seconds a write to a client may block before the client counts as not reading.
DEFAULT_WRITE_TIMEOUT = 1.0
DEFAULT_MAX_CLIENTS = 64


@attrs.define
class ApiCounters:
    """What the API server has seen since it started."""

    clients: int = 0  # connected now
    connections: int = 0  # accepted since start
    refused: int = 0  # connections refused (too many, another user)
    messages: int = 0  # messages received
    errors: int = 0  # error replies sent
    dropped_states: int = 0  # state messages a slow client never got
    publish_errors: int = 0  # cycles whose publishing failed (a bug; logged)
    disconnects: dict[str, int] = attrs.field(factory=dict)  # by reason

    def as_map(self) -> dict[str, Any]:
        """The counters as plain data."""
        return attrs.asdict(self)


def peer_uid(sock: Any) -> int | None:
    """The uid of the process at the other end of a Unix socket (Linux), or None."""
    try:
        raw = sock.getsockopt(stdlib_socket.SOL_SOCKET, stdlib_socket.SO_PEERCRED, 12)
    except (OSError, AttributeError):
        return None
    return struct.unpack("3i", raw)[1]


def peer_allowed(uid: int | None, own_uid: int) -> bool:
    """Whether a peer may use the API: the daemon's own user or root."""
    return uid is None or uid in (own_uid, 0)


class ApiServer:
    """Serves the behaviour API for ``runtime`` at ``path`` (see the module docstring)."""

    def __init__(
        self,
        runtime: Runtime,
        path: str | os.PathLike[str],
        *,
        timeout: float = DEFAULT_TIMEOUT,
        write_timeout: float = DEFAULT_WRITE_TIMEOUT,
        max_clients: int = DEFAULT_MAX_CLIENTS,
    ) -> None:
        if not timeout > 0 or not write_timeout > 0 or max_clients < 1:
            raise ValueError("timeouts must be > 0 s and max_clients >= 1")
        self.runtime = runtime
        self.path = str(path)
        self.timeout = timeout
        self.write_timeout = write_timeout
        self.max_clients = max_clients
        self.counters = ApiCounters()
        self.sessions: list[Session] = []
        self._next = 1
        self._tree_revision = -1

    def hello(self, session: Session) -> dict[str, Any]:
        """The first message a client gets."""
        return plain(
            {
                "op": "hello",
                "version": VERSION,
                "emitter": session.name,
                "max_message": MAX_MESSAGE,
                "timeout": self.timeout,
                "priority_below": SAFETY_PRIORITY,
                "freeze_priority": FREEZE_PRIORITY,
                "joints": list(JOINT_NAMES),
                "types": sorted(TASK_TYPES),
                "cycle": self.runtime.counters.cycles,
            }
        )

    # ------------------------------------------------------------------ serving

    async def serve(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Listen until cancelled; the socket file is removed on the way out."""
        listener = _bind(self.path)
        self.runtime.after_reply.append(self._publish)
        try:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(self._accept, listener, nursery)
                log.info("behaviour API on %s", self.path)
                task_status.started()
        finally:
            self.runtime.after_reply.remove(self._publish)
            listener.close()
            with contextlib.suppress(OSError):
                os.unlink(self.path)

    async def _accept(self, listener: trio.socket.SocketType, nursery: trio.Nursery) -> None:
        own = os.getuid()
        while True:
            sock, _ = await listener.accept()
            stream = trio.SocketStream(sock)
            if not peer_allowed(peer_uid(sock), own):
                self.counters.refused += 1
                await _refuse(stream, "another user's connection is not allowed")
                continue
            if len(self.sessions) >= self.max_clients:
                self.counters.refused += 1
                await _refuse(stream, f"too many clients (at most {self.max_clients})")
                continue
            session = Session(self, stream, self._next)
            self._next += 1
            self.sessions.append(session)
            self.counters.connections += 1
            self.counters.clients = len(self.sessions)
            nursery.start_soon(self._serve_session, session)

    async def _serve_session(self, session: Session) -> None:
        reason = "internal error"
        try:
            reason = await session.run()
        except Exception:
            # A fault of the server's own must end this client, never the daemon.
            log.exception("API client %s: internal error", session.name)
        finally:
            session.close()
            self.sessions.remove(session)
            self.counters.clients = len(self.sessions)
            with contextlib.suppress(Exception):
                await session.stream.aclose()
        d = self.counters.disconnects
        d[reason] = d.get(reason, 0) + 1
        if reason not in ("closed",):
            log.info("API client %s disconnected: %s", session.name, reason)

    def _publish(self) -> None:
        """After each cycle's reply (``Runtime.after_reply``): states and tree changes."""
        if not self.sessions:
            return
        try:
            self._publish_cycle()
        except Exception:
            # A bug of the server's must never reach the cycle; it is counted and logged.
            self.counters.publish_errors += 1
            if self.counters.publish_errors == 1 or self.counters.publish_errors % 1000 == 0:
                log.exception("API: publishing failed (%d times)", self.counters.publish_errors)

    def _publish_cycle(self) -> None:
        runtime = self.runtime
        cycle = runtime.counters.cycles
        due = [s for s in self.sessions if s.state_every and cycle % s.state_every == 0]
        if due:
            # Built of plain values already: no plain() walk in what runs every cycle.
            frame = pack(state_message(runtime, self.counters.as_map()))
            for session in due:
                _post(session, session.post_state, frame)
        watchers = [s for s in self.sessions if s.tree]
        if watchers:
            view = runtime.director.view_if_changed(self._tree_revision)
            if view is not None:
                self._tree_revision = view.revision
                frame = pack(plain(tree_message(view)))
                for session in watchers:
                    _post(session, session.post, frame)


def _post(session: Session, post: Any, frame: bytes) -> None:
    try:
        post(frame)
    except SessionEnded as ended:
        session.end(ended.reason)


async def _refuse(stream: trio.SocketStream, why: str) -> None:
    with trio.move_on_after(0.5), contextlib.suppress(Exception):
        await stream.send_all(pack({"op": "error", "id": None, "code": "refused", "error": why}))
    with contextlib.suppress(Exception):
        await stream.aclose()


def _bind(path: str) -> trio.socket.SocketType:
    """A listening Unix socket at ``path``, mode 0600; a stale socket file is replaced, a
    live one (another daemon) or a non-socket file is refused."""
    remove_stale_socket(path)
    sock = stdlib_socket.socket(stdlib_socket.AF_UNIX, stdlib_socket.SOCK_STREAM)
    old = os.umask(0o177)
    try:
        sock.bind(path)  # a local bind returns at once; trio's async bind is for name lookups
    finally:
        os.umask(old)
    os.chmod(path, 0o600)
    sock.listen(128)
    return trio.socket.from_stdlib_socket(sock)
