"""The behaviour API: a versioned MessagePack protocol on a local Unix socket (docs/api.md).

The server (``motiond.api.server.ApiServer``) runs inside the daemon; clients live in
``motiond.client``. This package's top level stays light (the protocol only), so that a client
process does not load the daemon.
"""

from motiond.api.protocol import (
    MAX_MESSAGE,
    VERSION,
    ApiError,
    ProtocolError,
    default_api_path,
)

__all__ = ["MAX_MESSAGE", "VERSION", "ApiError", "ProtocolError", "default_api_path"]
