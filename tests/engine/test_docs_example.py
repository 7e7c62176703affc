"""The engine API example in docs/ must keep running as written."""

import re
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "engine-api.md"


def test_engine_api_example_runs(capsys) -> None:
    code = re.search(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert code is not None
    exec(compile(code.group(1), str(DOC), "exec"), {})
    printed = capsys.readouterr().out
    assert "Raf" in printed and "takes 7 damage" in printed
