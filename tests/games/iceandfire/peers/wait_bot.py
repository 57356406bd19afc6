"""A CodinGame bot that reads each turn's input and answers WAIT, logging the turn on stderr."""

import sys


def main() -> None:
    for _ in range(int(input())):
        input()
    turn = 0
    while True:
        try:
            gold = int(input())
        except EOFError:
            return
        for _ in range(3 + 12):
            input()
        for _ in range(int(input())):
            input()
        for _ in range(int(input())):
            input()
        turn += 1
        print(f"turn {turn} gold {gold}", file=sys.stderr, flush=True)
        print("WAIT", flush=True)


if __name__ == "__main__":
    main()
