"""The keeper: the parent of one external program, which leaves no process of the program behind.

The arena starts it by path, ``python -I -S keeper.py REPORT_FD ARENA_PID -- PROGRAM ARGS...`` (it
imports nothing of gridarena, so it is up in a few milliseconds). It makes itself a child subreaper
(Linux's ``PR_SET_CHILD_SUBREAPER``) before it starts the program, so every process the program starts
stays below it even when it forks twice, calls ``setsid`` or changes its process group: an orphan
is adopted by the keeper, not by init. It starts the program in a process group of its own, writes
the program's pid (or ``error TEXT``) on ``REPORT_FD`` and waits. The program's stdin, stdout and
stderr are the keeper's own, passed on; the keeper then keeps none of them open, so they close when
the last process of the program is gone.

It sweeps (kills with SIGKILL and reaps every process below it, round after round, until it has no
child left) when the program exits, when the arena sends SIGTERM (closing the bot) and when the arena's
thread that started it dies (``PR_SET_PDEATHSIG``: a worker killed at the hard limit leaves nothing
behind). It then exits as the program did: the same exit code, or killed by the same signal.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import resource
import signal
import sys

PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36
#: Taken only by ``sigwaitinfo``: blocked, so none can interrupt the sweep halfway.
WATCHED = {signal.SIGCHLD, signal.SIGTERM, signal.SIGHUP}
# Python ignores SIGPIPE and SIGXFSZ; the program gets the defaults, as subprocess gives them.
DEFAULT_SIGNALS = (signal.SIGPIPE, signal.SIGXFSZ)


def prctl(option: int, value: int) -> bool:
    """Linux's prctl(2); False where it does not exist or fails."""
    try:
        return bool(ctypes.CDLL(None, use_errno=True).prctl(option, value, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


def children() -> list[int]:
    """This process's children, zombies included (from ``/proc``; empty where there is none)."""
    me = os.getpid()
    try:
        with open(f"/proc/{me}/task/{me}/children") as listing:
            return [int(pid) for pid in listing.read().split()]
    except OSError:  # a kernel without CONFIG_PROC_CHILDREN: read every process's parent
        found = []
        for entry in os.listdir("/proc") if os.path.isdir("/proc") else ():
            with contextlib.suppress(OSError, ValueError, IndexError), open(f"/proc/{entry}/stat") as stat:
                if int(stat.read().rsplit(")", 1)[1].split()[1]) == me:
                    found.append(int(entry))
        return found


def sweep(leader: int) -> dict[int, int]:
    """Kill every process below this one and reap it; the wait statuses by pid.

    Each round kills the children and the groups they lead (the program's group first: the leader,
    alive or a zombie, is not reaped yet, so the group's id is still the program's); the children of
    a killed process are adopted by the subreaper and killed in the next round. Only this process
    reaps its children, so a listed pid cannot be reused before it is killed.
    """
    statuses: dict[int, int] = {}
    while True:
        # Once reaped, the leader's pid may be reused: it is signalled only before.
        for pid in children() if leader in statuses else [leader, *children()]:
            for kill in (os.killpg, os.kill):
                with contextlib.suppress(OSError):
                    kill(pid, signal.SIGKILL)
        try:
            pid, status = os.wait()
        except ChildProcessError:
            return statuses
        statuses[pid] = status


def leader_exited(leader: int) -> bool:
    """Reap the children that exited (adopted orphans: no zombies), except ``leader``; whether it exited."""
    while True:
        info = os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        if info is None:
            return False
        if info.si_pid == leader:
            return True  # left a zombie until the sweep, which kills its group first
        os.waitpid(info.si_pid, 0)


def exit_like(status: int | None) -> None:
    """Exit with the program's exit code, or die of its signal (without a core dump of the keeper)."""
    if status is not None and os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        with contextlib.suppress(OSError, ValueError):  # SIGKILL has no handler to reset
            signal.signal(sig, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_SETMASK, [])
        os.kill(os.getpid(), sig)
        os._exit(128 + sig)
    os._exit(1 if status is None else os.waitstatus_to_exitcode(status))


def start(command: list[str], report: int) -> int:
    """Start the program in a group of its own and write its pid on ``report`` (exit 127 if it cannot start)."""
    os.set_inheritable(report, False)
    try:
        leader = os.posix_spawnp(
            command[0], command, os.environ, setpgroup=0, setsigmask=(), setsigdef=DEFAULT_SIGNALS
        )
    except OSError as exc:
        os.write(report, f"error {exc}\n".encode())
        os._exit(127)
    os.write(report, f"{leader}\n".encode())
    os.close(report)
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):  # the program's pipes close when the program's processes are gone
        os.dup2(devnull, fd)
    os.close(devnull)
    return leader


def main(argv: list[str]) -> None:
    """Start the program, wait for its exit or for a stop signal, sweep, exit like the program."""
    report, arena, command = int(argv[1]), int(argv[2]), argv[4:]
    signal.pthread_sigmask(signal.SIG_BLOCK, WATCHED)
    prctl(PR_SET_CHILD_SUBREAPER, 1)
    prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    if os.getppid() != arena:  # the arena died before the line above, so no signal will come
        os._exit(1)
    leader = start(command, report)
    while signal.sigwaitinfo(WATCHED).si_signo == signal.SIGCHLD and not leader_exited(leader):
        pass
    exit_like(sweep(leader).get(leader))


if __name__ == "__main__":
    main(sys.argv)
