"""Knight Isolation (Udacity AIND 2017): reference rules, formats and bots."""

from gridarena.games.isolation.rules import Isolation, State, knight_targets

__all__ = ["Isolation", "State", "knight_targets"]
