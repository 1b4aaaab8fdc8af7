"""The package stays easy to read: no function longer than a screen (60 lines), no module longer
than 600; a longer one is split where its parts have names of their own."""

import ast

from hotpath.paths import ROOT

#: The most lines a function may take, its docstring and decorators included.
LONGEST = 60
#: The most lines a module may take.
LONGEST_MODULE = 600
#: The most lines the report document may take: the page, not what it says.
LONGEST_DOCUMENT = 250


def _functions(source: str) -> list[tuple[str, int, int]]:
    return [(node.name, node.lineno, (node.end_lineno or node.lineno) - node.lineno + 1)
            for node in ast.walk(ast.parse(source))
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]


def test_no_function_of_the_package_is_longer_than_a_screen():
    long = [f"{path.relative_to(ROOT)}:{line} {name} ({length} lines)"
            for path in sorted((ROOT / "hotpath").rglob("*.py"))
            for name, line, length in _functions(path.read_text(encoding="utf-8")) if length > LONGEST]
    assert not long, "longer than 60 lines: " + "; ".join(long)


def test_no_module_of_the_package_is_longer_than_600_lines():
    long = [f"{path.relative_to(ROOT)} ({n} lines)" for path in sorted((ROOT / "hotpath").rglob("*.py"))
            if (n := len(path.read_text(encoding="utf-8").splitlines())) > LONGEST_MODULE]
    assert not long, "longer than 600 lines: " + "; ".join(long)


def test_the_document_is_the_page_alone():
    """Document lays out a report's page and writes its texts; what the page says is sections
    (hotpath.render.sections) of the report's analysis (hotpath.analyze.report), not methods."""
    n = len((ROOT / "hotpath" / "render" / "document.py").read_text(encoding="utf-8").splitlines())
    assert n <= LONGEST_DOCUMENT, f"hotpath/render/document.py is {n} lines, more than {LONGEST_DOCUMENT}"


def test_a_long_function_is_seen():
    body = "\n".join(f"    x{i} = {i}" for i in range(LONGEST))
    assert _functions(f"def long():\n{body}\n")[0][2] == LONGEST + 1
