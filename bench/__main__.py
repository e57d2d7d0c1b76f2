"""`make bench`: every benchmark, measured in one run, printed as ratios against peers."""

from __future__ import annotations

import sys

from bench import dice_bench, rules_bench


def main() -> int:
    dice_bench.main()
    print()
    rules_bench.main()
    return 0


if __name__ == "__main__":
    sys.exit(main())
