"""Kernels for executed notebooks: ports that cannot collide, and a start that fails fast.

Notebooks are executed side by side, by worker processes and by separate ``hotpath``
processes. A TCP kernel (the Java kernel: JeroMQ has no Unix sockets) is handed its ports in a
connection file and binds them a moment later; jupyter_client finds free ports by binding and
closing a socket, and remembers what it handed out only within one process. Between the two,
another process could be handed the same port, and the kernel that binds second dies. So every
port a hotpath process hands to a kernel is recorded in a register shared by all of them on
this machine (a JSON file under a lock) and never handed out again while its holder lives.

The Python kernel talks over Unix sockets in a folder of its own and needs no ports at all
(over TCP, ipykernel also warns on every run that traffic is unencrypted).

A kernel that dies at start does not always exit: the Java kernel's launcher starts a second
JVM, whose main thread can die on a bind while its heartbeat thread keeps the process up, and
the client would wait out its whole start timeout. Each kernel's stderr goes to a file; a
fatal line there counts as a dead kernel, and the error quotes the file's last lines.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import random
import socket
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..errors import HotpathError
from . import warm

#: The register of ports handed out, shared by every hotpath process on the machine (and by
#: every clone: they share the machine's ports).
REGISTER = Path(tempfile.gettempdir()) / "hotpath-kernel-ports.json"
#: A port's entry outlives a holder that never released it (killed): by then its kernel has
#: long bound it or died.
HOLD_S = 600.0
#: The five channels of a Jupyter kernel.
CHANNELS = ("shell_port", "iopub_port", "stdin_port", "control_port", "hb_port")
#: Lines that mean a kernel died at start though its process lives on.
FATAL = ('Exception in thread "main"',)
#: How much of a dead kernel's stderr an error quotes.
TAIL_LINES = 6


@contextlib.contextmanager
def _locked(register: Path) -> Iterator[dict[str, list]]:
    """The register's entries under an exclusive lock, written back on leaving."""
    lock = register.with_suffix(".lock")
    with open(lock, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            try:
                entries = json.loads(register.read_text(encoding="utf-8"))
                if not isinstance(entries, dict):
                    entries = {}
            except (OSError, ValueError):
                entries = {}
            yield entries
            staged = register.with_name(f".{register.name}.{os.getpid()}")
            staged.write_text(json.dumps(entries), encoding="utf-8")
            os.replace(staged, register)
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


#: Where a kernel's ports are drawn from: below the kernel's ephemeral range, which every other
#: process's bind(0) and outgoing connection draws from (JMH's forks open one each), so that none
#: takes a port between its reservation here and the kernel's bind.
KERNEL_PORTS = (20000, 32768)


def _ephemeral_low() -> int:
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 0


def _free_port(ip: str) -> int:
    """A port free now, drawn below the ephemeral range where the machine says where that is."""
    low, high = KERNEL_PORTS[0], min(KERNEL_PORTS[1], _ephemeral_low())
    for _ in range(200 if high - low >= 1000 else 0):
        port = random.randrange(low, high)
        with socket.socket() as probe:
            try:
                probe.bind((ip, port))
            except OSError:
                continue
            return port
    with socket.socket() as probe:  # no room below it: the kernel's own choice
        probe.bind((ip, 0))
        return probe.getsockname()[1]


def reserve(count: int, ip: str = "127.0.0.1", register: Path = REGISTER) -> list[int]:
    """``count`` free ports, none held by a live hotpath process, recorded as this process's
    until ``release``."""
    now = time.time()
    with _locked(register) as entries:
        for held, (pid, until) in list(entries.items()):
            if until < now or not _alive(pid):
                del entries[held]
        ports: list[int] = []
        while len(ports) < count:
            port = _free_port(ip)
            if str(port) not in entries and port not in ports:
                ports.append(port)
        for port in ports:
            entries[str(port)] = [os.getpid(), now + HOLD_S]
    return ports


def release(ports: list[int], register: Path = REGISTER) -> None:
    with _locked(register) as entries:
        for port in ports:
            entries.pop(str(port), None)


def fatal_tail(stderr: Path) -> str | None:
    """What a kernel's stderr says of its death at start (its fatal line on), else None."""
    lines = _read(stderr).splitlines()
    for i, line in enumerate(lines):
        if any(marker in line for marker in FATAL):
            return _joined(lines[i:i + TAIL_LINES])
    return None


def why(stderr: Path) -> str:
    """A dead kernel's own words: its fatal line on, or its stderr's last lines."""
    return fatal_tail(stderr) or _joined(_read(stderr).splitlines()[-TAIL_LINES:]) or "(empty)"


def _joined(lines: list[str]) -> str:
    return " | ".join(line.strip() for line in lines if line.strip())


def manager_class() -> type:
    """A KernelManager whose TCP ports come from the register and whose stderr is kept."""
    from jupyter_client.manager import KernelManager

    class Manager(KernelManager):
        stderr_path: Path | None = None
        reserved: list[int] = []

        async def _async_pre_start_kernel(self, **kw: Any):
            if self.transport == "tcp":
                self.reserved = reserve(len(CHANNELS), self.ip or "127.0.0.1")
                for channel, port in zip(CHANNELS, self.reserved):
                    setattr(self, channel, port)
                self.cache_ports = False  # the provisioner would pick ports of its own
            cmd, kw = await super()._async_pre_start_kernel(**kw)
            if self.kernel_name == "python3":
                cmd = warm.command(self.connection_file) or cmd
            if self.stderr_path is not None:
                kw["stderr"] = open(self.stderr_path, "wb")
            return cmd, kw

        async def _async_is_alive(self) -> bool:
            alive = await super()._async_is_alive()
            if alive and self.stderr_path and fatal_tail(self.stderr_path):
                # dead in all but name: stopped here, or shutting it down would wait on it
                assert self.provisioner is not None
                await self.provisioner.kill()
                await self.provisioner.wait()
                return False
            return alive

        async def _async_cleanup_resources(self, restart: bool = False) -> None:
            await super()._async_cleanup_resources(restart)
            if self.reserved and not restart:
                release(self.reserved)
                self.reserved = []

    return Manager


@contextlib.contextmanager
def started_by_us(kernel: str) -> Iterator[dict[str, Any]]:
    """papermill's options for one notebook: a kernel manager of ours (ours to stop). A kernel
    that dies at start raises a HotpathError that quotes its stderr."""
    with tempfile.TemporaryDirectory(prefix="hotpath-kernel-") as folder:
        km = manager_class()(kernel_name=kernel,
                             transport="ipc" if kernel == "python3" else "tcp")
        if kernel == "python3":
            km.ip = str(Path(folder) / "kernel")
        km.stderr_path = Path(folder) / "stderr"
        try:
            yield {"km": km}
        except RuntimeError as e:
            # nbclient's words for a kernel that never answered: say why, from its stderr
            if "Kernel died" in str(e) or "didn't respond" in str(e):
                raise HotpathError(f"the {kernel} kernel died at start ({e}); its stderr: "
                                   f"{why(km.stderr_path)}") from None
            raise
        finally:
            if km.has_kernel:
                km.shutdown_kernel(now=True)
            km.cleanup_resources()


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""
