"""Act latency of ``cardcrawl serve`` under load (run on demand, never a test).

Usage:
    python benchmarks/web_load.py [--tables 50] [--actions 20] [--game mapless-house]
                                  [--no-sockets]

It starts ``cardcrawl serve`` in a process of its own on a free port of 127.0.0.1, with
a database in a temporary folder and bots that wait for nothing, then makes
``--tables`` tables of one person's seat each, each from a seed of its own (tables
that all played the same game would share every picture drawn). One thread per table plays
``--actions`` actions (the first legal one each time), each one a ``POST .../act``
with the version it acts on, all the threads at once; unless ``--no-sockets``, each
table also has a websocket open, as a page would, which receives every change. It
prints the median and the 90th percentile of the time from sending an action to its
answer, in milliseconds, and stops the server. Everything is bounded: the number of
tables and actions, and a timeout on every request.

Where the system tells it (Linux's ``/proc``), it also prints the processor time the
server spent per action while the threads played, pushes to the websockets included:
unlike the latency, that figure hardly moves with the load other programs put on the
machine, so it compares two versions of the server measured at different times. It
says too how busy the server was while the threads played: with many tables, a share
well under 100% means that the server waited for a core other programs held.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from typing import Any

_TIMEOUT = 30.0


def _request(conn: http.client.HTTPConnection, method: str, path: str, body: Any = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    headers = {"content-type": "application/json"} if body is not None else {}
    conn.request(method, path, body=data, headers=headers)
    answer = conn.getresponse()
    text = answer.read()
    if answer.status >= 400:
        raise RuntimeError(f"{method} {path}: {answer.status} {text[:200]!r}")
    return json.loads(text)


def _listen(
    port: int, table: str, seat: int, token: str, stop: threading.Event, pushes: list[int]
) -> None:
    from websockets.sync.client import connect

    url = f"ws://127.0.0.1:{port}/ws/tables/{table}?seat={seat}&token={token}"
    with connect(url, open_timeout=_TIMEOUT) as socket:
        while not stop.is_set():
            try:
                socket.recv(timeout=0.5)
                pushes.append(1)
            except TimeoutError:
                continue
            except Exception:
                return


def _play(
    port: int,
    game: str,
    seed: int,
    actions: int,
    sockets: bool,
    times: list[float],
    pushes: list[int],
    start: threading.Barrier,
) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=_TIMEOUT)
    conn.connect()
    # As a browser does: no Nagle delay on small requests.
    conn.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    made = _request(conn, "POST", "/api/tables", {"game": game, "seed": seed})
    table, token = made["table"], made["seats"][0]["token"]
    stop = threading.Event()
    listener = None
    if sockets:
        listener = threading.Thread(
            target=_listen, args=(port, table, 0, token, stop, pushes), daemon=True
        )
        listener.start()
    view = _request(conn, "GET", f"/api/tables/{table}/view?seat=0&token={token}")
    start.wait(timeout=_TIMEOUT)
    for _ in range(actions):
        if view["over"] or not view["legal"]:
            break
        body = {
            "seat": 0,
            "token": token,
            "action": view["legal"][0]["text"],
            "version": view["version"],
        }
        clock = time.perf_counter()
        view = _request(conn, "POST", f"/api/tables/{table}/act", body)
        times.append(time.perf_counter() - clock)
    stop.set()
    if listener is not None:
        listener.join(timeout=5)
    conn.close()


def _cpu_seconds(pid: int) -> float | None:
    """The processor time (user and system) process ``pid`` has used, if Linux says."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    # Fields 14 and 15 of stat(5), utime and stime, in clock ticks.
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--actions", type=int, default=20)
    parser.add_argument("--game", default="mapless-house")
    parser.add_argument("--no-sockets", action="store_true")
    args = parser.parse_args(argv)
    if not 1 <= args.tables <= 200 or not 1 <= args.actions <= 200:
        parser.error("--tables and --actions are from 1 to 200")
    with tempfile.TemporaryDirectory() as folder:
        server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "cardcrawl",
                "serve",
                "--port",
                "0",
                "--bot-delay",
                "0",
                "--db",
                os.path.join(folder, "tables.sqlite3"),
            ],
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            assert server.stdout is not None
            line = server.stdout.readline()  # "Serving cardcrawl at http://127.0.0.1:PORT/ ..."
            port = int(line.split("127.0.0.1:")[1].split("/")[0])
            times: list[float] = []
            pushes: list[int] = []
            used: list[float | None] = []
            clock: list[float] = []

            def started() -> None:
                used.append(_cpu_seconds(server.pid))
                clock.append(time.perf_counter())

            start = threading.Barrier(args.tables, action=started)
            threads = [
                threading.Thread(
                    target=_play,
                    args=(
                        port,
                        args.game,
                        1 + n,
                        args.actions,
                        not args.no_sockets,
                        times,
                        pushes,
                        start,
                    ),
                )
                for n in range(args.tables)
            ]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(timeout=300)
            used.append(_cpu_seconds(server.pid))
            clock.append(time.perf_counter())
        finally:
            server.terminate()
            server.wait(timeout=10)
    ms = sorted(t * 1000 for t in times)
    print(
        f"{args.tables} tables of {args.game}, {len(ms)} actions, "
        f"{'with' if not args.no_sockets else 'without'} a websocket each: "
        f"act latency median {statistics.median(ms):.1f} ms, "
        f"90th percentile {ms[int(len(ms) * 0.9)]:.1f} ms"
        + (f"; {len(pushes)} views received by the websockets meanwhile" if pushes else "")
    )
    if len(used) == 2 and used[0] is not None and used[1] is not None and ms:
        busy = used[1] - used[0]
        print(
            f"server processor time per action: {busy / len(ms) * 1000:.2f} ms "
            f"(busy {busy / (clock[1] - clock[0]) * 100:.0f}% of the {clock[1] - clock[0]:.2f} s "
            "played)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
