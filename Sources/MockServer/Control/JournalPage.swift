import Foundation

/// The journal page, `GET /__mockserver/`: one self-contained HTML page (inline style and script, nothing
/// fetched from elsewhere) that shows the journal live, each request beside what answered it, and changes the
/// fault plan, through the control API's own endpoints on the same origin.
///
/// It follows `GET journal/events` (an event stream) and, when that endpoint does not answer one, pages
/// `GET journal?since=N` once a second instead. Everything it shows from the journal is put in as text, never
/// as markup, so a request cannot inject script into the page; its Content-Security-Policy lets it load
/// nothing from anywhere and connect only to its own origin.
enum JournalPage {
    /// The answer to `GET /__mockserver/`, built once: the page never changes while the server runs.
    static let reply: HTTPReply = {
        let body = Data(html.utf8)
        return .response(
            status: 200,
            headers: HTTPHeaders(pairs: [
                ("Content-Type", "text/html; charset=utf-8"),
                ("Cache-Control", "no-store"),
                // Inline style and script only; fetches to this origin only; no frames, forms or base elsewhere.
                ("Content-Security-Policy", contentSecurityPolicy),
                ("X-Content-Type-Options", "nosniff"),
                ("Referrer-Policy", "no-referrer"),
                ("Content-Length", String(body.count)),
            ]),
            body: body)
    }()

    /// What the page may load and reach: its own inline style and script, its own origin, and nothing else.
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; img-src data:; "
        + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    /// The page. Element ids and `data-` attributes are what `.ci/journal-page` reads in a browser: keep them.
    static let html = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>MockServer journal</title>
        <link rel="icon" href="data:,">
        <style>
        :root { color-scheme: light dark; --bg: #fff; --fg: #1f2328; --muted: #656d76; --line: #d0d7de; --panel: #f6f8fa;
          --ok: #1a7f37; --warn: #9a6700; --bad: #cf222e; --accent: #0969da; --mono: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
        @media (prefers-color-scheme: dark) { :root { --bg: #0d1117; --fg: #e6edf3; --muted: #8d96a0; --line: #30363d; --panel: #161b22;
          --ok: #3fb950; --warn: #d29922; --bad: #f85149; --accent: #4493f8; } }
        * { box-sizing: border-box; }
        body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; background: var(--bg); color: var(--fg); }
        header { z-index: 2; background: var(--bg); border-bottom: 1px solid var(--line);
          padding: 8px 12px; display: flex; flex-wrap: wrap; gap: 6px 14px; align-items: center; }
        h1 { font-size: 16px; margin: 0; }
        h2 { font-size: 14px; margin: 0 0 6px; }
        h3 { font-size: 13px; margin: 10px 0 4px; color: var(--muted); text-transform: uppercase; letter-spacing: .04em; }
        a { color: var(--accent); }
        #mode { font-size: 12px; color: var(--muted); }
        #mode::before { content: "●"; margin-right: 4px; color: var(--warn); }
        #mode[data-mode="events"]::before, #mode[data-mode="polling"]::before { color: var(--ok); }
        #mode[data-mode="offline"]::before { color: var(--bad); }
        #counts { font-size: 12px; color: var(--muted); }
        .filters { display: flex; flex-wrap: wrap; gap: 6px 12px; align-items: center; width: 100%; }
        .filters label { white-space: nowrap; }
        #filter-path { flex: 1 1 160px; min-width: 0; max-width: 360px; }
        input, textarea, button { font: inherit; color: inherit; }
        input[type="search"], input[type="text"], textarea { background: var(--bg); border: 1px solid var(--line); border-radius: 6px; padding: 4px 8px; }
        button { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 4px 10px; cursor: pointer; }
        button:hover { border-color: var(--accent); }
        main { display: grid; grid-template-columns: minmax(0, 1fr); gap: 12px; padding: 10px 12px 40px; }
        /* Only where there is room: on a phone a fixed header would take a third of the screen. */
        @media (min-width: 700px) { header { position: sticky; top: 0; } }
        @media (min-width: 1000px) { main { grid-template-columns: minmax(0, 1fr) 330px; } #faults { order: 2; align-self: start; position: sticky; top: 92px; } }
        #faults { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 10px 12px; min-width: 0; }
        #faults label { display: block; font-size: 12px; color: var(--muted); margin-top: 6px; }
        #plan-rules { width: 100%; font-family: var(--mono); font-size: 12px; resize: vertical; }
        #plan-seed { width: 8em; }
        #plan-edit > summary { cursor: pointer; font-size: 12px; color: var(--accent); margin-top: 6px; }
        #faults .actions { display: flex; gap: 8px; margin-top: 8px; flex-wrap: wrap; }
        #plan-current { font-family: var(--mono); font-size: 12px; overflow-wrap: anywhere; margin: 0; }
        #plan-error { color: var(--bad); margin: 8px 0 0; overflow-wrap: anywhere; }
        #rows { display: flex; flex-direction: column; gap: 4px; min-width: 0; }
        #empty { color: var(--muted); }
        .entry { border: 1px solid var(--line); border-radius: 8px; min-width: 0; }
        .entry[data-kind="unmatched"] { border-left: 4px solid var(--bad); }
        .entry[data-kind="fault"] { border-left: 4px solid var(--warn); }
        .entry > summary { list-style: none; cursor: pointer; padding: 6px 10px; display: flex; flex-wrap: wrap; gap: 2px 10px; align-items: baseline; }
        .entry > summary::-webkit-details-marker { display: none; }
        .entry[open] > summary { border-bottom: 1px solid var(--line); background: var(--panel); border-radius: 8px 8px 0 0; }
        .seq, .time { color: var(--muted); font-size: 12px; font-variant-numeric: tabular-nums; }
        .method { font-weight: 600; }
        .target { font-family: var(--mono); font-size: 13px; overflow-wrap: anywhere; flex: 1 1 220px; min-width: 0; }
        .status { font-weight: 600; font-variant-numeric: tabular-nums; }
        .status.s2, .status.s3 { color: var(--ok); } .status.s4 { color: var(--bad); } .status.s5, .status.none { color: var(--warn); }
        .outcome { font-size: 12px; color: var(--muted); overflow-wrap: anywhere; flex-basis: 100%; }
        .outcome .diff-hint { color: var(--bad); font-family: var(--mono); }
        .messages th { width: 10em; color: var(--muted); font-weight: normal; font-variant-numeric: tabular-nums; }
        .messages td { font-family: var(--mono); }
        .panes { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 300px), 1fr)); gap: 0 16px; padding: 6px 10px 10px; }
        .pane { min-width: 0; }
        pre { margin: 0; font-family: var(--mono); font-size: 12px; white-space: pre-wrap; overflow-wrap: anywhere; background: var(--panel);
          border: 1px solid var(--line); border-radius: 6px; padding: 6px 8px; max-height: 420px; overflow: auto; }
        table { border-collapse: collapse; width: 100%; table-layout: fixed; font-size: 12px; }
        th, td { text-align: left; vertical-align: top; padding: 2px 6px 2px 0; overflow-wrap: anywhere; }
        th { width: 36%; font-weight: 500; color: var(--muted); }
        td { font-family: var(--mono); }
        .near-miss td { color: var(--bad); }
        .note { font-size: 12px; color: var(--muted); margin: 4px 0; overflow-wrap: anywhere; }
        .curl-command { margin-top: 6px; }
        .curl-row { display: flex; gap: 8px; align-items: center; flex-wrap: wrap; margin-top: 8px; }
        </style>
        </head>
        <body>
        <header>
          <h1>MockServer journal</h1>
          <span id="mode" data-mode="connecting">connecting</span>
          <span id="counts"></span>
          <a id="har" href="journal.har" download="journal.har">Download HAR</a>
          <div class="filters" role="group" aria-label="Filters">
            <label><input type="checkbox" id="filter-unmatched"> unmatched only</label>
            <label><input type="checkbox" id="filter-faulted"> faulted only</label>
            <input type="search" id="filter-path" placeholder="path contains…" aria-label="path contains">
          </div>
        </header>
        <main>
          <section id="faults" aria-labelledby="faults-title">
            <h2 id="faults-title">Fault plan</h2>
            <p id="plan-current" data-rules="">loading…</p>
            <details id="plan-edit" open>
            <summary>Change the plan</summary>
            <form id="plan-form">
              <label for="plan-rules">Rules, as MOCKSERVER_FAULTS takes them (KIND[=ARG][,when=…][,path=…][,method=…][,operation=…], separated by ;)</label>
              <textarea id="plan-rules" rows="3" spellcheck="false" placeholder="status=503,when=first:1,path=/users/*"></textarea>
              <label for="plan-seed">Seed (optional)</label>
              <input type="text" id="plan-seed" inputmode="numeric" autocomplete="off">
              <div class="actions">
                <button type="submit" id="plan-apply">Apply</button>
                <button type="button" id="plan-clear">Clear</button>
              </div>
            </form>
            </details>
            <p id="plan-error" role="alert" hidden></p>
          </section>
          <section aria-label="Requests">
            <p id="empty">No requests yet. They appear here as they arrive.</p>
            <div id="rows"></div>
          </section>
        </main>
        <script>
        'use strict';
        // Everything from the journal goes in through textContent or text nodes, never as markup.
        const API = '/__mockserver/';
        const MAX_ROWS = 5000;
        const POLL_MS = 1000;
        const state = { entries: new Map(), nodes: new Map(), next: 0, polling: false, skipped: 0 };
        const $ = (id) => document.getElementById(id);

        function el(tag, attributes, ...children) {
          const node = document.createElement(tag);
          for (const [name, value] of Object.entries(attributes || {})) {
            if (value === undefined || value === null || value === false) continue;
            if (name === 'class') node.className = value; else node.setAttribute(name, String(value));
          }
          for (const child of children) {
            if (child === undefined || child === null || child === false) continue;
            node.append(typeof child === 'string' || typeof child === 'number' ? String(child) : child);
          }
          return node;
        }

        function setMode(mode, text) { const node = $('mode'); node.dataset.mode = mode; node.textContent = text; }
        function outcome(entry) { return entry.outcome && typeof entry.outcome === 'object' ? entry.outcome : {}; }
        function isUnmatched(entry) { return outcome(entry).kind === 'unmatched'; }
        function isFaulted(entry) { return outcome(entry).kind === 'fault' || outcome(entry).fault !== undefined; }
        function pathOf(target) { const mark = String(target).indexOf('?'); return mark < 0 ? String(target) : String(target).slice(0, mark); }
        function headerValue(headers, name) {
          const wanted = name.toLowerCase();
          for (const pair of headers || []) if (String(pair[0]).toLowerCase() === wanted) return String(pair[1]);
          return null;
        }
        function reference(ref) {
          if (!ref || typeof ref !== 'object') return '';
          return `${ref.cassette} #${ref.interaction}` + (ref.method ? ` (${ref.method} ${ref.target})` : '');
        }
        function pretty(text) {
          if (/^\s*[\[{]/.test(text)) { try { return JSON.stringify(JSON.parse(text), null, 2); } catch (e) { /* not JSON: as sent */ } }
          return text;
        }
        function clockTime(iso) {
          const date = new Date(iso);
          if (isNaN(date)) return String(iso || '');
          const two = (n) => String(n).padStart(2, '0');
          return `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}.${String(date.getMilliseconds()).padStart(3, '0')}`;
        }

        // A word the shell takes as it is, or the text in single quotes ('\'' for each quote inside).
        function shellQuote(text) {
          text = String(text);
          return /^[A-Za-z0-9_\/.:=@%+,-]+$/.test(text) ? text : "'" + text.replace(/'/g, "'\\''") + "'";
        }

        // The request again, to this server: its method, target, headers and body as the journal holds them
        // (redacted values as shown). curl's own headers are left out or emptied, so the copy arrives as the
        // original did; a request an app sent to another host keeps that host through the routing header.
        function curlCommand(entry) {
          const words = ['curl', '--path-as-is', '--globoff'];
          const method = String(entry.method || 'GET');
          const hasBody = entry.body !== undefined || entry.bodyBase64 !== undefined;
          if (method === 'HEAD') words.push('--head');
          else if (method !== 'GET' || hasBody) words.push('-X', shellQuote(method));
          const headers = entry.headers || [];
          const host = headerValue(headers, 'Host');
          if (host !== null && host !== location.host) words.push('-H', shellQuote('X-MockServer-Host: ' + host));
          const skipped = new Set(['host', 'content-length', 'transfer-encoding', 'connection']);
          for (const pair of headers) {
            if (skipped.has(String(pair[0]).toLowerCase())) continue;
            words.push('-H', shellQuote(`${pair[0]}: ${pair[1]}`));
          }
          for (const name of ['User-Agent', 'Accept']) if (headerValue(headers, name) === null) words.push('-H', shellQuote(name + ':'));
          if (hasBody) {
            if (headerValue(headers, 'Content-Type') === null) words.push('-H', shellQuote('Content-Type:'));
            if (headerValue(headers, 'Expect') === null) words.push('-H', shellQuote('Expect:'));
          }
          if (entry.body !== undefined) words.push('--data-binary', shellQuote(entry.body));
          if (entry.bodyBase64 !== undefined) words.push('--data-binary', '@-');
          words.push(shellQuote(location.origin + entry.target));
          const command = words.join(' ');
          return entry.bodyBase64 !== undefined ? `printf %s ${shellQuote(entry.bodyBase64)} | base64 -d | ${command}` : command;
        }

        function headersTable(headers) {
          const table = el('table', { class: 'headers' });
          for (const pair of headers || []) table.append(el('tr', {}, el('th', {}, String(pair[0])), el('td', {}, String(pair[1]))));
          return table;
        }

        // The bytes base64 `text` holds: three per four characters, less its padding.
        function base64Size(text) {
          const encoded = String(text || '');
          return Math.floor(encoded.length * 3 / 4) - (encoded.endsWith('==') ? 2 : encoded.endsWith('=') ? 1 : 0);
        }

        function bodyBlock(entry) {
          if (entry.body !== undefined) return el('pre', { class: 'body' }, pretty(String(entry.body)));
          if (entry.bodyBase64 !== undefined) return el('p', { class: 'note' }, `binary body, ${base64Size(entry.bodyBase64)} bytes (base64 in the journal)`);
          return el('p', { class: 'note' }, 'no body');
        }

        // A near miss field by field, as the JSON gives it: each difference is "LOCATION: what differs".
        function nearMissBlock(nearMiss) {
          const block = el('div', { class: 'near-miss' });
          if (nearMiss.closest) block.append(el('p', { class: 'note' }, 'closest: ' + reference(nearMiss.closest)));
          const differences = Array.isArray(nearMiss.differences) ? nearMiss.differences : [];
          if (differences.length) {
            const table = el('table', { class: 'differences' });
            for (const difference of differences) {
              const text = String(difference);
              const colon = text.indexOf(': ');
              table.append(colon < 0 ? el('tr', {}, el('td', { colspan: 2 }, text)) : el('tr', {}, el('th', {}, text.slice(0, colon)), el('td', {}, text.slice(colon + 2))));
            }
            block.append(table);
          }
          if (Array.isArray(nearMiss.usedUp) && nearMiss.usedUp.length) {
            block.append(el('p', { class: 'note' }, 'matched, but already used: ' + nearMiss.usedUp.map(reference).join('; ')));
          }
          if (!differences.length && nearMiss.message) block.append(el('pre', {}, String(nearMiss.message)));
          return block;
        }

        function extras(object, known) {
          const rest = Object.keys(object || {}).filter((key) => !known.includes(key));
          if (!rest.length) return null;
          const table = el('table', { class: 'extras' });
          for (const key of rest) {
            const value = object[key];
            table.append(el('tr', {}, el('th', {}, key), el('td', {}, typeof value === 'string' ? value : JSON.stringify(value, null, 2))));
          }
          return table;
        }

        // A WebSocket conversation: its message count and how it ended, or that it is open.
        function conversationSummary(socket) {
          const count = typeof socket.messageCount === 'number' ? socket.messageCount : 0;
          let ending = socket.open ? 'open' : 'ended';
          if (socket.close) ending = `closed by the ${socket.close.by}` + (socket.close.code !== undefined ? ` with ${socket.close.code}` : '');
          else if (socket.dropped) ending = `dropped by the ${socket.dropped.by}`;
          return `WebSocket, ${count} message${count === 1 ? '' : 's'}, ${ending}`;
        }

        // Every message of a conversation, one row each: offset, side, and the text (or the binary size).
        function conversationBlock(socket) {
          const block = el('div', { class: 'conversation' }, el('p', { class: 'note' }, conversationSummary(socket)));
          const table = el('table', { class: 'messages' });
          for (const message of Array.isArray(socket.messages) ? socket.messages : []) {
            const bytes = base64Size(message.base64);
            const payload = message.text !== undefined ? String(message.text) : `binary, ${bytes} byte${bytes === 1 ? '' : 's'}`;
            table.append(el('tr', { 'data-from': String(message.from) }, el('th', {}, `+${message.offsetMs} ms ${message.from === 'client' ? '→' : '←'} ${message.from}`), el('td', {}, payload)));
          }
          block.append(table);
          if (socket.messageCount > (socket.messages || []).length) block.append(el('p', { class: 'note' }, `… ${socket.messageCount - socket.messages.length} more not kept`));
          if (socket.note) block.append(el('pre', {}, String(socket.note)));
          return block;
        }

        function outcomeSummary(entry) {
          const result = outcome(entry);
          const line = el('span', { class: 'outcome' }, String(result.kind || 'unknown'));
          if (result.interaction) line.append(' · ' + reference(result.interaction));
          if (result.fault !== undefined) line.append(' · ' + String(result.fault) + (result.seed !== undefined ? ` (seed ${result.seed})` : ''));
          if (result.webSocket) line.append(' · ' + conversationSummary(result.webSocket));
          if (result.nearMiss) {
            const differences = Array.isArray(result.nearMiss.differences) ? result.nearMiss.differences : [];
            if (differences.length) line.append(' · ', el('span', { class: 'diff-hint' }, String(differences[0]) + (differences.length > 1 ? ` (+${differences.length - 1} more)` : '')));
            else if (result.nearMiss.usedUp) line.append(' · already used');
          }
          return line;
        }

        function row(entry, previous) {
          const result = outcome(entry);
          const status = typeof result.status === 'number' ? result.status : null;
          const elapsed = previous ? new Date(entry.time) - new Date(previous.time) : NaN;
          const summary = el('summary', {},
            el('span', { class: 'seq' }, '#' + entry.sequence),
            el('span', { class: 'time', title: String(entry.time || '') }, clockTime(entry.time) + (isNaN(elapsed) ? '' : ` (+${elapsed} ms)`)),
            el('span', { class: 'method' }, String(entry.method || '')),
            el('span', { class: 'target' }, String(entry.target || '') + (Array.isArray(entry.operations) && entry.operations.length ? ' · GraphQL ' + entry.operations.join(', ') : '')),
            el('span', { class: 'status ' + (status === null ? 'none' : 's' + String(status)[0]) }, status === null ? '—' : String(status)),
            outcomeSummary(entry));

          const request = el('div', { class: 'pane request' }, el('h3', {}, 'Request'),
            el('p', { class: 'note' }, `${entry.method} ${entry.target} · received ${entry.time}` + (isNaN(elapsed) ? '' : `, ${elapsed} ms after the previous request`)),
            headersTable(entry.headers), bodyBlock(entry), extras(entry, ['sequence', 'time', 'method', 'target', 'headers', 'body', 'bodyBase64', 'outcome', 'operations']));
          const host = headerValue(entry.headers, 'Host');
          const routed = host !== null && host !== location.host;
          const curlOutput = el('pre', { class: 'curl-command', hidden: true });
          const curlButton = el('button', { type: 'button', class: 'copy-curl' }, 'copy as curl');
          curlButton.addEventListener('click', () => {
            const command = curlCommand(entry);
            curlOutput.textContent = command;
            curlOutput.hidden = false;
            if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(command).then(() => { curlButton.textContent = 'copied'; }, () => {});
          });
          request.append(el('div', { class: 'curl-row' }, curlButton,
            el('span', { class: 'note' }, (routed ? `the app sent this to ${host}; the command sends it here, naming that host in X-MockServer-Host` : 'sends it to this server again')
              + (/<redacted>|%3Credacted%3E/i.test(JSON.stringify(entry)) ? '; redacted values go as shown' : ''))),
            curlOutput);

          const response = el('div', { class: 'pane response' }, el('h3', {}, 'Response'),
            el('p', { class: 'note' }, `${status === null ? 'no status' : 'status ' + status} · ${result.kind || 'unknown'}`));
          if (result.interaction) response.append(el('p', { class: 'note matched' }, 'answered by ' + reference(result.interaction)));
          if (result.fault !== undefined) response.append(el('p', { class: 'note fault' }, 'fault applied: ' + String(result.fault) + (result.seed !== undefined ? `, seed ${result.seed}` : '')));
          if (result.nearMiss) response.append(el('h3', {}, 'Near miss'), nearMissBlock(result.nearMiss));
          if (result.webSocket) {
            // The entry came when the socket opened: opening the row reads the conversation as it is now.
            let shown = conversationBlock(result.webSocket);
            const refresh = async () => {
              try {
                const page = await (await fetch(API + 'journal?since=' + entry.sequence, { cache: 'no-store' })).json();
                const now = (page.entries || []).find((e) => e.sequence === entry.sequence);
                if (now && outcome(now).webSocket) {
                  const block = conversationBlock(outcome(now).webSocket);
                  shown.replaceWith(block);
                  shown = block;
                  summary.querySelector('.outcome').replaceWith(outcomeSummary(now));
                }
              } catch (error) { /* the next opening tries again */ }
            };
            response.append(el('h3', {}, 'Conversation'), shown);
            response.dataset.refresh = '1';
            response.refreshConversation = refresh;
          }
          if (entry.response && typeof entry.response === 'object') {
            if (entry.response.headers) response.append(headersTable(entry.response.headers));
            if (entry.response.body !== undefined || entry.response.bodyBase64 !== undefined) response.append(bodyBlock(entry.response));
          }
          const more = extras(result, ['kind', 'status', 'interaction', 'fault', 'seed', 'nearMiss', 'webSocket']);
          if (more) response.append(more);

          const details = el('details', { class: 'entry', 'data-sequence': entry.sequence, 'data-kind': String(result.kind || ''), 'data-status': status === null ? '' : status },
            summary, el('div', { class: 'panes' }, request, response));
          details.dataset.path = pathOf(entry.target || '');
          if (response.refreshConversation) details.addEventListener('toggle', () => { if (details.open) response.refreshConversation(); });
          return details;
        }

        // Entries wait here and are drawn together, one batch every 50 ms: drawing each as it came, a page under
        // load would fall ever further behind the stream, holding its backlog.
        const pending = [];
        let drawing = false;

        function add(entry) {
          if (!entry || typeof entry.sequence !== 'number') return;
          pending.push(entry);
          if (!drawing) { drawing = true; setTimeout(draw, 50); }
        }

        function draw() {
          drawing = false;
          const batch = pending.splice(0, pending.length);
          // Of a batch larger than the page keeps, only the newest are drawn; the others count as not shown.
          const first = Math.max(0, batch.length - MAX_ROWS);
          state.skipped += first;
          for (let index = first; index < batch.length; index += 1) insert(batch[index]);
          updateCounts();
        }

        function insert(entry) {
          if (state.entries.has(entry.sequence)) return;
          const previous = state.entries.get(entry.sequence - 1);
          state.entries.set(entry.sequence, entry);
          const node = row(entry, previous);
          applyFilters(node, entry);
          $('rows').prepend(node);
          state.nodes.set(entry.sequence, node);
          while (state.entries.size > MAX_ROWS) {
            const oldest = state.entries.keys().next().value;
            state.entries.delete(oldest);
            state.nodes.get(oldest)?.remove();
            state.nodes.delete(oldest);
          }
          state.next = Math.max(state.next, entry.sequence + 1);
        }

        function clearAll() {
          pending.length = 0;
          state.entries.clear();
          state.nodes.clear();
          state.next = 0;
          state.skipped = 0;
          $('rows').replaceChildren();
          updateCounts();
        }

        function applyFilters(node, entry) {
          const path = $('filter-path').value.trim().toLowerCase();
          node.hidden = ($('filter-unmatched').checked && !isUnmatched(entry)) || ($('filter-faulted').checked && !isFaulted(entry))
            || (path !== '' && !pathOf(entry.target || '').toLowerCase().includes(path));
        }

        function refilter() {
          for (const node of $('rows').children) applyFilters(node, state.entries.get(Number(node.dataset.sequence)) || {});
          updateCounts();
        }

        function updateCounts() {
          const all = [...state.entries.values()];
          const shown = [...$('rows').children].filter((node) => !node.hidden).length;
          const skipped = state.skipped ? ` · ${state.skipped} not shown` : '';
          $('counts').textContent = `${all.length} requests · ${all.filter(isUnmatched).length} unmatched · ${all.filter(isFaulted).length} faulted · ${shown} shown${skipped}`;
          $('empty').hidden = all.length > 0;
        }

        // Live: the event stream when the server has one; else GET journal?since=N once a second.
        function follow() {
          if (!window.EventSource) { poll(); return; }
          let opened = false;
          const source = new EventSource(API + 'journal/events');
          source.onopen = () => { opened = true; setMode('events', 'live'); };
          source.onmessage = (event) => { try { add(JSON.parse(event.data)); } catch (e) { /* a line that is not an entry */ } };
          source.addEventListener('reset', clearAll);
          // Under load a page reads slower than requests come: the server says which entries it could not send.
          source.addEventListener('skipped', (event) => {
            try { const gap = JSON.parse(event.data); state.skipped += Math.max(0, gap.to - gap.from); updateCounts(); } catch (e) { /* not a gap */ }
          });
          source.onerror = () => {
            if (!opened) { source.close(); poll(); return; }
            setMode(source.readyState === EventSource.CLOSED ? 'offline' : 'connecting', source.readyState === EventSource.CLOSED ? 'disconnected' : 'reconnecting…');
          };
        }

        // Reads from one before the last entry seen: if that one is gone or different, the journal was reset.
        async function poll() {
          if (!state.polling) { state.polling = true; setMode('polling', 'live (polling)'); }
          try {
            const since = Math.max(0, state.next - 1);
            const response = await fetch(API + 'journal?since=' + since, { cache: 'no-store' });
            if (!response.ok) throw new Error('status ' + response.status);
            const page = await response.json();
            const entries = Array.isArray(page.entries) ? page.entries : [];
            const last = state.entries.get(state.next - 1);
            // A reset: read again from 0 next round, since these entries may start past the new first one.
            if (last && !entries.some((e) => e.sequence === last.sequence && e.time === last.time && e.target === last.target)
                && !(entries.length && entries[0].sequence > last.sequence)) clearAll();
            else for (const entry of entries) add(entry);
            setMode('polling', 'live (polling)' + (page.dropped ? ` · ${page.dropped} dropped` : ''));
          } catch (error) {
            setMode('offline', 'cannot read the journal: ' + error.message);
          }
          setTimeout(poll, POLL_MS);
        }

        function showPlan(plan) {
          const rules = plan && typeof plan.rules === 'string' ? plan.rules : '';
          $('plan-current').dataset.rules = rules;
          $('plan-current').textContent = rules ? `${rules} (seed ${plan.seed})` : 'none: every request is answered as recorded';
        }

        function showPlanError(sentence) {
          $('plan-error').textContent = sentence || '';
          $('plan-error').hidden = !sentence;
        }

        async function planRequest(method, body, query) {
          try {
            const response = await fetch(API + 'faults' + (query || ''), { method, body, cache: 'no-store', headers: body === undefined ? {} : { 'Content-Type': 'text/plain' } });
            const answer = await response.json().catch(() => ({}));
            if (!response.ok) { showPlanError(answer.error || `the server answered ${response.status}.`); return null; }
            showPlanError('');
            showPlan(answer);
            return answer;
          } catch (error) {
            showPlanError('cannot reach the server: ' + error.message);
            return null;
          }
        }

        $('plan-form').addEventListener('submit', (event) => {
          event.preventDefault();
          const seed = $('plan-seed').value.trim();
          planRequest('PUT', $('plan-rules').value, seed ? '?seed=' + encodeURIComponent(seed) : '');
        });
        $('plan-clear').addEventListener('click', () => planRequest('DELETE'));
        for (const id of ['filter-unmatched', 'filter-faulted']) $(id).addEventListener('change', refilter);
        $('filter-path').addEventListener('input', refilter);
        document.addEventListener('visibilitychange', () => { if (!document.hidden) planRequest('GET'); });

        // On a phone the form starts folded, so the requests come first.
        if (window.matchMedia('(max-width: 999px)').matches) $('plan-edit').open = false;
        planRequest('GET').then((plan) => { if (plan && plan.rules && !$('plan-rules').value) $('plan-rules').value = plan.rules; });
        updateCounts();
        follow();
        </script>
        </body>
        </html>
        """#
}
