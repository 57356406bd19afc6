"""Spec strings: ``name(key=value, ...)`` for games and bots, with an optional ``game:`` prefix.

Values are Python literals (``5``, ``0.15``, ``'a b'``, ``True``) or bare words, which are read
as strings, so ``alphabeta(depth=5,heuristic=improved)`` needs no quotes. A bare file path
(``reversixt(map=../maps/x.map)``: a word with ``/``, ``\\``, ``~`` or a file suffix that is no
literal) is read as a string too.
"""

from __future__ import annotations

import ast
import io
import keyword
import re
import tokenize
from collections.abc import Iterable
from typing import Any, Final

from gridarena.core.errors import SpecError

MAX_SPEC: Final = 8192
"""The longest spec read (characters): a program's command line fits; a page of text does not."""
MAX_NUMBER: Final = 64
"""The longest number in a spec (characters): Python refuses ints past 4,300 digits with an error of its own."""
MAX_NESTING: Final = 8
"""The deepest nesting of brackets, and the longest run of signs, in a spec's values."""

_SPEC = re.compile(
    r"^\s*(?:(?P<game>[A-Za-z_]\w*):)?(?P<name>[A-Za-z_][\w.-]*)\s*(?:\((?P<args>.*)\))?\s*$", re.S
)


#: A value after ``=`` up to the next separator; quoted by :func:`_quote_paths` when it is a bare path.
_BARE_VALUE = re.compile(r"(=\s*)([^\s'\"(),=]+)")
_PATHLIKE = re.compile(r".*[/\\~].*|.*\.[A-Za-z]\w*")


def _quote_paths(args: str) -> str:
    """``map=../x.map`` -> ``map='../x.map'``: bare paths quoted, everything else left as it was."""

    def quote(match: re.Match[str]) -> str:
        word = match.group(2)
        try:
            if len(word) > MAX_NUMBER:  # too long for a literal a spec may hold: a path or an error
                raise ValueError(word)
            ast.literal_eval(word)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            if _PATHLIKE.fullmatch(word):
                return match.group(1) + repr(word)
        return match.group(0)

    return _BARE_VALUE.sub(quote, args)


def _value(node: ast.expr, spec: str) -> Any:
    if isinstance(node, ast.Name):  # a bare word: heuristic=improved
        return node.id
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        raise SpecError(
            f"{_short(spec)}: {_short(ast.unparse(node))} is not a literal or a bare word"
        ) from None


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """Split a spec into its name and keyword parameters.

    >>> parse_spec("alphabeta(depth=5,heuristic=improved)")
    ('alphabeta', {'depth': 5, 'heuristic': 'improved'})
    >>> parse_spec("random")
    ('random', {})
    """
    game, name, params = parse_qualified_spec(spec)
    if game is not None:
        raise SpecError(f"{_short(spec)}: a game prefix ({game}:) is not allowed here")
    return name, params


def parse_qualified_spec(spec: str) -> tuple[str | None, str, dict[str, Any]]:
    """Like :func:`parse_spec`, also returning an optional ``game:`` prefix.

    >>> parse_qualified_spec("isolation:alphabeta(depth=3)")
    ('isolation', 'alphabeta', {'depth': 3})
    >>> parse_qualified_spec("reversixt(map=../maps/crown.map)")
    (None, 'reversixt', {'map': '../maps/crown.map'})
    """
    if not isinstance(spec, str):
        raise SpecError(f"a spec is text, got {type(spec).__name__}")
    if len(spec) > MAX_SPEC:
        raise SpecError(f"a spec of {len(spec)} characters is longer than the {MAX_SPEC} allowed")
    match = _SPEC.match(spec)
    if match is None:
        raise SpecError(f"{_short(spec)}: expected name or name(key=value, ...)")
    args = match["args"]
    params: dict[str, Any] = {}
    if args and args.strip():
        try:
            params = _parse_args(args, spec)
        except SpecError:
            quoted = _quote_paths(args)
            if quoted == args:
                raise
            params = _parse_args(quoted, spec)
    return match["game"], match["name"], params


def _short(spec: str) -> str:
    return repr(spec) if len(spec) <= 80 else repr(spec[:77] + "...")


def _check_tokens(args: str, spec: str) -> None:
    """Refuse, before Python's parser sees them, numbers too long to convert and values nested or
    signed too deeply for its recursion (``x=------...1`` exhausts the parser's memory)."""
    depth = signs = 0
    try:
        for token in tokenize.generate_tokens(io.StringIO(args).readline):
            if token.type == tokenize.NUMBER and len(token.string) > MAX_NUMBER:
                raise SpecError(
                    f"{_short(spec)}: a number of {len(token.string)} characters (at most {MAX_NUMBER})"
                )
            if token.type == tokenize.OP and token.string in "([{":
                depth += 1
            elif token.type == tokenize.OP and token.string in ")]}":
                depth -= 1
            signs = signs + 1 if token.type == tokenize.OP and token.string in ("-", "+", "~") else 0
            if depth > MAX_NESTING or signs > MAX_NESTING:
                raise SpecError(f"{_short(spec)}: values nested or signed deeper than {MAX_NESTING}")
    except (tokenize.TokenError, SyntaxError) as exc:  # SyntaxError: IndentationError on odd text
        raise SpecError(f"{_short(spec)}: cannot parse the parameters ({exc.args[0]})") from None


def _parse_args(args: str, spec: str) -> dict[str, Any]:
    """The keyword parameters of ``args`` (the text inside the parentheses)."""
    _check_tokens(args, spec)
    try:
        call = ast.parse(f"_({args})", mode="eval").body
    except (SyntaxError, ValueError, MemoryError, RecursionError) as exc:
        message = exc.msg if isinstance(exc, SyntaxError) else type(exc).__name__
        raise SpecError(f"{_short(spec)}: cannot parse the parameters ({message})") from None
    assert isinstance(call, ast.Call)
    if call.args:
        raise SpecError(f"{_short(spec)}: parameters must be named (key=value)")
    params: dict[str, Any] = {}
    for item in call.keywords:
        if item.arg is None:
            raise SpecError(f"{_short(spec)}: ** is not allowed")
        if item.arg in params:
            raise SpecError(f"{_short(spec)}: {item.arg} is given twice")
        params[item.arg] = _value(item.value, spec)
    return params


def format_spec(name: str, params: dict[str, Any]) -> str:
    """Inverse of :func:`parse_spec` (canonical form: keys sorted, literals in repr form).

    >>> format_spec("alphabeta", {"heuristic": "improved", "depth": 5})
    "alphabeta(depth=5,heuristic='improved')"
    """
    unreadable = sorted(k for k in params if not k.isidentifier() or keyword.iskeyword(k))
    if unreadable:  # a spec is parsed as a call: such a name could never be read back
        raise SpecError(
            f"{name}: parameter name {unreadable[0]!r} is not an identifier or is a Python keyword"
        )
    if not params:
        return name
    return f"{name}({','.join(f'{k}={params[k]!r}' for k in sorted(params))})"


def split_players(text: str) -> list[str]:
    """Split a comma-separated player list, keeping commas inside parentheses and quotes.

    >>> split_players("random,alphabeta(depth=3,heuristic=improved), greedy")
    ['random', 'alphabeta(depth=3,heuristic=improved)', 'greedy']
    """
    parts: list[str] = []
    depth, quote = 0, ""
    current: list[str] = []
    for ch in text:
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append("".join(current).strip())
            current = []
            continue
        current.append(ch)
    parts.append("".join(current).strip())
    if depth != 0 or quote or any(not p for p in parts):
        raise SpecError(f"{text!r}: unbalanced parentheses or quotes, or an empty player")
    return parts


def unique_names(names: Iterable[str]) -> list[str]:
    """The names in order, repeats told apart with ``#2``, ``#3`` (display names of entrants and seats).

    >>> unique_names(["greedy", "greedy", "random", "greedy"])
    ['greedy', 'greedy#2', 'random', 'greedy#3']
    """
    out: list[str] = []
    for base in names:
        name, k = base, 1
        while name in out:
            k += 1
            name = f"{base}#{k}"
        out.append(name)
    return out
