"""Command line: ``tui-combat [--data-dir DIR] [--seed N] [resume NAME | recover NAME | new FILE | roll EXPR |
check FILE | list | view [NAME] | serve [NAME] | export NAME]``."""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from tui_combat.i18n import (
    KNOWN_LANGUAGES,
    UnknownLanguage,
    _,
    choose_language,
    language_argument,
    localize_argparse,
    ngettext,
    set_language,
)

if TYPE_CHECKING:
    from tui_combat.running.leaving import LeftSession


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tui-combat", description=_("A combat manager for game masters."))
    parser.add_argument(
        "--data-dir",
        metavar=_("DIR"),
        help=_("where sessions are saved (default: the platform's data folder, or $TUI_COMBAT_DATA_DIR)"),
    )
    parser.add_argument(
        "--seed", type=int, metavar=_("N"), help=_("dice seed for new sessions (for reproducible demos and tests)")
    )
    parser.add_argument(
        "--lang",
        metavar=_("LANG"),
        help=_(
            "language of the interface: {languages} (default: language in settings.toml "
            "in the config folder, then LANGUAGE, LC_ALL, LC_MESSAGES, LANG)",
            languages=", ".join(KNOWN_LANGUAGES),
        ),
    )
    commands = parser.add_subparsers(dest="command", metavar=_("COMMAND"))
    commands.add_parser("list", help=_("list saved sessions"))
    resume = commands.add_parser("resume", help=_("resume a saved session"))
    resume.add_argument("name", metavar=_("NAME"), help=_("the session's name, as list shows it"))
    recover = commands.add_parser(
        "recover", help=_("rebuild a damaged session into a new one beside it (the damaged one is kept as it is)")
    )
    recover.add_argument("name", metavar=_("NAME"), help=_("the session's name, as list shows it"))
    recover.add_argument(
        "--up-to-line", type=int, default=None, metavar=_("LINE"), help=_("use the journal only up to this line")
    )
    new = commands.add_parser("new", help=_("start a session from an encounter file"))
    new.add_argument("file", type=Path, metavar=_("FILE"), help=_("an encounter file (TOML)"))
    roll = commands.add_parser("roll", help=_("roll dice, e.g. 4d6kh3"))
    roll.add_argument("expr", nargs="+", metavar=_("EXPR"), help=_("dice: NdM, +/-, kh/kl, d20adv, d10!"))
    check = commands.add_parser("check", help=_("check an encounter file for mistakes"))
    check.add_argument("file", type=Path, metavar=_("FILE"), help=_("an encounter file (TOML)"))
    view = commands.add_parser(
        "view", help=_("the players' screen: follow a fight read-only (the latest one when no name is given)")
    )
    view.add_argument("name", nargs="?", metavar=_("NAME"), help=_("the session's name, as list shows it"))
    view.add_argument("--large", action="store_true", help=_("big layout for a TV: the order and who acts now"))
    serve = commands.add_parser(
        "serve", help=_("serve the players' screen to web browsers: each tab is its own read-only view")
    )
    serve.add_argument("name", nargs="?", metavar=_("NAME"), help=_("the session's name, as list shows it"))
    serve.add_argument(
        "--host",
        default="127.0.0.1",
        metavar=_("HOST"),
        help=_("address to listen on (default: 127.0.0.1, this computer only)"),
    )
    serve.add_argument("--port", type=int, default=8000, metavar=_("PORT"), help=_("port to listen on (default: 8000)"))
    serve.add_argument(
        "--public-url",
        metavar=_("URL"),
        help=_(
            "the address browsers reach the server at, when it is not http://{host}:{port}",
            host=_("HOST"),
            port=_("PORT"),
        ),
    )
    serve.add_argument("--large", action="store_true", help=_("big layout and big letters for a TV"))
    serve.add_argument(
        "--max-viewers",
        type=int,
        default=16,
        metavar=_("N"),
        help=_("how many browser tabs may watch at once (default: 16); each is a view process"),
    )
    export = commands.add_parser(
        "export", help=_("write a report of a fight: its rounds, turn order, every roll, damage and healing")
    )
    export.add_argument("name", metavar=_("NAME"), help=_("the session's name, as list shows it"))
    export.add_argument(
        "--format",
        choices=("md", "html", "json"),
        default=None,
        help=_(
            "md (Markdown, for a wiki or a chat), html (a web page) or "
            "json (default: from the name of the output file, else md)"
        ),
    )
    export.add_argument("--public", action="store_true", help=_("only what the players' screen shows: nothing secret"))
    # The file's placeholder in the help's sentences is the one argparse shows after --output, in the same language.
    export.add_argument(
        "--output",
        "-o",
        type=Path,
        metavar=_("FILE"),
        help=_("write the report to {file} (default: print it)", file=_("FILE")),
    )
    export.add_argument("--force", action="store_true", help=_("replace {file} when it exists", file=_("FILE")))
    return parser


def main(argv: list[str] | None = None) -> int:
    """The command line; output to a pipe whose reader has stopped (``| head``) ends it quietly."""
    try:
        code = _main(sys.argv[1:] if argv is None else argv)
        sys.stdout.flush()
    except BrokenPipeError:
        _quiet_stdout()
        return 0
    return code


def _quiet_stdout() -> None:
    """The reader of the output is gone: what is left to flush goes nowhere, without a second error at exit."""
    import os

    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def _main(argv: list[str]) -> int:
    try:  # before the parser is built: its help is written in the chosen language
        set_language(choose_language(language_argument(argv)))
    except UnknownLanguage as error:
        print(error, file=sys.stderr)
        return 2
    localize_argparse()
    args = _parser().parse_args(argv)
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
        from tui_combat.engine.text import harmless
        from tui_combat.fight.session import SessionError, check_encounter

        try:
            state = check_encounter(args.file)
        except SessionError as error:
            print(harmless(str(error), lines=True), file=sys.stderr)
            return 2
        from tui_combat.engine.registry import get

        print(
            harmless(
                ngettext(
                    "{path}: {n} combatant, ruleset {ruleset}. OK.",
                    "{path}: {n} combatants, ruleset {ruleset}. OK.",
                    len(state.combatants),
                    path=args.file,
                    ruleset=_(get(state.ruleset).name),
                )
            )
        )
        return 0
    if args.command == "list":
        from tui_combat.engine.text import harmless
        from tui_combat.fight.session import list_sessions, progress_label, ruleset_label
        from tui_combat.saves.session_folders import format_time, sessions_problem

        problem = sessions_problem(root)
        if problem:
            print(problem, file=sys.stderr)
            return 2
        for info in list_sessions(root, steps=True):
            problem = f"\t({_(info.problem)})" if info.problem else ""
            fields = (
                info.key,
                info.name,
                ruleset_label(info.ruleset),
                progress_label(info),
                format_time(info.saved_at),
            )
            print("\t".join(harmless(field) for field in fields) + problem)
        return 0
    if args.command == "recover":
        return _recover(root, args.name, args.up_to_line)
    if args.command == "export":
        return _export(root, args)
    if args.command in ("view", "serve") and args.name is not None:
        key = _session_key(root, args.name)
        if key is None:
            return 2
        args.name = key
    resume_key = None
    if args.command == "resume":
        resume_key = _session_key(root, args.name)
        if resume_key is None:
            return 2
    if args.command == "new":
        problem = _unreadable_encounter(args.file)
        if problem:
            from tui_combat.engine.text import harmless

            print(harmless(problem, lines=True), file=sys.stderr)
            return 2
    if args.command in (None, "resume", "new", "view") and not _has_terminal():
        print(
            _(
                "tui-combat shows its screens only in a terminal, and this one has none on its input or output "
                "(a pipe, a file, a closed SSH session). list, check, roll and recover work without one."
            ),
            file=sys.stderr,
        )
        return 2
    if args.command in ("view", "serve"):
        return _players(root, args)
    import gc

    # No garbage collection until the app's first screen is drawn (CombatApp turns it on again then, and takes
    # its steps between keys: tui_combat.running.collecting): the collections that starting up sets off walk
    # its ever more objects again and again (some 15 ms of resuming a fight of 2,000 combatants).
    gc.disable()
    from tui_combat.app import CombatApp

    app = CombatApp(
        root,
        resume=resume_key,
        encounter=args.file if args.command == "new" else None,
        seed=args.seed,
        collects_between_keys=True,
        handles_hang_up=True,
    )
    # What start-up has made so far (Textual's modules, the app's, the app itself) lives as long as the app:
    # kept out of the garbage collector's way while it runs, so that the collections the fight's many
    # objects set off while the first screen is drawn do not walk all of it again and again.
    gc.freeze()
    try:
        app.run()
    finally:
        gc.unfreeze()
    if app.left_session is not None:
        _say_how_to_resume(root, args.data_dir, app.left_session)
    return app.return_code or 0  # EXIT_UNSAVED when the GM left with actions that could not be saved


def _say_how_to_resume(root: Path, data_dir: str | None, left: LeftSession) -> None:
    """Once the terminal is the shell's again: the session left, and the exact command that resumes it."""
    from tui_combat.engine.text import harmless
    from tui_combat.fight.session import resume_command

    name, command = harmless(left.name or left.key), resume_command(root, left.key, left.name, data_dir)
    if left.save_problem:
        line = _(
            "{name}: the last actions could not be saved ({problem}) — what was saved resumes with: {command}",
            name=name,
            problem=left.save_problem,
            command=command,
        )
    elif left.read_only:
        line = _(
            "{name} was open read-only and is as it was — open it again with: {command}", name=name, command=command
        )
    else:
        line = _("Saved as {name} — resume with: {command}", name=name, command=command)
    try:
        print(harmless(line, lines=True), flush=True)
    except OSError:  # the terminal is gone (a hang-up): nobody is there to read it, nor what is left to flush
        _quiet_stdout()


def _has_terminal() -> bool:
    """Both the input and the output are a terminal: the screens can be shown (and a key can reach them).
    A Textual driver named in the environment brings its own way in and out (``serve`` runs each browser
    tab's view with the web driver, over pipes)."""
    import os

    if os.environ.get("TEXTUAL_DRIVER"):
        return True
    try:
        return sys.stdin is not None and sys.stdout is not None and sys.stdin.isatty() and sys.stdout.isatty()
    except (AttributeError, ValueError):  # a closed or replaced stream
        return False


def _session_key(root: Path, name: str) -> str | None:
    """The folder key of the saved session ``name`` (its key, or its name as listed, case aside); when there
    is none, or several share the name, the reason is printed and None returned."""
    from tui_combat.saves.errors import SaveError
    from tui_combat.saves.session_folders import is_listed_key, session_folder

    if is_listed_key(root, name):  # a session's own key, as list shows it: no need to read every session's files
        return name
    from tui_combat.fight.session import SessionError, find_session

    try:
        info = find_session(root, name)
        folder = session_folder(root, info.key if info is not None else name)
    except (SessionError, SaveError) as error:
        print(error, file=sys.stderr)
        return None
    if info is None or not folder.is_dir():
        print(_("There is no saved session {name}.", name=name), file=sys.stderr)
        return None
    return info.key


def _unreadable_encounter(path: Path) -> str:
    """Every mistake of the encounter file (missing, not UTF-8, not TOML, wrong fields, sheets the ruleset
    refuses, a fight that would not build), before the screen is taken over; "" when it is right."""
    from tui_combat.fight.session import SessionError, check_encounter

    try:
        check_encounter(path)
    except SessionError as error:
        return str(error)
    return ""


def _recover(root: Path, name: str, up_to_line: int | None) -> int:
    from tui_combat.fight.session import SessionError, find_session, recover

    try:
        found = find_session(root, name, title=_("Cannot recover the session"))
        store = recover(root, found.key if found is not None else name, up_to_line=up_to_line)
    except SessionError as error:
        print(error, file=sys.stderr)
        return 2
    key = store.folder.folder.name if store.folder is not None else ""
    store.close()
    for warning in store.warnings:
        print(warning)
    print(_("The recovered session is {key}: tui-combat resume {key}", key=key))
    return 0


def _export(root: Path, args: argparse.Namespace) -> int:
    """``export``: a report of the saved session, printed or written to a file (whole or not at all)."""
    key = _session_key(root, args.name)
    if key is None:
        return 2
    from tui_combat.fight.report import ReportError, format_for, rendered, store_report, write_report
    from tui_combat.fight.session import SessionError, resume

    try:
        store = resume(root, key, read_only=True)  # only read: the GM may be running the fight right now
    except SessionError as error:
        print(error, file=sys.stderr)
        return 2
    from tui_combat.engine.registry import in_play

    in_play(store.state.ruleset)  # its own words first, as the GM reads them
    try:
        scale = None
        if args.public:
            from tui_combat.screens.export import players_health_scale

            scale, problem = players_health_scale()
            if problem:
                print(problem, file=sys.stderr)
        text = rendered(store_report(store, public=args.public, scale=scale), args.format or format_for(args.output))
    finally:
        store.close()
    if args.output is None:
        try:
            if hasattr(sys.stdout, "buffer"):
                sys.stdout.buffer.write(text.encode("utf-8"))
            else:
                sys.stdout.write(text)
            sys.stdout.flush()
        except BrokenPipeError:  # the reader stopped early (``| head``): nothing more to say, and nothing to flush
            _quiet_stdout()
            return 0
        return 0
    try:
        written = write_report(args.output, text, overwrite=args.force)
    except ReportError as error:
        print(error, file=sys.stderr)
        return 2
    print(_("Report written to {path}.", path=written))
    return 0


def _players(root: Path, args: argparse.Namespace) -> int:
    """``view``: the players' screen here; ``serve``: the same, one process per browser tab."""
    if args.name is not None:
        from tui_combat.saves.errors import SaveError
        from tui_combat.saves.session_folders import session_folder

        try:
            folder = session_folder(root, args.name)
        except SaveError as error:
            print(error, file=sys.stderr)
            return 2
        if not folder.is_dir():
            print(_("There is no saved session {name}.", name=args.name), file=sys.stderr)
            return 2
    if args.command == "serve":
        from tui_combat.running.serve import serve

        return serve(
            root,
            args.name,
            host=args.host,
            port=args.port,
            public_url=args.public_url,
            large=args.large,
            language=args.lang,
            max_viewers=args.max_viewers,
        )
    import gc

    from tui_combat.running.collecting import ON_ITS_OWN, STEP_EVERY, collect_step
    from tui_combat.screens.player_view import PlayerViewApp

    # The collector's steps between updates, as for the GM's app (see PlayerViewApp.collect_step).
    gc.set_threshold(ON_ITS_OWN, *gc.get_threshold()[1:])
    app = PlayerViewApp(root, args.name, large=args.large, collect_step=collect_step, collect_every=STEP_EVERY)
    try:
        app.run(mouse=False)
    except OSError:  # the terminal went away while the screen was being restored: nothing left to show
        if not app.hung_up:
            raise
    if app.hung_up:
        # The terminal is gone: leave now, without waiting for a read of the session still running in a
        # thread (it may be a long one of a damaged file), and with nothing left to write anywhere.
        import os

        os._exit(0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
