"""An engine in Python that plays the first legal action, then misbehaves as told.

    python scripted.py MODE AFTER [END_FILE]

MODE is ``play`` (never misbehave), ``garbage`` (answer with prose), ``crash`` (exit
with code 3 and a word on stderr) or ``hang`` (never answer); it misbehaves at the
first decision after AFTER good ones. The ``end`` message received is written, as
JSON, to END_FILE if one is given (for a game of several seats, ``{seat}`` in the
name is replaced by the engine's seat).
"""

import json
import sys
import time


def send(message: dict[str, object]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def main() -> None:
    mode, after = sys.argv[1], int(sys.argv[2])
    end_file = sys.argv[3] if len(sys.argv) > 3 else None
    seat = None
    for line in sys.stdin:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            seat = message["seat"]
            send({"type": "ready", "protocol": 1, "name": f"scripted {mode}"})
        elif kind == "decide":
            if mode != "play" and message["id"] > after:
                if mode == "garbage":
                    sys.stdout.write("I would rather not.\n")
                    sys.stdout.flush()
                elif mode == "crash":
                    sys.stderr.write("scripted: out of ideas\n")
                    sys.exit(3)
                else:
                    time.sleep(60)
                continue
            send({"type": "action", "id": message["id"], "action": message["legal"][0]})
        elif kind == "end":
            if end_file is not None:
                with open(end_file.replace("{seat}", str(seat)), "w", encoding="utf-8") as file:
                    json.dump(message, file)
            break


if __name__ == "__main__":  # test collection imports it, and must not run it
    main()
