"""ReversiXT's network and its traces, as the course's reference server and client have them.

:mod:`.protocol` is the course's binary protocol (frames and the nine messages); :mod:`.connection`
one client's socket on our server; :mod:`.table` one server game, where a client is a bot and the
announcements and the trace are a recorder; :mod:`.server` the server; :mod:`.client` one of our bots
against any server; :mod:`.console` writes the reference server's console lines and :mod:`.trace`
reads them back and replays them move by move (``verify``). They stand on the rules (``rules``,
``formats``, ``capture``); nothing else in the package imports them.
"""
