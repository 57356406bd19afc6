"""A CodinGame bot that answers with a line the referee does not recognise."""

import sys


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
    print("hello world", flush=True)
    sys.stdin.read()
