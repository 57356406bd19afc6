"""A CodinGame bot that dies on its first turn, after a word on stderr."""

import sys

if __name__ == "__main__":
    print("reading the map... oops", file=sys.stderr, flush=True)
    sys.exit(3)
