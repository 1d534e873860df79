#!/usr/bin/env python3
"""The control API under load (issue 35); see control-load.sh, which runs it.

Usage: control-load.py RECORDER CHROMIUM SECONDS

Starts `RECORDER replay Recordings/github`, attaches the journal page (headless Chromium, through devtools.py)
and a curl client of the event stream, then runs wrk with 256 connections for SECONDS against a recorded GET.
Passes when:
  - wrk saw no socket error and only 200s, and the journal numbered at least every answer wrk counted;
  - the page still follows the event stream, and both it and the curl client show the next request;
  - the server's memory is flat: its largest RSS over the last 5 s is at most 10 % (plus 4 MiB) above its
    largest over the 5 s after the first 2 s.
Prints each figure. Every wait is bounded in count and time; a failure prints one sentence and exits 1.
"""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".ci"))
import devtools  # noqa: E402
from devtools import chromium_page, fail  # noqa: E402

devtools.prefix = "control-load"
RECORDER, CHROMIUM, SECONDS = sys.argv[1], sys.argv[2], int(sys.argv[3])
CONNECTIONS = 256


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    fail(f"/proc/{pid}/status has no VmRSS line.")


def start_replay(work):
    path = os.path.join(work, "replay.log")
    process = subprocess.Popen([RECORDER, "replay", "Recordings/github"], stdout=open(path, "w"), stderr=subprocess.STDOUT)
    text = ""
    for _ in range(300):  # 30 s
        with open(path) as log:
            text = log.read()
        found = re.search(r"^Replaying .* on (http://127\.0\.0\.1:\d+)", text, re.M)
        if found:
            return process, found.group(1)
        if process.poll() is not None:
            break
        time.sleep(0.1)
    fail("recorder replay did not print its address: " + text[-500:])


def journal_next(base):
    with urllib.request.urlopen(base + "/__mockserver/journal?since=1000000000", timeout=30) as response:
        return json.load(response)["next"]


def status(url):
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def read(path):
    with open(path, "rb") as file:
        return file.read()


def wait_until(condition, seconds, what):
    for _ in range(seconds * 10):
        if condition():
            return
        time.sleep(0.1)
    fail(f"{what} did not happen within {seconds} s.")


def main():
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("control-load: stopped by SIGTERM."))
    work = tempfile.mkdtemp(prefix="control-load-")
    replay, base = start_replay(work)
    events_path = os.path.join(work, "events.log")
    events = subprocess.Popen(["curl", "-sN", "-o", events_path, base + "/__mockserver/journal/events"])
    try:
        with chromium_page(CHROMIUM) as page:
            page.call("Runtime.enable")
            page.call("Page.navigate", url=base + "/__mockserver/")
            page.wait_for("document.getElementById('mode')?.dataset.mode === 'events'", "the page following the event stream")

            # The load, with the server's memory read every 0.5 s while it lasts.
            wrk = subprocess.Popen(["wrk", "-t2", f"-c{CONNECTIONS}", f"-d{SECONDS}s", base + "/users/octocat"],
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            started, samples = time.monotonic(), []
            for _ in range(SECONDS * 2 + 120):  # a minute beyond the run, at most
                if wrk.poll() is not None:
                    break
                samples.append((time.monotonic() - started, rss_kib(replay.pid)))
                time.sleep(0.5)
            output = wrk.communicate(timeout=60)[0]

            requests = int(re.search(r"(\d+) requests in", output).group(1))
            errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", output)
            non_2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
            rate = re.search(r"Requests/sec:\s+([\d.]+)", output).group(1)
            print(f"control-load: {requests} requests in {SECONDS} s over {CONNECTIONS} connections ({rate}/s)")
            if errors and any(int(count) for count in errors.groups()):
                fail(f"wrk saw socket errors ({errors.group(0)}): the server lost requests.")
            if non_2xx:
                fail(f"wrk saw {non_2xx.group(1)} answers other than 200.")
            numbered = journal_next(base)
            if numbered < requests:
                fail(f"the journal numbered {numbered} requests, fewer than the {requests} wrk saw answered.")

            first = [kib for at, kib in samples if 2 <= at < 7]
            last = [kib for at, kib in samples if at >= samples[-1][0] - 5]
            if not first or not last:
                fail(f"too few memory samples ({len(samples)}) to compare.")
            print(f"control-load: server RSS, largest: {max(first) // 1024} MiB in seconds 2-7, {max(last) // 1024} MiB in the last 5 s")
            if max(last) > max(first) * 1.10 + 4096:
                fail(f"the server's memory grew under load: {max(first)} KiB, then {max(last)} KiB.")

            # Both watchers are still attached, and follow the next request.
            if page.evaluate("document.getElementById('mode').dataset.mode") != "events":
                fail("the page no longer follows the event stream after the load.")
            if events.poll() is not None:
                fail(f"the event-stream client was disconnected (curl exited {events.returncode}).")
            if status(base + "/after-load") != 404:
                fail("GET /after-load was not the 404 of an unmatched request.")
            # A minute at most: after the load the page may still be working through what the stream sent it.
            wait_until(lambda: page.evaluate("document.body.innerText.includes('/after-load')"), 60, "the page showing /after-load")
            wait_until(lambda: b'"target":"/after-load"' in read(events_path), 30, "the event-stream client receiving /after-load")
            skipped = read(events_path).count(b"event: skipped\n")
            print(f"control-load: the page and the event-stream client stayed connected and follow on "
                  f"({skipped} notices of entries the client was too slow for)")
    finally:
        events.terminate()
        shutil.rmtree(work, ignore_errors=True)
        replay.send_signal(signal.SIGINT)
        try:
            replay.wait(timeout=30)
        except subprocess.TimeoutExpired:
            replay.kill()


if __name__ == "__main__":
    main()
