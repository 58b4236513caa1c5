"""A small Language Server Protocol client for the tests: it starts ``referee lsp`` as an
editor would (a child process speaking JSON-RPC over its standard input and output) and
sends requests and notifications, collecting what the server sends back."""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

TIMEOUT = 60.0


class Client:
    """One server process and the messages it sent."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "referee", "lsp"], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )
        self._next = 0
        self._inbox: queue.Queue[dict[str, Any]] = queue.Queue()
        self.notifications: list[dict[str, Any]] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    # -- the wire --------------------------------------------------------------------------

    def _read(self) -> None:
        stream = self.process.stdout
        assert stream is not None
        while True:
            length = None
            while True:
                header = stream.readline()
                if not header:
                    return
                if header in (b"\r\n", b"\n"):
                    break
                name, _, value = header.decode("ascii").partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value)
            assert length is not None
            self._inbox.put(json.loads(stream.read(length)))

    def _send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8")
        stream = self.process.stdin
        assert stream is not None
        stream.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        stream.flush()

    def notify(self, method: str, params: dict[str, Any]) -> None:
        self._send({"method": method, "params": params})

    def request(self, method: str, params: dict[str, Any] | None) -> Any:
        """Send a request and wait for its answer (notifications meanwhile are kept)."""
        self._next += 1
        number = self._next
        self._send({"id": number, "method": method, "params": params})
        while True:
            message = self._inbox.get(timeout=TIMEOUT)
            if message.get("id") == number and "method" not in message:
                if "error" in message:
                    raise AssertionError(f"{method} failed: {message['error']}")
                return message.get("result")
            self._take(message)

    def _take(self, message: dict[str, Any]) -> None:
        if "method" in message and "id" in message:  # a request of the server's: answer it
            self._send({"id": message["id"], "result": None})
        self.notifications.append(message)

    def diagnostics(self, uri: str, version: int | None = None) -> list[dict[str, Any]]:
        """The next diagnostics published for ``uri`` (of ``version``, if given)."""
        for message in self.notifications:
            if _is_diagnostics(message, uri, version):
                self.notifications.remove(message)
                return list(message["params"]["diagnostics"])
        while True:
            message = self._inbox.get(timeout=TIMEOUT)
            if _is_diagnostics(message, uri, version):
                return list(message["params"]["diagnostics"])
            self._take(message)

    def errors(self) -> list[str]:
        """What the server logged as failures (a handler that raised)."""
        while not self._inbox.empty():
            self._take(self._inbox.get())
        return [m["params"]["message"] for m in self.notifications
                if m.get("method") == "window/logMessage" and m["params"]["type"] == 1]

    # -- the session -----------------------------------------------------------------------

    def initialize(self, root: Path) -> dict[str, Any]:
        result = self.request("initialize", {
            "processId": None, "rootUri": root.as_uri(), "capabilities": {}})
        self.notify("initialized", {})
        return dict(result)

    def open(self, uri: str, text: str, version: int = 1) -> list[dict[str, Any]]:
        self.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "referee-log", "version": version, "text": text}})
        return self.diagnostics(uri, version)

    def change(self, uri: str, version: int, start: tuple[int, int], end: tuple[int, int],
               text: str) -> list[dict[str, Any]]:
        self.notify("textDocument/didChange", {
            "textDocument": {"uri": uri, "version": version},
            "contentChanges": [{"range": _range(start, end), "text": text}]})
        return self.diagnostics(uri, version)

    def replace_all(self, uri: str, version: int, text: str) -> list[dict[str, Any]]:
        self.notify("textDocument/didChange", {
            "textDocument": {"uri": uri, "version": version},
            "contentChanges": [{"text": text}]})
        return self.diagnostics(uri, version)

    def at(self, method: str, uri: str, line: int, character: int, **extra: Any) -> Any:
        return self.request(method, {"textDocument": {"uri": uri},
                                     "position": {"line": line, "character": character},
                                     **extra})

    def close(self, uri: str) -> None:
        self.notify("textDocument/didClose", {"textDocument": {"uri": uri}})

    def shutdown(self) -> int:
        try:
            self.request("shutdown", None)
            self.notify("exit", None)  # type: ignore[arg-type]
            return self.process.wait(timeout=TIMEOUT)
        finally:
            if self.process.poll() is None:
                self.process.kill()
                self.process.wait()


def _range(start: tuple[int, int], end: tuple[int, int]) -> dict[str, Any]:
    return {"start": {"line": start[0], "character": start[1]},
            "end": {"line": end[0], "character": end[1]}}


def _is_diagnostics(message: dict[str, Any], uri: str, version: int | None) -> bool:
    if message.get("method") != "textDocument/publishDiagnostics":
        return False
    params = message["params"]
    return bool(params["uri"] == uri and (version is None or params.get("version") == version))
