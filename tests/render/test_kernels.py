"""Kernels started side by side never share a port, and a kernel that dies at start says why
as soon as it is seen dead, not after the start timeout: held by which of the client's two
endings it took, not by a stopwatch a slow host could stop late."""

import os
import socket
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context

import pytest

from hotpath.errors import HotpathError
from hotpath.render import kernels

#: A pool far smaller than the ports the OS would offer: processes asking at once are offered
#: the same ports over and over, as two kernels starting in the same instant could be.
POOL = list(range(41000, 41030))


def _reserve_from_a_small_pool(args):
    register, times = args
    kernels._free_port = _offering(POOL)
    held = []
    for _ in range(times):
        held += kernels.reserve(5, register=register)
    return held


def test_ports_held_by_one_process_are_never_handed_to_another(tmp_path):
    register = tmp_path / "ports.json"
    with ProcessPoolExecutor(5, mp_context=get_context("fork")) as pool:
        held = list(pool.map(_reserve_from_a_small_pool, [(register, 1)] * 5))
    ports = [p for ps in held for p in ps]
    assert len(ports) == 25 and len(set(ports)) == 25


def _offering(ports, calls=1000):
    """A fake OS that offers only ``ports``, round and round; it gives up rather than hang."""
    offered = iter(ports * calls)
    return lambda ip: next(offered)


def test_released_and_dead_holders_ports_come_back(tmp_path, monkeypatch):
    register = tmp_path / "ports.json"
    monkeypatch.setattr(kernels, "_free_port", _offering(POOL[:5]))
    first = kernels.reserve(5, register=register)
    kernels.release(first, register=register)
    assert sorted(kernels.reserve(5, register=register)) == first
    # a holder that died without releasing: its ports are free again
    register.write_text(register.read_text().replace(f"[{os.getpid()},", "[999999999,"))
    assert sorted(kernels.reserve(5, register=register)) == first
    # while the holder lives, they are not
    with pytest.raises(StopIteration):
        kernels.reserve(1, register=register)


def _start_kernels(times: int) -> list[list[int]]:
    """Start and stop TCP kernels one after the other; the ports each was given."""
    given = []
    for _ in range(times):
        km = kernels.manager_class()(kernel_name="python3", transport="tcp")
        km.start_kernel()
        try:
            kc = km.client()
            kc.start_channels()
            kc.wait_for_ready(timeout=60)  # a port taken by another kernel: it dies here
            kc.stop_channels()
            given.append([getattr(km, c) for c in kernels.CHANNELS])
        finally:
            km.shutdown_kernel(now=True)
            km.cleanup_resources()
    return given


def test_tens_of_kernels_started_side_by_side_all_start():
    workers, times = 4, 6
    with ProcessPoolExecutor(workers, mp_context=get_context("spawn")) as pool:
        given = [k for ks in pool.map(_start_kernels, [times] * workers) for k in ks]
    # each started (a kernel that never answered raises in its worker) on ports of its own
    assert len(given) == workers * times
    assert all(len(set(ports)) == len(kernels.CHANNELS) for ports in given)


def test_a_kernel_that_dies_at_start_says_why_as_soon_as_it_is_seen_dead(monkeypatch, tmp_path):
    from hotpath.render import report
    from hotpath.paths import ROOT

    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = taken.getsockname()[1]
    real = kernels.reserve
    monkeypatch.setattr(kernels, "reserve", lambda count, ip="127.0.0.1": [port, *real(count - 1, ip)])
    try:
        # "Kernel died before replying": the client saw it dead; a start that waited out its
        # timeout would end "Kernel didn't respond in N seconds"
        with pytest.raises(HotpathError, match="java kernel died at start \\(Kernel died before replying"
                                               ".*Address already in use"):
            report.execute(ROOT / "notebooks" / "java" / "zip.ipynb", tmp_path / "zip.ipynb",
                           {"calls": 1})
    finally:
        taken.close()


def test_a_kernels_ports_are_drawn_below_the_ephemeral_range():
    # the ports every other process's bind(0) and connections take (JMH's forks among them) are
    # the ephemeral range: a kernel's port drawn there could be taken before the kernel binds it
    low = kernels._ephemeral_low()
    ports = kernels.reserve(len(kernels.CHANNELS))
    try:
        assert all(kernels.KERNEL_PORTS[0] <= p < min(kernels.KERNEL_PORTS[1], low or 1 << 16) for p in ports), (ports, low)
    finally:
        kernels.release(ports)
