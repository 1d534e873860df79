"""Headless Chromium driven through its DevTools protocol, standard library only: the WebSocket client is the
few lines below. Used by the journal page's CI check (.ci/journal-page-check.py) and its load run
(Tests/Benchmarks/control-load.py). Every wait is bounded in count and time; a failure prints one sentence
(after `prefix`) and exits 1.
"""
import base64
import contextlib
import json
import os
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time
import urllib.request

prefix = "devtools"
TENTHS = 100  # each wait: at most 100 rounds of 0.1 s


def fail(sentence):
    print(prefix + ": " + sentence, file=sys.stderr)
    sys.exit(1)


class WebSocket:
    """A client WebSocket (RFC 6455) over a plain socket: text frames out (masked), frames in."""

    def __init__(self, url):
        assert url.startswith("ws://")
        host_port, _, path = url[len("ws://"):].partition("/")
        host, _, port = host_port.partition(":")
        self.sock = socket.create_connection((host, int(port)), timeout=30)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            (f"GET /{path} HTTP/1.1\r\nHost: {host_port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
             f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(4096)
            if not chunk:
                fail("Chromium closed the DevTools connection during its handshake.")
            head += chunk
        head, self.buffer = head.split(b"\r\n\r\n", 1)
        if b" 101 " not in head.split(b"\r\n", 1)[0]:
            fail("Chromium refused the DevTools WebSocket: " + head.decode(errors="replace").split("\r\n", 1)[0])

    def _read(self, count):
        while len(self.buffer) < count:
            chunk = self.sock.recv(1 << 16)
            if not chunk:
                fail("Chromium closed the DevTools connection.")
            self.buffer += chunk
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def send(self, text):
        payload = text.encode()
        header = bytearray([0x81])
        if len(payload) < 126:
            header.append(0x80 | len(payload))
        elif len(payload) < 1 << 16:
            header += bytes([0x80 | 126]) + struct.pack("!H", len(payload))
        else:
            header += bytes([0x80 | 127]) + struct.pack("!Q", len(payload))
        mask = os.urandom(4)
        self.sock.sendall(bytes(header) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    def receive(self):
        """The next text message (fragments joined); answers pings."""
        message = b""
        while True:
            first, second = self._read(2)
            length = second & 0x7F
            if length == 126:
                length = struct.unpack("!H", self._read(2))[0]
            elif length == 127:
                length = struct.unpack("!Q", self._read(8))[0]
            payload = self._read(length)
            opcode = first & 0x0F
            if opcode == 0x8:
                fail("Chromium closed the DevTools connection.")
            if opcode == 0x9:
                self.sock.sendall(bytes([0x8A, 0x80 | len(payload)]) + b"\0\0\0\0" + payload)
                continue
            if opcode in (0x0, 0x1, 0x2):
                message += payload
                if first & 0x80:
                    return message.decode()


class Page:
    """One Chromium tab, through its DevTools WebSocket."""

    def __init__(self, url):
        self.ws = WebSocket(url)
        self.next_id = 0
        self.exceptions = []

    def call(self, method, **params):
        self.next_id += 1
        self.ws.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        for _ in range(10000):  # events in between are read and kept where they matter
            message = json.loads(self.ws.receive())
            if message.get("method") == "Runtime.exceptionThrown":
                self.exceptions.append(message["params"]["exceptionDetails"])
            if message.get("id") == self.next_id:
                if "error" in message:
                    fail(f"DevTools {method} failed: {message['error'].get('message')}")
                return message.get("result", {})
        fail(f"DevTools never answered {method}.")

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            fail(f"the page could not evaluate {expression!r}: {result['exceptionDetails'].get('text')} "
                 f"{result['exceptionDetails'].get('exception', {}).get('description', '')}")
        return result["result"].get("value")

    def wait_for(self, expression, what):
        """Polls `expression` until it is truthy, at most TENTHS times 0.1 s; returns its value."""
        for _ in range(TENTHS):
            value = self.evaluate(expression)
            if value:
                return value
            time.sleep(0.1)
        fail(f"{what} did not happen within {TENTHS / 10:.0f} s (the page shows: "
             f"{self.evaluate('document.body.innerText.slice(0, 600)')!r}).")

    def screenshot(self, path):
        data = self.call("Page.captureScreenshot", format="png", captureBeyondViewport=False)["data"]
        with open(path, "wb") as file:
            file.write(base64.b64decode(data))


def start_chromium(chromium, profile):
    process = subprocess.Popen(
        [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
         "--no-default-browser-check", "--disable-extensions", "--remote-debugging-port=0",
         f"--user-data-dir={profile}", "--window-size=1280,900", "about:blank"],
        stdout=subprocess.DEVNULL, stderr=open(os.path.join(profile, "chromium.log"), "w"))
    active = os.path.join(profile, "DevToolsActivePort")
    for _ in range(300):  # 30 s: a first start on a slow machine
        if os.path.exists(active):
            with open(active) as file:
                lines = file.read().split()
            if len(lines) >= 2:
                return process, int(lines[0])
        if process.poll() is not None:
            break
        time.sleep(0.1)
    with open(os.path.join(profile, "chromium.log")) as log:
        fail("Chromium did not open its DevTools port: " + log.read()[-800:])


@contextlib.contextmanager
def chromium_page(chromium):
    """A started headless Chromium's first tab, as a Page; Chromium is stopped and its profile removed after."""
    profile = tempfile.mkdtemp(prefix="devtools-chromium-")
    process, port = start_chromium(chromium, profile)
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=10) as response:
            targets = [t for t in json.load(response) if t.get("type") == "page"]
        if not targets:
            fail("Chromium has no page to drive.")
        yield Page(targets[0]["webSocketDebuggerUrl"])
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
        shutil.rmtree(profile, ignore_errors=True)
