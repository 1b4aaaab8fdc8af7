"""A Python kernel's process, forked by a render's zygote (hotpath.render.warm).

Run as ``python -P -S warm_launch.py <zygote socket> -f <connection file>``, by the kernel manager
in place of ``python -m ipykernel_launcher``: the standard library alone, so that it starts in
milliseconds. It hands the zygote its command line, folder, environment and standard streams,
passes on the signals it is sent, and exits as the fork did. Where no zygote answers, it becomes
an ordinary kernel.
"""

import json
import os
import signal
import socket
import sys

#: How long a launcher waits for its fork to be made: the zygote imports for some seconds first.
WAIT_S = 120.0


def ordinary(argv: list[str]) -> None:
    os.execv(sys.executable, [sys.executable, "-m", "ipykernel_launcher", *argv])


def main(zygote: str, argv: list[str]) -> int:
    connection = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    request = json.dumps({"argv": argv, "cwd": os.getcwd(), "env": dict(os.environ)}).encode()
    try:
        connection.connect(zygote)
        socket.send_fds(connection, [request], [0, 1, 2])
        connection.settimeout(WAIT_S)
        pid = json.loads(connection.recv(4096))["pid"]
    except (OSError, ValueError, KeyError):
        ordinary(argv)
        return 1  # not reached
    connection.settimeout(None)

    def forward(signum: int, _frame: object) -> None:
        try:
            os.kill(pid, signum)
        except ProcessLookupError:
            pass

    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT):
        signal.signal(signum, forward)
    while True:
        try:
            reply = connection.recv(4096)
        except InterruptedError:
            continue
        if not reply:  # the zygote went away, and its forks with it
            return 1
        return int(json.loads(reply)["exit"])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2:]))
