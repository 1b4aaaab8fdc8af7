"""papermill for Java notebooks (the JJava kernel): a translator registered in-process.

papermill ships no Java translator, so a Java notebook's ``parameters`` cell could not be
overridden. This one writes typed Java declarations: where the parameters cell declares
``int n = 3; // help``, the injected cell says ``int n = 5;`` (JShell replaces the earlier
declaration); unknown names get ``var``.
"""

from __future__ import annotations

import math
import re
from typing import Any

from papermill.models import Parameter
from papermill.translators import Translator, papermill_translators

#: `Type name = value; // help` in a parameters cell.
_DECLARATION = re.compile(
    r"^\s*(?:final\s+)?(?P<type>[\w.]+(?:<[\w<>,.?\s\[\]]*>)?(?:\[\])*)\s+(?P<name>[A-Za-z_$][\w$]*)"
    r"\s*=\s*(?P<default>.+?);\s*(?://\s*(?P<help>.*))?$")

_JAVA_TO_PY = {"String": "str", "int": "int", "long": "int", "Integer": "int", "Long": "int",
               "short": "int", "byte": "int", "double": "float", "float": "float",
               "Double": "float", "Float": "float", "boolean": "bool", "Boolean": "bool"}

_INT_MIN, _INT_MAX = -(2 ** 31), 2 ** 31 - 1


class JavaTranslator(Translator):
    #: name -> Java type declared in the notebook's parameters cell (set by ``register``).
    declared: dict[str, str] = {}

    @classmethod
    def translate_raw_str(cls, val: str) -> str:
        return val

    @classmethod
    def translate_escaped_str(cls, str_val: str) -> str:
        out = []
        for ch in str_val:
            code = ord(ch)
            if ch == "\\":
                out.append("\\\\")
            elif ch == '"':
                out.append('\\"')
            elif ch == "\n":
                out.append("\\n")
            elif ch == "\r":
                out.append("\\r")
            elif ch == "\t":
                out.append("\\t")
            elif code < 0x20 or code == 0x7F or 0xD800 <= code <= 0xDFFF:
                out.append(f"\\u{code:04x}")
            elif code > 0xFFFF:
                # Java strings are UTF-16: a supplementary character is a surrogate pair.
                hi, lo = divmod(code - 0x10000, 0x400)
                out.append(f"\\u{0xD800 + hi:04x}\\u{0xDC00 + lo:04x}")
            else:
                out.append(ch)
        return '"' + "".join(out) + '"'

    @classmethod
    def translate_str(cls, val: str) -> str:
        return cls.translate_escaped_str(val)

    @classmethod
    def translate_none(cls, val: None) -> str:
        return "null"

    @classmethod
    def translate_int(cls, val: int) -> str:
        if _INT_MIN <= val <= _INT_MAX:
            return str(val)
        if -(2 ** 63) <= val < 2 ** 63:
            return f"{val}L"
        return f'new java.math.BigInteger("{val}")'

    @classmethod
    def translate_float(cls, val: float) -> str:
        if math.isnan(val):
            return "Double.NaN"
        if math.isinf(val):
            return "Double.POSITIVE_INFINITY" if val > 0 else "Double.NEGATIVE_INFINITY"
        return repr(float(val))

    @classmethod
    def translate_bool(cls, val: bool) -> str:
        return "true" if val else "false"

    @classmethod
    def translate_list(cls, val: list) -> str:
        # Arrays.asList, unlike List.of, accepts null elements.
        return f"java.util.Arrays.asList({', '.join(cls.translate(v) for v in val)})"

    @classmethod
    def translate_dict(cls, val: dict) -> str:
        entries = ", ".join(f"new java.util.AbstractMap.SimpleEntry<>({cls.translate(k)}, "
                            f"{cls.translate(v)})" for k, v in val.items())
        return (f"java.util.stream.Stream.of({entries}).collect(java.util.LinkedHashMap::new, "
                f"(map, e) -> map.put(e.getKey(), e.getValue()), java.util.Map::putAll)")

    @classmethod
    def comment(cls, cmt_str: str) -> str:
        return f"// {cmt_str}".strip()

    @classmethod
    def assign(cls, name: str, str_val: str) -> str:
        return f"{cls.declared.get(name, 'var')} {name} = {str_val};"

    @classmethod
    def codify(cls, parameters: dict[str, Any], comment: str = "Parameters") -> str:
        content = f"{cls.comment(comment)}\n"
        for name, val in parameters.items():
            content += f"{cls.assign(name, cls.translate(val))}\n"
        return content

    @classmethod
    def inspect(cls, parameters_cell) -> list[Parameter]:
        params = []
        for line in parameters_cell.source.splitlines():
            m = _DECLARATION.match(line)
            if m:
                java_type = m.group("type")
                params.append(Parameter(
                    name=m.group("name"),
                    inferred_type_name=_JAVA_TO_PY.get(java_type, java_type),
                    default=m.group("default").strip(),
                    help=(m.group("help") or "").strip()))
        return params


def declared_types(source: str) -> dict[str, str]:
    return {m.group("name"): m.group("type")
            for m in map(_DECLARATION.match, source.splitlines()) if m}


def register(parameters_cell_source: str = "") -> type[JavaTranslator]:
    """Register the Java translator for the ``java`` kernel language, typed by a cell's
    declarations so that an injected ``long`` stays a ``long``."""
    translator = type("JavaTranslator", (JavaTranslator,),
                      {"declared": declared_types(parameters_cell_source)})
    papermill_translators.register("java", translator)
    return translator
