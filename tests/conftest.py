"""Shared fixtures: a throw-away HTTP server on 127.0.0.1 serving a temp folder."""

from __future__ import annotations

import functools
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest


class _RecordingServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        super().__init__(*args, **kwargs)
        self.requests: list[str] = []
        self.failures: dict[str, list[int]] = {}


class _Handler(SimpleHTTPRequestHandler):
    server: _RecordingServer

    def do_GET(self) -> None:
        self.server.requests.append(self.path)
        planned = self.server.failures.get(self.path)
        if planned:
            self.send_error(planned.pop(0))
            return
        super().do_GET()

    def log_message(self, format: str, *args: object) -> None:
        pass


@dataclass
class LocalServer:
    """``root`` is served at ``url``; ``requests`` lists the paths asked for, in order;
    ``failures[path]`` is a list of status codes answered (one per request) before serving."""

    root: Path
    url: str
    requests: list[str] = field(default_factory=list)
    failures: dict[str, list[int]] = field(default_factory=dict)


@pytest.fixture
def http_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[LocalServer]:
    """Serve ``tmp_path/www`` on an ephemeral 127.0.0.1 port for the duration of one test."""
    monkeypatch.setenv("no_proxy", "*")  # never route test requests through a proxy
    root = tmp_path / "www"
    root.mkdir()
    server = _RecordingServer(("127.0.0.1", 0), functools.partial(_Handler, directory=str(root)))
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True
    )
    thread.start()
    host, port = server.server_address[:2]
    try:
        yield LocalServer(root, f"http://{host}:{port}", server.requests, server.failures)
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@pytest.fixture(scope="session")
def tiny_reference(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished local run (-j2, no mirror) of the small two-family target set of
    tests/e2e_helpers.py in a temporary copy of the repository; shared by the end-to-end tests
    (SLURM, review workflow, fault tolerance), which compare with it or copy it."""
    from e2e_helpers import TINY_TARGETS, copy_repo, run_ok

    repo = copy_repo(tmp_path_factory.mktemp("tiny_reference"))
    run_ok(repo, "-j2", *TINY_TARGETS)
    return repo
