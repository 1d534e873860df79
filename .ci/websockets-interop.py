#!/usr/bin/env python3
"""The `websockets` package from PyPI against MockServer's WebSocket wire, both ways (used by .ci/websockets-interop).

  websockets-interop.py server            a websockets chat server on a free loopback port; prints "port N"
  websockets-interop.py client URL OUT    talks to URL as the chat's client and writes what it saw to OUT (JSON)
  websockets-interop.py fault URL KIND    talks to URL under a fault and checks what websockets reports for KIND

Every wait is bounded: each receive has a timeout, and each run is bounded as a whole by the caller.
"""
import asyncio
import base64
import json
import sys

import websockets

TIMEOUT = 10


async def serve():
    async def chat(socket):
        async for message in socket:
            if message == "hello":
                await socket.send("hi, " + socket.request.path)
            elif message == "bye":
                await socket.close(4001, "see you")
                return
            else:
                await socket.send(message)  # binary and other text echoed as received

    async with websockets.serve(chat, "127.0.0.1", 0, subprotocols=["chat.v1"]) as server:
        print("port", server.sockets[0].getsockname()[1], flush=True)
        await asyncio.Future()


def shown(message):
    return {"text": message} if isinstance(message, str) else {"base64": base64.b64encode(message).decode()}


async def client(url, out):
    seen = {"sent": [], "received": []}
    async with websockets.connect(url, subprotocols=["chat.v1"], open_timeout=TIMEOUT, close_timeout=TIMEOUT) as socket:
        seen["subprotocol"] = socket.subprotocol
        for message in ["hello", b"\x00\x01\xfe\xff", "caf\u00e9 \u2615", "bye"]:
            await socket.send(message)
            seen["sent"].append(shown(message))
            if message != "bye":
                seen["received"].append(shown(await asyncio.wait_for(socket.recv(), TIMEOUT)))
        try:
            await asyncio.wait_for(socket.recv(), TIMEOUT)
            sys.exit("websockets-interop: expected the server to close after bye, but it sent another message")
        except websockets.ConnectionClosed as closed:
            seen["close"] = {"code": closed.rcvd.code if closed.rcvd else None, "reason": closed.rcvd.reason if closed.rcvd else None}
    with open(out, "w") as file:
        json.dump(seen, file, indent=1, sort_keys=True)


async def fault(url, kind):
    """What a websockets client sees under each fault, checked here; prints one line saying so."""
    if kind == "status=403":
        try:
            async with websockets.connect(url, subprotocols=["chat.v1"], open_timeout=TIMEOUT):
                sys.exit("websockets-interop: the upgrade succeeded under status=403")
        except websockets.InvalidStatus as refused:
            assert refused.response.status_code == 403, refused.response.status_code
            print("status=403: the upgrade was refused with 403")
            return
    async with websockets.connect(url, subprotocols=["chat.v1"], open_timeout=TIMEOUT, close_timeout=2) as socket:
        await socket.send("hello")
        received = []
        try:
            while True:
                received.append(await asyncio.wait_for(socket.recv(), TIMEOUT))
                if len(received) == 1:
                    await socket.send(b"\x00\x01\xfe\xff")
        except websockets.ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd else None
            if kind == "ws-drop=1":
                assert len(received) == 1, received
                assert closed.rcvd is None, closed  # no close frame: 1006
                print(f"ws-drop=1: {len(received)} message, then the connection dropped without a close frame")
            elif kind == "ws-close=1011":
                assert received == [] and code == 1011, (received, code)
                print("ws-close=1011: closed at once with 1011")
            elif kind == "ws-malformed":
                assert closed.rcvd is None, closed
                assert closed.sent is not None and closed.sent.code == 1002, closed.sent
                print("ws-malformed: websockets refused the frame with 1002 (protocol error)")
            else:
                sys.exit(f"websockets-interop: no check for {kind}")
            return
    sys.exit(f"websockets-interop: {kind} did not end the conversation")


if __name__ == "__main__":
    mode = sys.argv[1]
    if mode == "server":
        asyncio.run(serve())
    elif mode == "client":
        asyncio.run(client(sys.argv[2], sys.argv[3]))
    elif mode == "fault":
        asyncio.run(fault(sys.argv[2], sys.argv[3]))
    else:
        sys.exit(f"websockets-interop: unknown mode {mode}")
