#!/usr/bin/env python3
"""The mutant generator behind Tests/Mutation/run.sh (standard library only).

  mutants.py plan --out PLAN [--seed N] [--max N] [--base REV] [PATH...]
      collects every candidate mutant (in the lines `git diff REV` adds or changes under Sources/, plus
      untracked Swift files there; or in every line of the Swift files under PATHs; both: the changed lines
      of those files), shuffles them with random.Random(N), keeps the first --max and writes them to PLAN
      (JSON). Prints "CANDIDATES SELECTED".
  mutants.py list PLAN            one line per selected mutant: FILE<TAB>LINE<TAB>DESCRIPTION
  mutants.py write PLAN I OUT     writes mutant I's whole file (I counts from 1) to OUT
  mutants.py show FILE...         every candidate in the files, as FILE:LINE: DESCRIPTION

Every mutant is one edit of one line, so line numbers never move. Comments, doc comments, string literals
(with their interpolations), regex literals, `import` lines and compiler directives (`#if` ...) are never
mutated. The operators are listed in MUTATORS below. Errors are one sentence on stderr and exit status 2.
"""

import json
import os
import random
import re
import subprocess
import sys

OPERATOR_CHARS = set("/=-+!*%<>&|^~?")
IDENT_START = re.compile(r"[A-Za-z_$]")

# Rendering of non-code characters in a line's "view": comments become spaces, and each character of a string
# or regex literal (quotes, interpolations included) becomes STRING_CHAR, so that a literal reads as one operand.
STRING_CHAR = "\x01"


class Failure(Exception):
    """An error meant for the user: one sentence."""


# --- Lexing: which characters of a file are code --------------------------------------------------------


def classify(text):
    """Returns (kinds, line_starts_in_code): kinds[i] is 'c' for code, 's' for a string or regex literal
    (interpolations included) and 'm' for a comment; line_starts_in_code[n] says whether line n (from 0)
    begins in plain code rather than inside a comment or a multi-line string."""
    kinds = ["c"] * len(text)
    starts = [True]
    # The stack of open constructs: ("code", paren_depth, is_interpolation), ("string", hashes, multiline),
    # ("block", depth).
    stack = [("code", 0, False)]
    i, n = 0, len(text)

    def mark(start, end, kind):
        for k in range(start, min(end, n)):
            kinds[k] = kind

    def regex_end(i):
        """The index after a bare /regex/ starting at i, or None when the slash is an operator."""
        j = i - 1
        while j >= 0 and text[j] in " \t":
            j -= 1
        previous = text[j] if j >= 0 else "\n"
        if previous not in "(,:=[{\n" and not text[max(0, j - 5):j + 1].endswith("return"):
            return None
        if i + 1 >= n or text[i + 1] in " \t\n/*=":
            return None
        k, in_class = i + 1, False
        while k < n and text[k] != "\n":
            if text[k] == "\\":
                k += 2
                continue
            if text[k] == "[":
                in_class = True
            elif text[k] == "]":
                in_class = False
            elif text[k] == "/" and not in_class:
                return k + 1
            k += 1
        return None

    while i < n:
        c = text[i]
        if c == "\n":
            frame = stack[-1]
            if frame[0] == "string" and not frame[2]:
                stack.pop()  # an unterminated single-line string: resynchronize
            kinds[i] = "m" if frame[0] == "block" else ("s" if frame[0] == "string" else "c")
            i += 1
            starts.append(len(stack) == 1)
            continue
        frame = stack[-1]
        kind = frame[0]
        if kind == "block":
            if text.startswith("/*", i):
                stack[-1] = ("block", frame[1] + 1)
                mark(i, i + 2, "m")
                i += 2
            elif text.startswith("*/", i):
                mark(i, i + 2, "m")
                i += 2
                if frame[1] == 1:
                    stack.pop()
                else:
                    stack[-1] = ("block", frame[1] - 1)
            else:
                kinds[i] = "m"
                i += 1
            continue
        if kind == "string":
            hashes, multiline = frame[1], frame[2]
            kinds[i] = "s"
            if c == "\\":
                after = i + 1
                if text.startswith("#" * hashes, after):
                    after += hashes
                    if after < n and text[after] == "(":
                        mark(i, after + 1, "s")
                        stack.append(("code", 0, True))
                        i = after + 1
                        continue
                    mark(i, after + 1, "s")
                    i = after + 1 if text[after:after + 1] != "\n" else after
                    continue
                i += 1
                continue
            closing = ('"""' if multiline else '"') + "#" * hashes
            if text.startswith(closing, i):
                mark(i, i + len(closing), "s")
                i += len(closing)
                stack.pop()
                continue
            i += 1
            continue
        # Code, at the top level or inside an interpolation (whose characters all count as string).
        inside = frame[2]
        code_kind = "s" if inside else "c"
        if text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            mark(i, end, "m")
            i = end
            continue
        if text.startswith("/*", i):
            stack.append(("block", 1))
            mark(i, i + 2, "m")
            i += 2
            continue
        if c == "#" or c == '"':
            j = i
            while j < n and text[j] == "#":
                j += 1
            hashes = j - i
            if j < n and text[j] == '"':
                multiline = text.startswith('"""', j)
                opener = j + (3 if multiline else 1)
                mark(i, opener, "s")
                stack.append(("string", hashes, multiline))
                i = opener
                continue
            if hashes and j < n and text[j] == "/":  # #/extended regex/#
                end = text.find("/" + "#" * hashes, j + 1)
                end = n if end < 0 else end + 1 + hashes
                mark(i, end, "s")
                i = end
                continue
        if c == "/":
            end = regex_end(i)
            if end is not None:
                mark(i, end, "s")
                i = end
                continue
        if inside:
            if c == "(":
                stack[-1] = ("code", frame[1] + 1, True)
            elif c == ")":
                if frame[1] == 0:
                    kinds[i] = "s"
                    stack.pop()
                    i += 1
                    continue
                stack[-1] = ("code", frame[1] - 1, True)
        kinds[i] = code_kind
        i += 1
    return kinds, starts


# --- Tokens of one line -----------------------------------------------------------------------------------

TOKEN = re.compile(
    r"(?P<space>[ \t]+)"
    r"|(?P<string>\x01+)"
    r"|(?P<number>0x[0-9A-Fa-f_]+|\d[\d_]*(?:\.\d[\d_]*)?(?:[eE][+-]?\d+)?)"
    r"|(?P<ident>[A-Za-z_$][A-Za-z0-9_$]*|`[^`]+`|[#@][A-Za-z_][A-Za-z0-9_]*)"
    r"|(?P<op>\.[/=\-+!*%<>&|^~?.]+|[/=\-+!*%<>&|^~?]+)"
    r"|(?P<punct>.)"
)


class Token:
    __slots__ = ("kind", "text", "start", "end", "depth")

    def __init__(self, kind, text, start, end):
        self.kind, self.text, self.start, self.end, self.depth = kind, text, start, end, 0

    def __repr__(self):
        return f"{self.kind}:{self.text!r}@{self.start}"


class Line:
    """One line: its text, its view (non-code characters masked), whether each character is code, and its
    tokens (whitespace left out) with their bracket depth within the line."""

    def __init__(self, number, text, kinds, starts_in_code, ends_in_code):
        self.number = number
        self.text = text
        self.code = [k == "c" for k in kinds]
        self.view = "".join(
            ch if k == "c" else (" " if k == "m" else STRING_CHAR) for ch, k in zip(text, kinds))
        self.starts_in_code = starts_in_code
        self.ends_in_code = ends_in_code
        self.tokens = []
        depth = 0
        for match in TOKEN.finditer(self.view):
            kind = match.lastgroup
            if kind == "space":
                continue
            token = Token(kind, match.group(), match.start(), match.end())
            if token.text in (")", "]", "}"):
                depth -= 1
            token.depth = depth
            if token.text in ("(", "[", "{"):
                depth += 1
            self.tokens.append(token)
        self.balanced = depth == 0 and all(t.depth >= 0 for t in self.tokens)

    def is_code(self, start, end):
        return all(self.code[start:end])

    def space_before(self, token):
        return token.start == 0 or self.view[token.start - 1] in " \t"

    def space_after(self, token):
        return token.end >= len(self.view) or self.view[token.end] in " \t"

    def stripped(self):
        return self.view.strip()

    def first(self):
        return self.tokens[0] if self.tokens else None

    def last(self):
        return self.tokens[-1] if self.tokens else None


# Compiler conditions as a Linux build of this package sees them, so that code in a branch Linux never
# compiles (`#if canImport(Darwin)`) gets no mutants: they would build and survive whatever the tests do.
ABSENT_MODULES = {"Darwin", "UIKit", "AppKit", "WatchKit", "Security", "Network", "os", "ObjectiveC", "Combine",
                  "CFNetwork", "SystemConfiguration", "CryptoKit", "Musl", "WinSDK", "ucrt", "Android", "Bionic",
                  "WASILibc"}
CONDITION_ATOM = re.compile(r"(\w+)\s*\(\s*([^()]*?)\s*\)|(\w+)")


def linux_condition(expression):
    """Whether a #if condition holds in a Linux build (compiler versions and unknown checks count as true)."""
    machine = os.uname().machine
    arch = {"aarch64": "arm64"}.get(machine, machine)

    def atom(match):
        function, argument, flag = match.group(1), match.group(2), match.group(3)
        if function == "os":
            value = argument == "Linux"
        elif function == "canImport":
            value = argument.split(".")[0] not in ABSENT_MODULES
        elif function == "arch":
            value = argument == arch
        elif function == "targetEnvironment":
            value = False
        elif function is not None:  # compiler(>=6.3), swift(>=6), hasFeature(...), hasAttribute(...)
            value = True
        else:
            value = flag in ("DEBUG", "true")
        return f" {value} "

    python = CONDITION_ATOM.sub(atom, expression).replace("&&", " and ").replace("||", " or ")
    python = re.sub(r"!(?!=)", " not ", python)
    try:
        return bool(eval(python, {"__builtins__": {}}, {}))  # only True, False, and, or, not, parentheses
    except Exception:
        return True


def active_lines(lines):
    """For each line, whether a Linux build compiles it; directive lines themselves count as inactive."""
    active, stack = [], []  # stack of (parent active, some branch taken, this branch active)
    for line in lines:
        match = re.match(r"\s*#(if|elseif|else|endif)\b(.*)", line.view) if line.starts_in_code else None
        enclosing = stack[-1][2] if stack else True
        if match is None:
            active.append(enclosing)
            continue
        active.append(False)
        directive, condition = match.group(1), match.group(2).strip()
        if directive == "if":
            holds = enclosing and linux_condition(condition)
            stack.append((enclosing, holds, holds))
        elif stack and directive == "elseif":
            parent, taken, _ = stack[-1]
            holds = parent and not taken and linux_condition(condition)
            stack[-1] = (parent, taken or holds, holds)
        elif stack and directive == "else":
            parent, taken, _ = stack[-1]
            stack[-1] = (parent, True, parent and not taken)
        elif stack and directive == "endif":
            stack.pop()
    return active


def split_lines(text):
    kinds, starts = classify(text)
    lines, offset = [], 0
    raw = text.split("\n")
    for number, line_text in enumerate(raw):
        end = offset + len(line_text)
        ends_in_code = starts[number + 1] if number + 1 < len(starts) else True
        lines.append(Line(number + 1, line_text, kinds[offset:end], starts[number], ends_in_code))
        offset = end + 1
    for line, active in zip(lines, active_lines(lines)):
        if not active:
            line.tokens = []  # invisible to every operator, and to the neighbours of the lines around it
    return lines


# --- The operators ---------------------------------------------------------------------------------------

FLIPPED = {"<": ">=", ">=": "<", ">": "<=", "<=": ">", "==": "!=", "!=": "=="}
LOGICAL = {"&&": "||", "||": "&&"}
RANGES = {"..<": "...", "...": "..<"}
BOOLEANS = {"true": "false", "false": "true"}
MINMAX = {"min": "max", "max": "min"}
ASSIGNMENTS = {"=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", "&+=", "&-=", "&*="}
# A line starting with one of these is not a removable statement: declarations, control flow, labels.
NOT_STATEMENTS = {
    "let", "var", "func", "init", "deinit", "subscript", "class", "struct", "enum", "protocol", "extension",
    "actor", "typealias", "associatedtype", "operator", "precedencegroup", "import", "case", "default",
    "if", "guard", "else", "switch", "for", "while", "repeat", "do", "catch", "defer", "return", "throw",
    "break", "continue", "fallthrough", "in", "where", "public", "private", "fileprivate", "internal", "open",
    "package", "static", "final", "override", "mutating", "nonmutating", "lazy", "weak", "unowned",
    "convenience", "required", "indirect", "nonisolated", "isolated", "consuming", "borrowing", "dynamic",
    "get", "set", "willSet", "didSet", "some", "any", "macro",
}
# Removing these would leave a check that the tests cannot observe without crashing the process.
UNREMOVABLE_CALLS = {"assert", "assertionFailure", "precondition", "preconditionFailure", "fatalError",
                     "dispatchPrecondition"}
# A line ending with one of these continues on the next line.
CONTINUATIONS = {",", "(", "[", "{", ":", "in", "."}
SKIPPED_LINE = re.compile(r"^\s*(?:@testable\s+|@_exported\s+)?import\s|^\s*#(?:if|elseif|else|endif|warning|error|"
                          r"sourceLocation)\b")
MAX_SHOWN = 60


def shorten(text):
    text = " ".join(text.split())
    return text if len(text) <= MAX_SHOWN else text[:MAX_SHOWN - 1] + "…"


class Mutant:
    __slots__ = ("file", "line", "column", "operator", "original", "mutated", "description")

    def __init__(self, file, line, column, operator, original, mutated, description):
        self.file, self.line, self.column, self.operator = file, line, column, operator
        self.original, self.mutated, self.description = original, mutated, description

    def key(self):
        return (self.file, self.line, self.column, self.operator, self.mutated)

    def as_json(self):
        return {name: getattr(self, name) for name in self.__slots__}

    @staticmethod
    def from_json(data):
        return Mutant(*(data[name] for name in Mutant.__slots__))

    def __repr__(self):
        return f"{self.file}:{self.line}: {self.description}"


def replace(line, start, end, new):
    return line.text[:start] + new + line.text[end:]


def token_mutants(line):
    """(column, operator, mutated line, description) for the operators that replace one token."""
    out = []
    tokens = line.tokens
    has_availability = "available(" in line.view
    for index, token in enumerate(tokens):
        if not line.is_code(token.start, token.end):
            continue
        previous = tokens[index - 1] if index > 0 else None
        following = tokens[index + 1] if index + 1 < len(tokens) else None
        text = token.text
        spaced = line.space_before(token) and line.space_after(token)

        def add(operator, new, description=None, start=token.start, end=token.end):
            out.append((start, operator, replace(line, start, end, new),
                        description or f"'{line.text[start:end]}' -> '{new}'"))

        if token.kind == "op":
            if text in FLIPPED and spaced:
                add("comparison", FLIPPED[text])
            elif text in LOGICAL and spaced:
                add("logical", LOGICAL[text])
            elif text in RANGES:
                after = line.view[token.end:token.end + 1]
                if spaced or (after and (after.isalnum() or after in "_$([" + STRING_CHAR)):
                    add("range", RANGES[text])
            elif text == "!" and following is not None and following.start == token.end:
                before = line.view[token.start - 1] if token.start > 0 else " "
                if before in " \t([{,=:" and (following.kind in ("ident", "number") or following.text in "(["):
                    shown = following.text if following.kind == "ident" else following.text + "…"
                    add("negation", "", f"'!{shown}' -> '{shown}'")
        elif token.kind == "ident":
            after_dot = previous is not None and previous.text == "." and previous.end == token.start
            if text in BOOLEANS and not after_dot:
                add("boolean", BOOLEANS[text])
            elif text in MINMAX:
                # Calls (`min(a, b)`, `values.max()`) and members (`Int.max`); not a label or a variable
                # that happens to be called min.
                called = line.view[token.end:token.end + 1] == "("
                declared = previous is not None and previous.text in ("let", "var", "func", "case")
                if (called or after_dot) and not declared:
                    add("min-max", MINMAX[text])
        elif token.kind == "number" and not has_availability:
            if previous is not None and previous.end == token.start and previous.text in (".", "..."):
                if previous.text == ".":
                    continue  # a tuple element such as pair.0
            digits = text.replace("_", "")
            if re.fullmatch(r"\d+", digits):
                value = int(digits)
                negated = previous is not None and previous.text == "-" and previous.end == token.start
                for new in (value + 1, value - 1):
                    if new < 0 and negated:
                        continue
                    add("constant", str(new))
            elif re.fullmatch(r"0x[0-9A-Fa-f]+", digits):
                value, width = int(digits[2:], 16), len(digits) - 2
                upper = any(ch in "ABCDEF" for ch in digits[2:])
                for new in (value + 1, value - 1):
                    if new >= 0:
                        add("constant", "0x" + format(new, f"0{width}{'X' if upper else 'x'}"))
    return out


def clause_spans(line, first, stop):
    """The comma-separated clauses of the condition between token indices first and stop (exclusive), as
    (first token index, last token index) pairs at the condition's bracket depth."""
    depth = line.tokens[first].depth if first < stop else 0
    spans, start = [], first
    for k in range(first, stop):
        if line.tokens[k].text == "," and line.tokens[k].depth == depth:
            spans.append((start, k - 1))
            start = k + 1
    spans.append((start, stop - 1))
    return [span for span in spans if span[0] <= span[1]]


def condition_mutants(line):
    """`if x` -> `if !x` and `guard x` -> `guard !x`, one mutant per boolean clause of the condition."""
    out = []
    tokens = line.tokens
    for index, token in enumerate(tokens):
        if token.kind != "ident" or token.text not in ("if", "guard") or not line.is_code(token.start, token.end):
            continue
        if index > 0 and tokens[index - 1].text == "." and tokens[index - 1].end == token.start:
            continue
        stop = None
        for k in range(index + 1, len(tokens)):
            if tokens[k].depth < token.depth:
                break
            if tokens[k].depth != token.depth:
                continue
            if (token.text == "if" and tokens[k].text == "{") or (token.text == "guard" and tokens[k].text == "else"):
                stop = k
                break
        if stop is None or stop == index + 1 or not line.is_code(tokens[stop].start, tokens[stop].end):
            continue
        for first, last in clause_spans(line, index + 1, stop):
            head = tokens[first]
            if head.text in ("let", "var", "case", "#available", "#unavailable") or head.text.startswith("!"):
                continue
            start, end = head.start, tokens[last].end
            clause = line.text[start:end]
            simple = all(t.depth > head.depth or t.kind in ("ident", "number", "string") or t.text in (".", "?", "!", ")", "]")
                         for t in tokens[first:last + 1]) and " " not in line.view[start:end].strip()
            if not simple:
                inner = [t for t in tokens[first:last + 1] if t.depth == head.depth]
                simple = all(t.kind != "op" or t.text in (".", "?", "!") for t in inner) and \
                    not any(line.view[t.end:t.end + 1] == " " for t in inner[:-1])
            new = "!" + clause if simple else "!(" + clause + ")"
            out.append((start, "condition", replace(line, start, end, new), f"'{shorten(clause)}' -> '{shorten(new)}'"))
    return out


def list_mutants(line):
    """`[a, b, c]` -> `[a, b]` and the like: each element of a one-line array or dictionary literal dropped."""
    out = []
    tokens = line.tokens
    for index, token in enumerate(tokens):
        if token.text != "[" or not line.is_code(token.start, token.end):
            continue
        before = line.view[token.start - 1] if token.start > 0 else " "
        if before.isalnum() or before in "_$)]?!>" + STRING_CHAR:
            continue  # a subscript
        close = next((k for k in range(index + 1, len(tokens))
                      if tokens[k].text == "]" and tokens[k].depth == token.depth), None)
        if close is None or not line.is_code(tokens[close].start, tokens[close].end):
            continue
        if close + 1 < len(tokens) and tokens[close + 1].text == "in":
            continue  # a closure's capture list
        elements = clause_spans(line, index + 1, close) if close > index + 1 else []
        if len(elements) < 2:
            continue
        literal = line.text[token.start:tokens[close].end]
        for number, (first, last) in enumerate(elements):
            if number + 1 < len(elements):
                start, end = tokens[first].start, tokens[elements[number + 1][0]].start
            else:
                start, end = tokens[elements[number - 1][1]].end, tokens[last].end
            mutated = replace(line, start, end, "")
            dropped = line.text[tokens[first].start:tokens[last].end]
            shrunk = mutated[token.start:tokens[close].end - (end - start)]
            if len(literal) <= MAX_SHOWN:
                description = f"'{literal}' -> '{shrunk}'"
            else:
                description = f"dropped '{shorten(dropped)}' ({number + 1} of {len(elements)}) from a list"
            out.append((tokens[first].start, "list", mutated, description))
    return out


def neighbours(lines, index):
    """The nearest lines before and after lines[index] with code on them (None at either end)."""
    before = next((lines[k] for k in range(index - 1, -1, -1) if lines[k].tokens), None)
    after = next((lines[k] for k in range(index + 1, len(lines)) if lines[k].tokens), None)
    return before, after


def whole_statement(lines, index):
    """Whether lines[index] holds exactly one complete statement: balanced, not continued from the line
    before or on the line after, no `;`, not opening or closing a block."""
    line = lines[index]
    if not line.tokens or not line.starts_in_code or not line.ends_in_code or not line.balanced:
        return False
    if not all(line.code[t.start] for t in (line.first(), line.last())):
        return False
    if any(t.text == ";" for t in line.tokens):
        return False
    first, last = line.first(), line.last()
    if first.text in ("}", ".", ")", "]") or first.kind == "op" or first.text.startswith(("@", "#")):
        return False
    if last.kind == "op" or last.text in CONTINUATIONS or last.text in ASSIGNMENTS:
        return False
    before, after = neighbours(lines, index)
    if before is not None:
        tail = before.last()
        if tail.kind == "op" and tail.text not in ("!", "?") or tail.text in (",", "(", "[", "=", ".", "in") \
                or not before.ends_in_code:
            return False
    if after is not None:
        head = after.first()
        if head.text.startswith(".") or (head.kind == "op" and not after.view.lstrip().startswith(("!", "-", "&"))) \
                or head.text == "?" or not after.starts_in_code:
            return False
    return True


def statement_mutant(lines, index):
    """A whole single-line call, assignment or compound assignment, removed (the line left empty)."""
    line = lines[index]
    if not whole_statement(lines, index):
        return None
    tokens = line.tokens
    k = 0
    while k < len(tokens) and tokens[k].text in ("try", "await"):
        k += 1
        if k < len(tokens) and tokens[k].text in ("?", "!") and tokens[k].start == tokens[k - 1].end:
            k += 1
    if k >= len(tokens) or tokens[k].kind != "ident" or tokens[k].text in NOT_STATEMENTS:
        return None
    head = tokens[k].text
    if head in UNREMOVABLE_CALLS or head in ("super", "self") and k + 2 < len(tokens) and tokens[k + 2].text == "init":
        return None
    assigns = any(t.kind == "op" and t.text in ASSIGNMENTS and t.depth == 0 and line.space_before(t) and line.space_after(t)
                  for t in tokens)
    calls = tokens[-1].text in (")", "}") and any(t.text == "(" or t.text == "{" for t in tokens[k + 1:])
    if not (assigns or calls):
        return None
    before, after = neighbours(lines, index)
    # The only statement of a switch case: removing it would not compile. Nor would removing the one
    # expression of a computed property or of a function that returns a value (its implicit return).
    if before is not None and after is not None and before.last().text == "{" and after.first().text == "}" and \
            not assigns and any(t.text in ("->", "var", "get") for t in before.tokens):
        return None
    if before is not None and before.last().text == ":" and after is not None and \
            after.first().text in ("case", "default", "}", "@unknown"):
        return None
    statement = line.text.strip()
    return (len(line.text) - len(line.text.lstrip()), "statement", "", f"removed '{shorten(statement)}'")


def block_kinds(lines):
    """For each line, the kind of the innermost block open at its start: 'if' (the body of an if or else),
    'guard', or 'other'; and for each `{` token, its kind (keyed by (line number, column))."""
    stack, at_start, brace_kinds = [], [], {}
    for line in lines:
        at_start.append(stack[-1] if stack else "other")
        for index, token in enumerate(line.tokens):
            if not line.code[token.start]:
                continue
            if token.text == "{":
                kind = "other"
                if token.depth == 0 or all(t.depth >= token.depth for t in line.tokens[:index]):
                    for back in range(index - 1, -1, -1):
                        t = line.tokens[back]
                        if t.text in ("{", "}", ";", "in") or t.depth < token.depth:
                            break
                        if t.depth != token.depth:
                            continue
                        if t.text == "if":
                            kind = "if"
                            break
                        if t.text == "guard":
                            kind = "guard"
                            break
                        if t.text == "else":
                            # An if's else follows its closing brace; any other else is a guard's.
                            kind = "if" if back == 0 or line.tokens[back - 1].text == "}" else "guard"
                            break
                brace_kinds[(line.number, token.start)] = kind
                stack.append(kind)
            elif token.text == "}" and stack:
                stack.pop()
    return at_start, brace_kinds


def return_mutants(lines, index, at_start, brace_kinds):
    """An early `return` inside the body of an if (or else) removed: `if x { return }` -> `if x { }`, or the
    return's own line emptied. (A guard's else must leave the scope, so without its return it never compiles:
    guard bodies are not mutated.)"""
    line = lines[index]
    out = []
    tokens = line.tokens
    for k, token in enumerate(tokens):
        if token.text != "return" or not line.is_code(token.start, token.end):
            continue
        if k == 0:
            if at_start[index] == "if" and whole_statement(lines, index) and line.balanced:
                statement = line.text.strip()
                out.append((token.start, "return", "", f"removed '{shorten(statement)}'"))
            continue
        opener = tokens[k - 1]
        if opener.text not in ("{", ";"):
            continue
        brace = next((tokens[b] for b in range(k - 1, -1, -1)
                      if tokens[b].text == "{" and tokens[b].depth == token.depth - 1), None)
        if brace is None or brace_kinds.get((line.number, brace.start)) != "if":
            continue
        close = next((c for c in range(k + 1, len(tokens))
                      if tokens[c].text == "}" and tokens[c].depth == token.depth - 1), None)
        if close is None:
            continue
        if any(tokens[c].text == ";" and tokens[c].depth == token.depth for c in range(k + 1, close)):
            continue
        start, end = token.start, tokens[close - 1].end
        statement = line.text[start:end]
        if line.text[end:end + 1] == " " and line.text[start - 1:start] == " ":
            end += 1
        out.append((start, "return", replace(line, start, end, ""), f"removed '{shorten(statement)}'"))
    return out


def mutants_of(path, text, wanted_lines=None):
    """Every candidate mutant of one file's text, in order of line and column; wanted_lines (a set of line
    numbers) restricts them to those lines."""
    lines = split_lines(text)
    at_start, brace_kinds = block_kinds(lines)
    found, seen = [], set()
    for index, line in enumerate(lines):
        if wanted_lines is not None and line.number not in wanted_lines:
            continue
        if not line.tokens or SKIPPED_LINE.match(line.view) or not any(line.code):
            continue
        candidates = token_mutants(line) + condition_mutants(line) + list_mutants(line)
        candidates += return_mutants(lines, index, at_start, brace_kinds)
        statement = statement_mutant(lines, index)
        if statement is not None:
            candidates.append(statement)
        for column, operator, mutated, description in candidates:
            if mutated == line.text or (line.number, mutated) in seen:
                continue
            seen.add((line.number, mutated))
            found.append(Mutant(path, line.number, column, operator, line.text, mutated, description))
    found.sort(key=Mutant.key)
    # The same description twice on one line (two `<`, say) gets its rank, so each survivor can be found.
    counts = {}
    for mutant in found:
        counts[(mutant.line, mutant.description)] = counts.get((mutant.line, mutant.description), 0) + 1
    ranks = {}
    for mutant in found:
        key = (mutant.line, mutant.description)
        if counts[key] > 1:
            ranks[key] = ranks.get(key, 0) + 1
            mutant.description += f" ({ordinal(ranks[key])} on the line)"
    return found


def ordinal(n):
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


# --- Which lines, which files ----------------------------------------------------------------------------


def git(*args):
    result = subprocess.run(["git", *args], capture_output=True, text=True)
    if result.returncode != 0:
        raise Failure(f"git {' '.join(args)} failed: {result.stderr.strip()}")
    return result.stdout


def changed_lines(base):
    """{path: set of line numbers} that `git diff BASE` adds or changes in Swift files under Sources/, plus
    every line of untracked Swift files there."""
    changed = {}
    path = None
    for row in git("-c", "core.quotePath=false", "diff", "-U0", "--no-color", "--no-ext-diff", base, "--",
                   "Sources").splitlines():
        if row.startswith("+++ "):
            target = row[4:]
            path = target[2:] if target.startswith("b/") else None
            if path is not None and not path.endswith(".swift"):
                path = None
        elif row.startswith("@@") and path is not None:
            match = re.match(r"@@ -\S+ \+(\d+)(?:,(\d+))? @@", row)
            start, count = int(match.group(1)), int(match.group(2) or "1")
            changed.setdefault(path, set()).update(range(start, start + count))
    for path in git("-c", "core.quotePath=false", "ls-files", "--others", "--exclude-standard", "--",
                    "Sources").splitlines():
        if path.endswith(".swift"):
            with open(path, encoding="utf-8") as file:
                changed[path] = set(range(1, file.read().count("\n") + 2))
    return {path: lines for path, lines in changed.items() if lines and os.path.isfile(path)}


def swift_files(paths):
    """The Swift files named or under the folders named, relative to the current directory, sorted."""
    files = set()
    for path in paths:
        if not os.path.exists(path):
            raise Failure(f"there is no file or folder '{path}'")
        if os.path.relpath(path).startswith(".."):
            raise Failure(f"'{path}' is outside the repository")
        if os.path.isfile(path):
            if not path.endswith(".swift"):
                raise Failure(f"'{path}' is not a Swift file")
            files.add(os.path.relpath(path))
            continue
        for folder, subfolders, names in os.walk(path):
            subfolders[:] = sorted(d for d in subfolders if not d.startswith("."))
            files.update(os.path.relpath(os.path.join(folder, name)) for name in names if name.endswith(".swift"))
    return sorted(files)


def candidates(base, paths):
    if base is not None:
        lines = changed_lines(base)
        if paths:
            named = set(swift_files(paths))
            lines = {path: numbers for path, numbers in lines.items() if path in named}
    else:
        lines = {path: None for path in swift_files(paths)}
    found = []
    for path in sorted(lines):
        with open(path, encoding="utf-8") as file:
            found += mutants_of(path, file.read(), lines[path])
    return found


def select(found, seed, limit):
    """The first `limit` (all when None) of the candidates shuffled with random.Random(seed)."""
    chosen = list(found)
    random.Random(seed).shuffle(chosen)
    return chosen if limit is None else chosen[:limit]


def mutated_text(mutant):
    """The whole file with the mutant planted; Failure when the line no longer reads as planned."""
    with open(mutant.file, encoding="utf-8", newline="") as file:
        text = file.read()
    lines = text.split("\n")
    if mutant.line > len(lines) or lines[mutant.line - 1].rstrip("\r") != mutant.original.rstrip("\r"):
        raise Failure(f"{mutant.file}:{mutant.line} changed since the mutants were planned")
    lines[mutant.line - 1] = mutant.mutated
    return "\n".join(lines)


# --- Command line ----------------------------------------------------------------------------------------


def main(arguments):
    command = arguments[0] if arguments else ""
    if command == "plan":
        out, seed, limit, base, paths = None, 1, None, None, []
        rest = list(arguments[1:])
        while rest:
            argument = rest.pop(0)
            if argument in ("--out", "--seed", "--max", "--base"):
                if not rest:
                    raise Failure(f"{argument} needs a value")
                value = rest.pop(0)
                if argument == "--out":
                    out = value
                elif argument == "--base":
                    base = value
                else:
                    if not re.fullmatch(r"\d+", value):
                        raise Failure(f"{argument} takes a whole number, not '{value}'")
                    if argument == "--seed":
                        seed = int(value)
                    else:
                        limit = int(value)
            else:
                paths.append(argument)
        if out is None:
            raise Failure("plan needs --out PLAN")
        found = candidates(base, paths)
        chosen = select(found, seed, limit)
        with open(out, "w", encoding="utf-8") as file:
            json.dump({"candidates": len(found), "seed": seed, "mutants": [m.as_json() for m in chosen]}, file,
                      indent=1)
        print(len(found), len(chosen))
    elif command == "list" and len(arguments) == 2:
        for mutant in load(arguments[1]):
            description = " ".join(mutant.description.split())  # the fields are tab-separated
            print(f"{mutant.file}\t{mutant.line}\t{description}")
    elif command == "write" and len(arguments) == 4:
        mutants = load(arguments[1])
        number = int(arguments[2])
        if not 1 <= number <= len(mutants):
            raise Failure(f"there is no mutant {number}")
        with open(arguments[3], "w", encoding="utf-8", newline="") as file:
            file.write(mutated_text(mutants[number - 1]))
    elif command == "show" and len(arguments) > 1:
        for path in swift_files(arguments[1:]):
            with open(path, encoding="utf-8") as file:
                for mutant in mutants_of(path, file.read()):
                    print(mutant)
    else:
        raise Failure("usage: mutants.py plan|list|write|show ...; see its header")


def load(plan):
    with open(plan, encoding="utf-8") as file:
        return [Mutant.from_json(data) for data in json.load(file)["mutants"]]


if __name__ == "__main__":
    try:
        main(sys.argv[1:])
    except Failure as failure:
        print(f"mutation: {failure}.", file=sys.stderr)
        sys.exit(2)
