"""Python kernels forked from one that has already imported what every report notebook imports.

A report notebook's kernel spends most of its own time starting: the interpreter, ipykernel,
then ``import hotpath``, which brings pandas, SciPy and Matplotlib (some 3.5 s of CPU each time
on this study's 2-core machines, for a notebook whose work takes as long again). A render of the
reference starts fourteen. So a render starts one *zygote* first, a process that imports all of
that once and then waits; each Python kernel the render asks for is a fork of it, which runs
ipykernel's own start from there, exactly as ``python -m ipykernel_launcher`` would. Each kernel
is still a process of its own, fresh from the same imports, and nothing one notebook does is
seen by another.

The kernel manager still launches a process of its own, ``warm_launch.py`` (the interpreter alone,
no site packages): it hands the zygote its command line, folder, environment and standard
streams, waits for the fork to exit and exits as it did. Killing it kills the fork (the zygote
watches its connection), and a signal sent to it is passed on. Where no zygote answers, the
launcher becomes an ordinary kernel: a render is never worse off than without it.

The zygote is itself a fork, of the render's forkserver (``forkserver``), which imports once what
the zygote and the render's workers both need: one import of pandas, SciPy, Matplotlib, papermill
and nbconvert for every process of a render, where the zygote and the forkserver each made their
own (some 2.5 s of CPU, at the start of every render, when nothing else can run yet).
"""

from __future__ import annotations

import contextlib
import importlib
import json
import multiprocessing
import multiprocessing.context
import multiprocessing.forkserver
import os
import select
import selectors
import signal
import socket
import sys
import tempfile
import threading
import traceback
from collections.abc import Iterator
from pathlib import Path

from .. import children

#: The launcher a kernel manager starts in place of ``python -m ipykernel_launcher``.
LAUNCHER = Path(__file__).with_name("warm_launch.py")
#: What a zygote imports before its first fork: ipykernel's start, and the package's face (and
#: with it pandas, SciPy, Matplotlib), which every report notebook imports first. The second line
#: is what a kernel's start imports beyond the first three (its debugger, history, completer):
#: 0.2 s of each kernel's start, once.
PRELOAD = ("ipykernel.kernelapp", "ipykernel.ipkernel", "ipykernel.zmqshell", "hotpath.face",
           "ipykernel.debugger", "IPython.core.history", "IPython.core.completerlib",
           "IPython.extensions.storemagic", "tornado.platform.asyncio", "faulthandler")
#: The largest request a launcher sends (its command line, folder and environment).
MESSAGE_BYTES = 1 << 20

#: The zygote's socket the kernels of this process fork from (``using``); None: ordinary kernels.
SOCKET: str | None = None


def command(connection_file: str, zygote: str | None = None) -> list[str]:
    """A kernel's command line: forked from ``zygote`` (default: this process's), else none."""
    zygote = zygote or SOCKET
    if not zygote:
        return []
    # -P: the launcher's own folder is not put on the path (its neighbours would shadow the
    # standard library); -S: it needs none of the site packages.
    return [sys.executable, "-P", "-S", str(LAUNCHER), zygote, "-f", connection_file]


@contextlib.contextmanager
def using(zygote: str | None) -> Iterator[None]:
    """The Python kernels started in this process inside the block fork from ``zygote``."""
    global SOCKET
    before, SOCKET = SOCKET, zygote
    try:
        yield
    finally:
        SOCKET = before


#: Allocations between two collections of the youngest generation in a render's processes
#: (Python's default: 700; hotpath.render.forkserver_ready says why).
YOUNGEST = 10_000

#: What the render's forkserver imports before its first fork: the environment those imports are
#: made in (hotpath.render.forkserver_env), the zygote's PRELOAD, and what the render's workers run
#: (papermill, nbconvert and the reports), then what the workers would each ready for their first
#: report (hotpath.render.forkserver_ready).
FORKSERVER_PRELOAD = ["hotpath.render.forkserver_env", *PRELOAD, "hotpath.render.report", "hotpath.render.overview",
                      "papermill", "nbconvert", "hotpath.render.forkserver_ready"]


def forkserver() -> multiprocessing.context.ForkServerContext:
    """The render's processes' context: forks of one single-threaded server that imported
    FORKSERVER_PRELOAD first, never of the render's own process, whose threads (kernel clients,
    test runners) would leave a forked child holding a lock forever."""
    context = multiprocessing.get_context("forkserver")
    # (a preload is the server's at its start: one server serves the process's every render)
    context.set_forkserver_preload(FORKSERVER_PRELOAD)
    return context


def start() -> None:
    """The forkserver started now, importing while this process goes on (its own start blocks
    no one until a fork is asked of it)."""
    forkserver()
    multiprocessing.forkserver.ensure_running()


@contextlib.contextmanager
def zygote(cwd: Path) -> Iterator[str]:
    """A zygote for the block (its socket): a fork of the forkserver, started at once; a
    launcher that connects before it is ready waits in its socket's queue."""
    with tempfile.TemporaryDirectory(prefix="hotpath-warm-") as folder:
        path = str(Path(folder) / "zygote")
        server = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        server.bind(path)
        server.listen(64)
        # The listening socket is the child's: bound here, so that no launcher finds no socket.
        process = forkserver().Process(target=_serve_forked, args=(server, str(cwd), os.getpid()),
                                       name="hotpath-zygote")
        process.start()
        server.close()
        try:
            yield path
        finally:
            process.terminate()
            process.join(timeout=10)
            if process.exitcode is None:
                process.kill()
                process.join()


def _serve_forked(server: socket.socket, cwd: str, render: int) -> None:
    """The zygote, in the forkserver's fork: gone with the render's process (which its fork of
    the forkserver keeps alive while it lives), or with the forkserver."""
    # (a render starts its zygote from the thread that renders: the signal comes when it ends)
    children.die_with(os.getppid(), signal.SIGTERM)
    # ^C is the render's to handle: the zygote ends when the render stops it, or ends
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    os.chdir(cwd)
    # (imported already, unless another part of this process started the forkserver first,
    # without FORKSERVER_PRELOAD: its environment then comes before the zygote's imports)
    importlib.import_module("hotpath.render.forkserver_env")
    serve(server, render)


def serve(server: socket.socket, render: int) -> None:
    """Import once, then fork a kernel for each launcher that connects; kill a fork whose
    launcher is gone, and tell each launcher how its fork exited; end with the ``render``'s
    process (its forks with it)."""
    for name in PRELOAD:
        __import__(name)
    selector = selectors.DefaultSelector()
    selector.register(server, selectors.EVENT_READ, "accept")
    try:
        selector.register(os.pidfd_open(render), selectors.EVENT_READ, "render")
    except ProcessLookupError:  # gone before the zygote started
        return
    forks: dict[socket.socket, tuple[int, int]] = {}  # a launcher's connection: its fork, pidfd
    while True:  # until terminated: its forks die with it (``_become_kernel``)
        for key, _ in selector.select():
            if key.data == "render":  # the render's process ended without stopping the zygote
                return
            if key.data == "accept":
                connection, _ = server.accept()
                started = _fork(connection, server, forks)
                if started is None:
                    connection.close()
                    continue
                forks[connection] = started
                selector.register(connection, selectors.EVENT_READ, "launcher")
                selector.register(started[1], selectors.EVENT_READ, connection)
            elif key.data == "launcher":  # the launcher went away (killed): so does its fork
                launcher = key.fileobj
                if launcher in forks:  # (not when the fork's exit came first, in this round)
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(forks[launcher][0], signal.SIGKILL)
            elif key.data in forks:  # a fork exited: its launcher exits as it did
                connection = key.data
                pid, pidfd = forks.pop(connection)
                _, status = os.waitpid(pid, 0)
                with contextlib.suppress(OSError):
                    connection.send(json.dumps({"exit": os.waitstatus_to_exitcode(status)}).encode())
                selector.unregister(pidfd)
                selector.unregister(connection)
                os.close(pidfd)
                connection.close()


def _fork(connection: socket.socket, server: socket.socket,
          forks: dict[socket.socket, tuple[int, int]]) -> tuple[int, int] | None:
    """A kernel forked for the launcher on ``connection``: its pid and a pidfd; None where the
    launcher sent nothing usable (it then starts an ordinary kernel)."""
    try:
        message, fds, _, _ = socket.recv_fds(connection, MESSAGE_BYTES, 3)
        request = json.loads(message)
    except (OSError, ValueError):
        return None
    if len(fds) != 3:
        for fd in fds:
            os.close(fd)
        return None
    zygote = os.getpid()
    pid = os.fork()
    if pid == 0:
        try:
            server.close()
            for other in forks:
                other.close()
            _become_kernel(request, fds, zygote)
        except BaseException:  # noqa: B036 - a fork must never return into the server's loop
            traceback.print_exc()
        finally:
            os._exit(1)
    for fd in fds:
        os.close(fd)
    connection.send(json.dumps({"pid": pid}).encode())
    return pid, os.pidfd_open(pid)


def _become_kernel(request: dict, fds: list[int], zygote: int) -> None:
    """In the fork: the launcher's streams, folder and environment, then ipykernel's start as
    ``python -m ipykernel_launcher`` runs it."""
    children.die_with(zygote, signal.SIGKILL)  # no fork outlives its zygote
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
        os.close(fd)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    sys.argv = ["ipykernel_launcher", *request["argv"]]
    # ipykernel reads its parent's pid from the environment when it is imported, here the
    # zygote's: the kernel's own is given as ipykernel would have read it
    parent = request["env"].get("JPY_PARENT_PID")
    if parent:
        sys.argv.append(f"--IPKernelApp.parent_handle={int(parent)}")
    # ipykernel_launcher takes the folder off the path while it loads; the shell puts '' back
    if sys.path and (sys.path[0] == "" or Path(sys.path[0]) == Path.cwd()):
        del sys.path[0]
    from ipykernel import kernelapp

    kernelapp.launch_new_instance()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


def worker_of(render: int) -> None:
    """A render's worker (a ProcessPoolExecutor's initializer) ends when the ``render``'s process
    does, however that ended: a render killed or sent SIGTERM skips its pool's shutdown, and its
    workers (forks of the forkserver, each keeping it alive) would wait for work forever."""
    try:
        pidfd = os.pidfd_open(render)
    except ProcessLookupError:  # gone before the worker started
        os._exit(1)

    def watch() -> None:
        select.select([pidfd], [], [])
        os._exit(1)

    threading.Thread(target=watch, name="hotpath-render-watch", daemon=True).start()

