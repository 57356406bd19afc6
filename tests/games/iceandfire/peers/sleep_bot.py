"""A CodinGame bot that answers its first turn, then sleeps far past the 50 ms of the second."""

import time


def read_turn() -> None:
    for _ in range(4 + 12):
        input()
    for _ in range(int(input())):
        input()
    for _ in range(int(input())):
        input()


if __name__ == "__main__":
    for _ in range(int(input())):
        input()
    read_turn()
    print("WAIT", flush=True)
    read_turn()
    time.sleep(30)
    print("WAIT", flush=True)
