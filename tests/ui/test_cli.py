"""The command line: rolling dice and checking encounter files, with plain messages and exit codes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tui_combat.engine.encounter import ENCOUNTER_DIR

DEMO = ENCOUNTER_DIR / "demo_adnd2e.toml"


def run(*args: str, data: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tui_combat", "--data-dir", str(data), *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_roll_prints_the_faces_and_the_total(tmp_path: Path) -> None:
    result = run("--seed", "3", "roll", "2d6+1", data=tmp_path)
    assert result.returncode == 0, result.stderr
    line = result.stdout.strip()
    assert line.startswith("2d6+1: [") and line.count("\n") == 0, line
    faces = [int(face) for face in line.split("[")[1].split("]")[0].split(",")]
    assert len(faces) == 2 and all(1 <= face <= 6 for face in faces)
    assert line.endswith(f"= {sum(faces) + 1}")
    assert run("--seed", "3", "roll", "2d6+1", data=tmp_path).stdout == result.stdout  # the seed decides


def test_roll_of_a_die_without_sides_is_refused_plainly(tmp_path: Path) -> None:
    result = run("roll", "2d", data=tmp_path)
    assert result.returncode == 2
    assert result.stdout == ""
    assert '"2d"' in result.stderr and "sides" in result.stderr
    assert "Traceback" not in result.stderr


def test_check_accepts_the_demo(tmp_path: Path) -> None:
    result = run("check", str(DEMO), data=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "12 combatants" in result.stdout and "adnd2e" in result.stdout


def test_check_and_roll_take_dice_as_the_russian_and_ukrainian_books_write_them(tmp_path: Path) -> None:
    encounter = tmp_path / "ambush.toml"
    encounter.write_text(
        'name = "Засада"\nruleset = "dnd5e"\n'
        '[[sides]]\nname = "Отряд"\nparty = true\n'
        '[[sides.combatants]]\nname = "Лия"\nhp = 33\n'
        'sheet = { ac = 15, attack = 7, damage = "1д8", attack_list = "рапира +7 1д8+4, кинжал +7 1к4+4" }\n'
        '[[sides]]\nname = "Гоблины"\n'
        '[[sides.combatants]]\nname = "Гоблин"\nhp = 7\ncount = 2\n'
        'sheet = { ac = 15, attack = 4, damage = "2к6+1" }\n',
        encoding="utf-8",
    )
    result = run("check", str(encounter), data=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "3 combatants" in result.stdout
    rolled = run("--seed", "3", "roll", "2к6+1", data=tmp_path)
    assert rolled.returncode == 0 and rolled.stdout.startswith("2d6+1: ["), rolled.stderr


def test_check_names_the_file_and_the_mistyped_field(tmp_path: Path) -> None:
    encounter = tmp_path / "typo.toml"
    encounter.write_text(
        'name = "Ambush"\n'
        '[[sides]]\nname = "Party"\nparty = true\n'
        '[[sides.combatants]]\nname = "Raf"\nhp = 38\n'
        '[[sides]]\nname = "Monsters"\n'
        '[[sides.combatants]]\nname = "Orc"\nhpp = 5\n',
        encoding="utf-8",
    )
    result = run("check", str(encounter), data=tmp_path)
    assert result.returncode == 2
    assert str(encounter) in result.stderr
    assert "hpp" in result.stderr and "side Monsters, Orc" in result.stderr and "[" not in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "sessions").exists()  # checking saves nothing


def test_check_refuses_broken_files_without_a_traceback(tmp_path: Path) -> None:
    cases = {
        "not_toml.toml": ('name = "x"\nhp = \n', "line 2"),
        "wrong_type.toml": (
            'name = "x"\n[[sides]]\nname = "A"\n[[sides.combatants]]\nname = "Orc"\nhp = "five"\n',
            'line 6: side A, Orc: "hp" must be a whole number',
        ),
    }
    for name, (text, where) in cases.items():
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        result = run("check", str(path), data=tmp_path)
        assert result.returncode == 2, name
        assert str(path) in result.stderr and where in result.stderr, result.stderr
        assert "Traceback" not in result.stderr
    missing = run("check", str(tmp_path / "missing.toml"), data=tmp_path)
    assert missing.returncode == 2
    assert "missing.toml" in missing.stderr and "Traceback" not in missing.stderr
