"""The papermill translator for Java notebooks: every value type, and escaping."""

import nbformat
import pytest
from papermill.translators import papermill_translators

from hotpath.render.java_translator import JavaTranslator, register

T = JavaTranslator


@pytest.mark.parametrize("value, java", [
    ("plain", '"plain"'),
    ('say "hi"', '"say \\"hi\\""'),
    ("back\\slash", '"back\\\\slash"'),
    ("tab\tnew\nline\r", '"tab\\tnew\\nline\\r"'),
    ("bell\x07", '"bell\\u0007"'),
    ("é ü 日本", '"é ü 日本"'),
    ("\U0001F600", '"\\ud83d\\ude00"'),
    ("", '""'),
])
def test_strings_are_java_string_literals(value, java):
    assert T.translate(value) == java


@pytest.mark.parametrize("value, java", [
    (0, "0"), (-5, "-5"), (2 ** 31 - 1, "2147483647"), (2 ** 31, "2147483648L"),
    (-(2 ** 63), "-9223372036854775808L"), (2 ** 64, 'new java.math.BigInteger("18446744073709551616")'),
])
def test_integers_pick_int_long_or_biginteger(value, java):
    assert T.translate(value) == java


@pytest.mark.parametrize("value, java", [
    (1.5, "1.5"), (1e-9, "1e-09"), (float("nan"), "Double.NaN"),
    (float("inf"), "Double.POSITIVE_INFINITY"), (float("-inf"), "Double.NEGATIVE_INFINITY"),
])
def test_floats_are_doubles(value, java):
    assert T.translate(value) == java


def test_booleans_none_lists_and_dicts():
    assert T.translate(True) == "true" and T.translate(False) == "false"
    assert T.translate(None) == "null"
    assert T.translate([1, "a", None]) == 'java.util.Arrays.asList(1, "a", null)'
    assert T.translate({"k": 1}).startswith(
        'java.util.stream.Stream.of(new java.util.AbstractMap.SimpleEntry<>("k", 1))')


def test_injected_cell_keeps_the_declared_types():
    translator = register('int n = 3; // count\nlong big = 1L; // big\nString who = "x"; // who')
    code = translator.codify({"n": 5, "big": 7, "who": "y", "other": 1.0})
    assert "int n = 5;" in code
    assert "long big = 7;" in code
    assert 'String who = "y";' in code
    assert "var other = 1.0;" in code
    assert papermill_translators.find_translator("java", "java") is translator


def test_parameters_cell_is_inspected_with_types_and_help():
    cell = nbformat.v4.new_code_cell(
        'int entries = 30; // map entries\nList<Integer> sizes = List.of(1, 2); // sizes\n'
        'String name = "a;b"; // a name')
    params = {p.name: p for p in JavaTranslator.inspect(cell)}
    assert params["entries"].inferred_type_name == "int"
    assert params["entries"].default == "30"
    assert params["entries"].help == "map entries"
    assert params["sizes"].inferred_type_name == "List<Integer>"
    assert params["name"].default == '"a;b"'
