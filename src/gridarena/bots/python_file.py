"""``python(file=PATH,cls=NAME)``: a bot class of your own, from a Python file, played in this process.

The file is read through the one bounded reader and run as a fresh module; ``cls`` names the class
(by default the file's one class with an ``act`` method, defined in the file itself). A subclass of
:class:`~gridarena.core.bot.BaseBot` is made with the game's seed (``cls(seed)``), any other class
with no argument; either must have ``name``, ``reset`` and ``act`` (:class:`~gridarena.core.bot.Bot`).

>>> import tempfile, os
>>> from gridarena import make
>>> folder = tempfile.mkdtemp()
>>> path = os.path.join(folder, "first.py")
>>> _ = open(path, "w").write('''
... from gridarena.core.bot import BaseBot, Decision
... class First(BaseBot):
...     name = "first"
...     def act(self, state, clock):
...         return Decision(state.legal_actions()[0])
... ''')
>>> make_python_bot(make("isolation"), file=path).name
'first'
"""

from __future__ import annotations

import inspect
import itertools
import os
import sys
import types
from typing import Any, Final

from gridarena.core.bot import BaseBot, Bot
from gridarena.core.errors import SpecError
from gridarena.core.files import read_text
from gridarena.core.types import Game

_MODULES: Final = itertools.count()


class BotFileError(SpecError):
    """A bot file that cannot be loaded, or holds no usable bot class; the message names the file."""


def load_module(path: str) -> types.ModuleType:
    """Run the Python file at ``path`` as a new module (its folder first on the import path meanwhile)."""
    source = read_text(path, "agent file")
    name = f"_gridarena_bot_{next(_MODULES)}"
    module = types.ModuleType(name)
    module.__file__ = os.path.abspath(path)
    sys.modules[name] = module  # dataclasses and pickling look classes up by module name
    folder = os.path.dirname(os.path.abspath(path))
    sys.path.insert(0, folder)
    try:
        exec(compile(source, path, "exec"), module.__dict__)
    except SyntaxError as exc:
        raise BotFileError(f"{path}:{exc.lineno}: {exc.msg}") from None
    except Exception as exc:  # the file is the user's code: any failure is the file's, said in one line
        raise BotFileError(f"{path}: {type(exc).__name__} while loading: {exc}") from None
    finally:
        sys.path.remove(folder)
    return module


def bot_class(module: types.ModuleType, path: str, cls: str | None) -> type:
    """The class named ``cls``, or the file's one class with an ``act`` method."""
    if cls is not None:
        found = getattr(module, cls, None)
        if not inspect.isclass(found):
            raise BotFileError(f"{path}: no class {cls!r} in the file")
        return found
    own = [
        c
        for c in vars(module).values()
        if inspect.isclass(c) and c.__module__ == module.__name__ and callable(getattr(c, "act", None))
    ]
    if len(own) != 1:
        names = ", ".join(c.__name__ for c in own) or "none"
        raise BotFileError(f"{path}: name the bot class with cls=NAME (classes with an act method: {names})")
    return own[0]


def make_python_bot(game: Game[Any], seed: int | None = None, *, file: str, cls: str | None = None) -> Bot:
    """Catalogue factory of ``python(file=PATH,cls=NAME)``."""
    kind = bot_class(load_module(file), file, cls)
    try:
        bot = kind(seed) if issubclass(kind, BaseBot) else kind()
    except Exception as exc:  # the class is the user's code
        raise BotFileError(f"{file}: {kind.__name__}(...) failed: {type(exc).__name__}: {exc}") from None
    if not isinstance(bot, Bot):
        raise BotFileError(f"{file}: {kind.__name__} is not a bot (it needs name, reset and act)")
    return bot
