#!/usr/bin/env python3
"""Drives headless Chromium through the DevTools protocol (devtools.py, beside it) against a running `recorder
replay` and checks the journal page as a user would see it. Standard library only.

Usage: journal-page-check.py CHROMIUM BASE_URL SCREENSHOT_DIR

BASE_URL is the replay server's address (serving Recordings/github). Every wait is bounded in count and time;
any failed check prints one sentence and exits 1.
"""
import json
import os
import signal
import subprocess
import sys
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import devtools  # noqa: E402  (beside this script)
from devtools import chromium_page, fail  # noqa: E402

devtools.prefix = "journal-page"

CHROMIUM, BASE, SHOTS = sys.argv[1], sys.argv[2].rstrip("/"), sys.argv[3]
PAGE = BASE + "/__mockserver/"


def curl(*arguments):
    """Runs curl against the server; returns the status code."""
    run = subprocess.run(["curl", "-sS", "-o", "/dev/null", "-w", "%{http_code}", "--max-time", "10", *arguments],
                         capture_output=True, text=True, timeout=30)
    if run.returncode != 0:
        fail(f"curl {' '.join(arguments)} failed: {run.stderr.strip()}")
    return int(run.stdout)


def journal():
    with urllib.request.urlopen(BASE + "/__mockserver/journal", timeout=10) as response:
        return json.load(response)["entries"]


def rows(page):
    return page.evaluate("document.querySelectorAll('#rows .entry').length")


def main():
    # A timeout's SIGTERM ends the script through `finally`, so Chromium is stopped with it.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("journal-page: stopped by SIGTERM (the step's time ran out)."))
    with chromium_page(CHROMIUM) as page:
        check(page)


def check(page):
    page.call("Runtime.enable")
    page.call("Page.enable")
    page.call("Emulation.setDeviceMetricsOverride", width=1280, height=900, deviceScaleFactor=1, mobile=False)

    # 1. The page opens, reads the plan, and follows the journal (event stream, or polling without one).
    page.call("Page.navigate", url=PAGE)
    page.wait_for("document.readyState === 'complete' && ['events', 'polling'].includes(document.getElementById('mode')?.dataset.mode)",
                  "the page following the journal")
    mode = page.evaluate("document.getElementById('mode').dataset.mode")
    page.wait_for("document.getElementById('plan-current').textContent.startsWith('none')", "the page showing no fault plan")
    page.evaluate("window.__notReloaded = true")
    if rows(page) != 0:
        fail(f"the page shows {rows(page)} requests before any was sent.")

    # 2. Requests sent with curl appear without a reload; the unmatched one with its near-miss diff, field by field.
    if curl(BASE + "/users/octocat") != 200:
        fail("GET /users/octocat was not answered 200 as recorded.")
    if curl(BASE + "/users?since=0&per_page=5") != 404:
        fail("GET /users?since=0&per_page=5 was not the 404 of an unmatched request.")
    if curl("-g", "-X", "POST", "-H", "Content-Type: application/json", "-H", "X-Note: it's <img src=x onerror=\"window.__xss=1\">",
            "--data-binary", '{"name": "O\'Brien", "tags": ["a b", "$HOME"]}', BASE + "/users?q=a%20b&x=[1]") != 404:
        fail("the POST with a body was not the 404 of an unmatched request.")
    page.wait_for("document.querySelectorAll('#rows .entry').length === 3", "three rows appearing")
    if page.evaluate("window.__notReloaded") is not True:
        fail("the page reloaded to show the new requests.")
    matched = page.evaluate("document.querySelector('[data-sequence=\"0\"] summary').innerText")
    if "200" not in matched or "github-users #2" not in matched:
        fail(f"the matched request's row does not show its status and interaction: {matched!r}")
    diff = page.evaluate("[...document.querySelectorAll('[data-sequence=\"1\"] .near-miss tr')].map(r => [...r.cells].map(c => c.textContent))")
    if ["query per_page", 'recorded "3", received "5"'] not in diff:
        fail(f"the unmatched request's near-miss diff is not shown field by field: {diff!r}")
    hint = page.evaluate("document.querySelector('[data-sequence=\"1\"] summary .diff-hint').textContent")
    if "per_page" not in hint:
        fail(f"the unmatched request's row does not show its first difference: {hint!r}")
    body = page.evaluate("document.querySelector('[data-sequence=\"2\"] pre.body').textContent")
    if body != '{\n  "name": "O\'Brien",\n  "tags": [\n    "a b",\n    "$HOME"\n  ]\n}':
        fail(f"the JSON body is not pretty-printed: {body!r}")
    # Markup in a request stays text.
    if page.evaluate("document.querySelectorAll('#rows img, #rows script').length") != 0 or page.evaluate("window.__xss") is not None:
        fail("a request header became markup in the page.")
    if "<img src=x" not in page.evaluate("document.querySelector('[data-sequence=\"2\"] .headers').textContent"):
        fail("the header with markup in it is not shown as text.")

    # No missing value shown as text, in the rows or the panes folded under them (none of these requests holds either word).
    text = page.evaluate("document.getElementById('rows').textContent")
    if "undefined" in text or "null" in text:
        fail(f"the rows show a missing value as text: {text!r}")

    # 3. Filters: unmatched only, then a path.
    page.evaluate("{ const box = document.getElementById('filter-unmatched'); box.checked = true; box.dispatchEvent(new Event('change')) }")
    shown = page.evaluate("[...document.querySelectorAll('#rows .entry')].filter(n => !n.hidden).map(n => n.dataset.sequence)")
    if sorted(shown) != ["1", "2"]:
        fail(f"'unmatched only' shows rows {shown}, not 1 and 2.")
    page.evaluate("{ document.getElementById('filter-unmatched').checked = false;"
                  " const path = document.getElementById('filter-path'); path.value = 'octo'; path.dispatchEvent(new Event('input')) }")
    shown = page.evaluate("[...document.querySelectorAll('#rows .entry')].filter(n => !n.hidden).map(n => n.dataset.sequence)")
    if shown != ["0"]:
        fail(f"the path filter 'octo' shows rows {shown}, not 0.")
    page.evaluate("{ const path = document.getElementById('filter-path'); path.value = ''; path.dispatchEvent(new Event('input')) }")

    # 4. The fault plan through the form: a bad plan shows the server's sentence; a good one faults the next request.
    def fill(rules):
        page.evaluate("{ const rules = document.getElementById('plan-rules'); rules.value = " + json.dumps(rules) + ";"
                      " rules.dispatchEvent(new Event('input')); document.getElementById('plan-seed').value = '7';"
                      " document.getElementById('plan-form').requestSubmit() }")
    fill("explode")
    sentence = page.wait_for("!document.getElementById('plan-error').hidden && document.getElementById('plan-error').textContent",
                             "the server's sentence for a bad plan")
    if "'explode' is not a fault kind" not in sentence:
        fail(f"a bad plan shows {sentence!r}, not the server's sentence.")
    fill("status=503,path=/users/octocat")
    page.wait_for("document.getElementById('plan-current').dataset.rules === 'status=503,path=/users/octocat'", "the new plan shown")
    if not page.evaluate("document.getElementById('plan-error').hidden"):
        fail("the bad plan's sentence stays after a good plan was applied.")
    if curl(BASE + "/users/octocat") != 503:
        fail("the request after the plan was applied through the form was not faulted.")
    page.wait_for("document.querySelector('[data-sequence=\"3\"]')?.dataset.kind === 'fault'", "the faulted row")
    fault = page.evaluate("document.querySelector('[data-sequence=\"3\"] .fault').textContent")
    if "status=503" not in fault or "seed 7" not in fault:
        fail(f"the faulted row does not name its fault and seed: {fault!r}")
    page.evaluate("{ const box = document.getElementById('filter-faulted'); box.checked = true; box.dispatchEvent(new Event('change')) }")
    shown = page.evaluate("[...document.querySelectorAll('#rows .entry')].filter(n => !n.hidden).map(n => n.dataset.sequence)")
    if shown != ["3"]:
        fail(f"'faulted only' shows rows {shown}, not 3.")
    page.evaluate("{ const box = document.getElementById('filter-faulted'); box.checked = false; box.dispatchEvent(new Event('change')) }")
    page.evaluate("document.getElementById('plan-clear').click()")
    page.wait_for("document.getElementById('plan-current').dataset.rules === ''", "the plan cleared")
    if curl(BASE + "/users/octocat") != 200:
        fail("the request after the plan was cleared through the form was still faulted.")
    page.wait_for("document.querySelectorAll('#rows .entry').length === 5", "the fifth row")

    # 5. "copy as curl" reproduces the request: the same method, target, headers and body in the journal.
    command = page.evaluate("document.querySelector('[data-sequence=\"2\"] .copy-curl').click();"
                            "document.querySelector('[data-sequence=\"2\"] .curl-command').textContent")
    run = subprocess.run(["bash", "-c", command + " -sS -o /dev/null --max-time 10"], capture_output=True, text=True, timeout=30)
    if run.returncode != 0:
        fail(f"the copied curl command failed ({run.stderr.strip()}): {command}")
    page.wait_for("document.querySelectorAll('#rows .entry').length === 6", "the copied request's row")
    entries = {e["sequence"]: e for e in journal()}
    original, copy = entries[2], entries[5]
    for field in ("method", "target", "body"):
        if original.get(field) != copy.get(field):
            fail(f"the copied curl command sent {field} {copy.get(field)!r}, not {original.get(field)!r}: {command}")
    if sorted(map(tuple, original["headers"])) != sorted(map(tuple, copy["headers"])):
        fail(f"the copied curl command sent headers {copy['headers']}, not {original['headers']}: {command}")

    # 6. The picture: a laptop's width, the unmatched request open.
    page.evaluate("document.querySelector('[data-sequence=\"1\"]').open = true; window.scrollTo(0, 0)")
    page.screenshot(os.path.join(SHOTS, "journal-page.png"))

    # 7. A phone's width: nothing wider than the screen, even a long target and header open beside their answer.
    long_path = "/users/" + "x" * 160
    if curl("-H", "X-Trace: " + "t" * 160, BASE + long_path + "?page=" + "9" * 60) != 404:
        fail("the request with a long target was not the 404 of an unmatched request.")
    page.wait_for("document.querySelectorAll('#rows .entry').length === 7", "the long request's row")
    page.call("Emulation.setDeviceMetricsOverride", width=360, height=740, deviceScaleFactor=2, mobile=True)
    page.evaluate("document.querySelector('[data-sequence=\"1\"]').open = true; document.querySelector('[data-sequence=\"6\"]').open = true")
    width = page.wait_for("document.fonts.ready.then(() => [document.documentElement.scrollWidth, window.innerWidth])", "the phone layout")
    if width[0] > width[1]:
        fail(f"at 360 px the page is {width[0]} px wide: it scrolls sideways.")
    page.screenshot(os.path.join(SHOTS, "journal-page-phone.png"))
    # 8. A WebSocket the page opens itself (same origin, so the server answers it): its row shows the conversation.
    page.call("Emulation.setDeviceMetricsOverride", width=1280, height=900, deviceScaleFactor=1, mobile=False)
    outcome = page.evaluate("""new Promise((resolve) => {
        const socket = new WebSocket('ws://' + location.host + '/v1/prices?market=crypto');
        const received = [];
        const timer = setTimeout(() => resolve(['timed out', received.length]), 10000);
        socket.onopen = () => socket.send('{"action":"subscribe","symbols":["BTC-USD","ETH-USD"]}');
        socket.onmessage = (event) => received.push(event.data);
        socket.onclose = (event) => { clearTimeout(timer); resolve([event.code, received.length]); };
      })""")
    if outcome != [1000, 4]:
        fail(f"the page's WebSocket to the ticker's replay ended as {outcome!r}, not closed with 1000 after its 4 recorded messages.")
    page.wait_for("document.querySelectorAll('#rows .entry').length === 8", "the WebSocket's row")
    page.evaluate("document.querySelector('[data-sequence=\"7\"]').open = true")
    page.wait_for("document.querySelectorAll('[data-sequence=\"7\"] .messages tr').length === 5", "the conversation's five messages")
    summary = page.evaluate("document.querySelector('[data-sequence=\"7\"] summary').innerText")
    if "WebSocket, 5 messages, closed by the server with 1000" not in summary:
        fail(f"the WebSocket's row does not say how its conversation went: {summary!r}")
    page.screenshot(os.path.join(SHOTS, "journal-page-websocket.png"))
    if page.exceptions:
        fail("the page threw: " + "; ".join(e.get("exception", {}).get("description", e.get("text", "")) for e in page.exceptions))
    print(f"journal-page: the page followed the journal ({mode}), showed the near miss, applied and cleared a plan through "
          f"its form, its curl command reproduced a request, and a WebSocket's row showed its conversation; screenshots in {SHOTS}")


main()
