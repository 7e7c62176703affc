"""Command line: ``tui-combat [--data-dir DIR] [--seed N] [resume NAME | recover NAME | new FILE | roll EXPR | check FILE | list]``."""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

from tui_combat.i18n import _, set_language


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tui-combat", description=_("A combat manager for game masters."))
    parser.add_argument("--data-dir", help=_("where sessions are saved (default: the platform's data folder, or $TUI_COMBAT_DATA_DIR)"))
    parser.add_argument("--seed", type=int, help=_("dice seed for new sessions (for reproducible demos and tests)"))
    parser.add_argument("--lang", help=_("language of the interface: en, ru, uk"))
    commands = parser.add_subparsers(dest="command")
    commands.add_parser("list", help=_("list saved sessions"))
    resume = commands.add_parser("resume", help=_("resume a saved session"))
    resume.add_argument("name")
    recover = commands.add_parser("recover", help=_("rebuild a damaged session into a new one beside it (the damaged one is kept as it is)"))
    recover.add_argument("name")
    recover.add_argument("--up-to-line", type=int, default=None, help=_("use the journal only up to this line"))
    new = commands.add_parser("new", help=_("start a session from an encounter file"))
    new.add_argument("file", type=Path)
    roll = commands.add_parser("roll", help=_("roll dice, e.g. 4d6kh3"))
    roll.add_argument("expr", nargs="+")
    check = commands.add_parser("check", help=_("check an encounter file for mistakes"))
    check.add_argument("file", type=Path)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.lang:
        set_language(args.lang)
    from tui_combat.saves.locations import data_dir

    root = data_dir(args.data_dir)
    if args.command == "roll":
        from tui_combat.engine.dice import DiceError, format_roll, roll

        try:
            print(format_roll(roll(" ".join(args.expr), random.Random(args.seed))))
        except DiceError as error:
            print(error, file=sys.stderr)
            return 2
        return 0
    if args.command == "check":
        from tui_combat.session import SessionError, check_encounter

        try:
            state = check_encounter(args.file)
        except SessionError as error:
            print(error, file=sys.stderr)
            return 2
        print(_("{path}: {count} combatants, ruleset {ruleset}. OK.", path=args.file, count=len(state.combatants),
                ruleset=state.ruleset))
        return 0
    if args.command == "list":
        from tui_combat.saves.library import format_time
        from tui_combat.session import list_sessions

        for info in list_sessions(root):
            problem = f"\t({_(info.problem)})" if info.problem else ""
            print(f"{info.key}\t{info.name}\t{info.ruleset}\t{_('round')} {info.round}\t{format_time(info.saved_at)}{problem}")
        return 0
    if args.command == "recover":
        return _recover(root, args.name, args.up_to_line)
    if args.command == "resume":
        from tui_combat.saves.errors import SaveError
        from tui_combat.saves.library import session_folder

        try:
            session_folder(root, args.name)
        except SaveError as error:
            print(error, file=sys.stderr)
            return 2
    from tui_combat.app import CombatApp

    app = CombatApp(
        root,
        resume=args.name if args.command == "resume" else None,
        encounter=args.file if args.command == "new" else None,
        seed=args.seed,
    )
    app.run()
    return 0


def _recover(root: Path, name: str, up_to_line: int | None) -> int:
    from tui_combat.session import SessionError, recover

    try:
        store = recover(root, name, up_to_line=up_to_line)
    except SessionError as error:
        print(error, file=sys.stderr)
        return 2
    key = store.folder.folder.name if store.folder is not None else ""
    store.close()
    for warning in store.warnings:
        print(warning)
    print(_("The recovered session is {key}: tui-combat resume {key}", key=key))
    return 0


if __name__ == "__main__":
    sys.exit(main())
