"""``python -m zarr_scale_offset migrate PATH_OR_URL [--dry-run] [--variable NAME ...]``:
:func:`zarr_scale_offset.migrate` from the command line (prints its report; exit status 1 with
the error's code and message when the migration cannot be done exactly, nothing written)."""

from __future__ import annotations

import argparse
import sys

from . import ZarrScaleOffsetError, migrate


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m zarr_scale_offset")
    sub = parser.add_subparsers(dest="command", required=True)
    m = sub.add_parser(
        "migrate",
        help="turn the CF packing attributes of a Zarr v3 store into codecs, in place "
        "(metadata only; no chunk rewritten)",
    )
    m.add_argument("store", help="a path or URL of a Zarr v3 group or array")
    m.add_argument("--dry-run", action="store_true", help="print the plan, write nothing")
    m.add_argument(
        "--variable", action="append", dest="variables", help="an array path (repeatable)"
    )
    args = parser.parse_args(argv)
    try:
        report = migrate(args.store, variables=args.variables, dry_run=args.dry_run)
    except ZarrScaleOffsetError as e:
        print(f"error ({e.code}): {e}", file=sys.stderr)
        return 1
    print(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
