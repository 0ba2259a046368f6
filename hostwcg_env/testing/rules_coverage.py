#!/usr/bin/env python3
"""Rules coverage: which numbered rule is implemented where, and which tests check it.

Reads every numbered rule from the rules index (``docs/rules-index.toml``, built from the
comprehensive rules by ``scripts/build_rules_index.py``), finds the engine code that cites each
rule and the tests that cover it, and writes ``docs/rules-coverage.md``.

    python scripts/rules_coverage.py            # regenerate docs/rules-coverage.md
    python scripts/rules_coverage.py --check    # exit 1 if the file on disk is stale
    python scripts/rules_coverage.py --check --strict   # ... or if a rule lacks code or tests

A rule is **implemented** where the engine or the card code (``hostwcg_env/engine/``,
``hostwcg_env/cards/``) cites it (see ``citations``):

* a dotted number (``14.7.1``) anywhere in a comment, docstring or string, matched as a whole
  number (``14.7`` does not match inside ``14.7.1``, nor ``1.2.1`` inside ``21.2.1``); a range
  ``14.7-14.10`` cites every rule from 14.7 to 14.10;
* a section number (``14``) written ``rule 14`` / ``rules 14`` / ``§14``, inside a bracketed
  list of rule numbers such as ``(4, 7, 8.1, A12)`` or ``[25, 25.1]``, or as a whole string
  literal (``IllegalActionError("14", ...)``).

A rule with sub-rules also counts as implemented when any of its sub-rules is. Other code
(analysis, env, the CLI) does not count: a number there is not the rules' implementation.

A rule is **tested** only by a test that is *tagged* with it (see ``scan_python_tests``), never
by a comment or docstring that mentions it:

* a scenario file of ``tests/scenarios/`` listing it in ``rules = [...]`` (test
  ``test_<file stem>``);
* a ``test_*`` function (or its class, or its module's ``pytestmark``) marked
  ``@pytest.mark.rules("25.4.1.2", ...)``;
* a ``test_*`` function named after it: ``test_rule_26_2_2_...`` is tagged 26.2.2.

A tag that names no rule is an error (``unknown_tags``), so a typo cannot look like coverage.
"""

from __future__ import annotations

import argparse
import ast
import difflib
import io
import re
import sys
import tokenize
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]  # the checkout whose docs and tests are read
INDEX = REPO / "docs" / "rules-index.toml"
OUTPUT = REPO / "docs" / "rules-coverage.md"
CODE_PARTS = ("engine", "cards")  # the packages under hostwcg_env/ that implement rules
TESTS_DIR = REPO / "tests"
SCENARIO_DIR = TESTS_DIR / "scenarios"
TEXT_WIDTH = 60
MAX_TESTS = 4
MAX_PLACES = 3
# docs/rulings.md A01: the win conditions printed 1.1.1-1.1.3 under 1.2 may be cited as 1.2.1-1.2.3.
ALIASES = {"1.2.1": "1.1.1", "1.2.2": "1.1.2", "1.2.3": "1.1.3"}

_DOTTED = re.compile(
    r"(?<![\w.])(\d+(?:\.\d+)+)(?!\d|\.\d)(?:\s*[-–]\s*(\d+(?:\.\d+)+)(?!\d|\.\d))?"
)
_WORD_RULE = re.compile(r"(?:\b[Rr]ules?\s+|§\s*)(\d+)(?![\d]|\.\d)")
_GROUP = re.compile(r"(?<![\w\])])[(\[]([^()\[\]]*)[)\]]")
_GROUP_TOKEN = re.compile(r"^(?:\d+(?:\.\d+)*(?:[-–]\d+(?:\.\d+)*)?|[AS]\d+[a-z]?(?:[-–][AS]\d+[a-z]?)?|D\d+)$")
_NUMBER_RANGE = re.compile(r"(\d+(?:\.\d+)*)(?:[-–](\d+(?:\.\d+)*))?")
_AFTER_RULING = re.compile(r"\bA\d+[a-z]?\s*$")
_NUMBER = re.compile(r"\d+(?:\.\d+)*")
_TEST_NAME = re.compile(r"^test_rule_(\d+(?:_\d+)*)")


@dataclass
class Rule:
    number: str
    text: str
    parent: str | None
    line: int
    children: list[str] = field(default_factory=list)


@dataclass
class Coverage:
    rules: list[Rule]
    cited: dict[str, list[str]]  # rule -> code places that cite it exactly
    tests: dict[str, list[str]]  # rule -> test names
    unknown_tags: list[str] = field(default_factory=list)  # tags that name no rule

    def by_number(self) -> dict[str, Rule]:
        return {r.number: r for r in self.rules}

    def descendants(self, number: str) -> list[str]:
        rules = self.by_number()
        out: list[str] = []
        todo = list(rules[number].children)
        while todo:
            n = todo.pop(0)
            out.append(n)
            todo[:0] = rules[n].children
        return out

    def implemented_via(self, number: str) -> list[str]:
        """Sub-rules with an exact citation (for a rule that has none itself)."""
        return [d for d in self.descendants(number) if self.cited.get(d)]

    def is_implemented(self, number: str) -> bool:
        return bool(self.cited.get(number)) or bool(self.implemented_via(number))

    def is_tested(self, number: str) -> bool:
        return bool(self.tests.get(number))

    def uncited(self) -> list[str]:
        return [r.number for r in self.rules if not self.is_implemented(r.number)]

    def untested(self) -> list[str]:
        return [r.number for r in self.rules if not self.is_tested(r.number)]


# --------------------------------------------------------------------------- the rules
def load_index(path: Path = INDEX) -> list[Rule]:
    """Every numbered rule of the rules index, in printed order, with its children."""
    with open(path, "rb") as f:
        doc = tomllib.load(f)
    rules: list[Rule] = []
    by_number: dict[str, Rule] = {}
    for i, entry in enumerate(doc.get("rule", []), 1):
        number = str(entry["number"])
        if number in by_number:
            raise ValueError(f"{path}: rule {number} appears twice")
        parent = entry.get("parent")
        rule = Rule(number, str(entry["title"]), parent, i)
        if parent is not None:
            if parent not in by_number:
                raise ValueError(f"{path}: rule {number}: parent {parent} is not listed before it")
            by_number[parent].children.append(number)
        by_number[number] = rule
        rules.append(rule)
    if doc.get("count") != len(rules):
        raise ValueError(f"{path}: count = {doc.get('count')} but {len(rules)} rules are listed")
    return rules


# --------------------------------------------------------------------------- citations
def _expand_range(a: str, b: str) -> list[str]:
    pa, pb = a.split("."), b.split(".")
    if len(pa) != len(pb) or pa[:-1] != pb[:-1] or int(pb[-1]) < int(pa[-1]):
        return [a, b]
    head = ".".join(pa[:-1])
    return [f"{head}.{k}" if head else str(k) for k in range(int(pa[-1]), int(pb[-1]) + 1)]


def rule_key(number: str) -> tuple[int, ...]:
    return tuple(int(x) for x in number.split("."))


def _known(numbers: Iterable[str], known: set[str]) -> set[str]:
    out = set()
    for n in numbers:
        n = ALIASES.get(n, n)
        if n in known:
            out.add(n)
    return out


def citations(text: str, known: set[str]) -> set[str]:
    """Rule numbers cited in a piece of prose (comment, docstring, string)."""
    found: list[str] = []
    for m in _DOTTED.finditer(text):
        found += _expand_range(m.group(1), m.group(2)) if m.group(2) else [m.group(1)]
    found += _WORD_RULE.findall(text)
    for m in _GROUP.finditer(text):
        if _AFTER_RULING.search(text, 0, m.start()):
            continue  # "A21 (4)" is step 4 of ruling A21, not rule 4
        tokens = [t for t in re.split(r"[,;\s]+", m.group(1).strip()) if t]
        if not tokens or not all(_GROUP_TOKEN.match(t) for t in tokens):
            continue
        if len(tokens) == 1 and tokens[0].isdigit():
            continue  # a lone "(2)" is too often not a rule; write "rule 2" instead
        for t in tokens:
            num = _NUMBER_RANGE.fullmatch(t)
            if num:
                found += _expand_range(num.group(1), num.group(2)) if num.group(2) else [num.group(1)]
    return _known(found, known)


def literal_citations(tree: ast.AST, known: set[str]) -> dict[int, set[str]]:
    """Line -> rules named by a string literal that is nothing but a rule number and stands
    first in a (rule, message) pair: ``IllegalActionError("14", ...)``, ``return ("14", ...)``."""
    out: dict[int, set[str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Tuple):
            items = node.elts
        elif isinstance(node, ast.Call):
            items = node.args
        else:
            continue
        if len(items) < 2 or not isinstance(items[1], (ast.Constant, ast.JoinedStr)):
            continue
        first = items[0]
        if isinstance(first, ast.Constant) and isinstance(first.value, str) and _NUMBER.fullmatch(first.value):
            out.setdefault(first.lineno, set()).update(_known([first.value], known))
    return out


def name_citation(name: str, known: set[str]) -> set[str]:
    """``test_rule_26_2_2_power`` cites 26.2.2 (the longest known prefix of the digits)."""
    m = _TEST_NAME.match(name)
    if not m:
        return set()
    parts = m.group(1).split("_")
    for k in range(len(parts), 0, -1):
        n = ".".join(parts[:k])
        if ALIASES.get(n, n) in known:
            return {ALIASES.get(n, n)}
    return set()


# --------------------------------------------------------------------------- the code
def _scopes(tree: ast.AST) -> list[tuple[int, int, str]]:
    """(first line, last line, qualified name) of every class and function."""
    out: list[tuple[int, int, str]] = []

    def walk(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = f"{prefix}{child.name}"
                first = min([child.lineno] + [d.lineno for d in child.decorator_list])
                out.append((first, child.end_lineno or child.lineno, name))
                walk(child, name + ".")
            else:
                walk(child, prefix)

    walk(tree, "")
    return out


def _scope_at(scopes: list[tuple[int, int, str]], line: int) -> str | None:
    best: tuple[int, int, str] | None = None
    for first, last, name in scopes:
        if first <= line <= last and (best is None or first >= best[0]):
            best = (first, last, name)
    return best[2] if best else None


def scan_code(root: Path, known: set[str]) -> dict[str, list[str]]:
    """rule -> ``file:function`` places under ``root`` whose comments, docstrings or strings
    cite it (file paths relative to ``root``'s parent's package dir)."""
    out: dict[str, list[str]] = {}
    for path in sorted(root.rglob("*.py")):
        src = path.read_text(encoding="utf-8")
        tree = ast.parse(src)
        scopes = _scopes(tree)
        rel = path.relative_to(root).as_posix()
        found = [(line, rules) for line, rules in literal_citations(tree, known).items()]
        for tok in tokenize.generate_tokens(io.StringIO(src).readline):
            if tok.type in (tokenize.COMMENT, tokenize.STRING):
                found.append((tok.start[0], citations(tok.string, known)))
        for line, rules in sorted(found, key=lambda x: x[0]):
            scope = _scope_at(scopes, line)
            place = f"{rel}:{scope}" if scope else rel
            for r in sorted(rules, key=rule_key):
                places = out.setdefault(r, [])
                if place not in places:
                    places.append(place)
    return out


# --------------------------------------------------------------------------- the tests
def _tag(number: str, known: set[str]) -> str | None:
    n = ALIASES.get(number, number)
    return n if n in known else None


def scan_scenarios(folder: Path, known: set[str], unknown: list[str] | None = None) -> dict[str, list[str]]:
    """rule -> scenario tests whose file lists it in ``rules``."""
    out: dict[str, list[str]] = {}
    for path in sorted(folder.glob("*.toml")):
        with open(path, "rb") as f:
            doc = tomllib.load(f)
        for x in doc.get("rules", []):
            r = _tag(str(x), known)
            if r is None:
                if unknown is not None:
                    where = path.relative_to(folder.parent.parent).as_posix()
                    unknown.append(f"{where}: rules: {x!r} is not a rule number")
                continue
            names = out.setdefault(r, [])
            if f"test_{path.stem}" not in names:
                names.append(f"test_{path.stem}")
    return out


def _is_rules_mark(node: ast.expr) -> bool:
    """``pytest.mark.rules`` or ``mark.rules``."""
    return isinstance(node, ast.Attribute) and node.attr == "rules" and (
        (isinstance(node.value, ast.Attribute) and node.value.attr == "mark")
        or (isinstance(node.value, ast.Name) and node.value.id == "mark"))


def rules_marks(exprs: Iterable[ast.expr]) -> list[str]:
    """The rule numbers of every ``pytest.mark.rules("1.1", ...)`` among ``exprs`` (decorators,
    or the items of a module's ``pytestmark``); an argument that is not a string is kept as its
    source text, so that it is reported as an unknown tag."""
    out: list[str] = []
    for e in exprs:
        if isinstance(e, ast.Call) and _is_rules_mark(e.func):
            out += [a.value if isinstance(a, ast.Constant) and isinstance(a.value, str) else ast.unparse(a)
                    for a in e.args]
    return out


def _module_marks(tree: ast.Module) -> list[str]:
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "pytestmark" for t in node.targets):
            value = node.value
            return rules_marks(value.elts if isinstance(value, (ast.List, ast.Tuple)) else [value])
    return []


def scan_python_tests(folder: Path, known: set[str], unknown: list[str] | None = None) -> dict[str, list[str]]:
    """rule -> ``test_*`` functions tagged with it: by a ``rules`` mark on the function, its
    class or its module, or by the function's name (``test_rule_26_2_2_...``)."""
    out: dict[str, list[str]] = {}
    for path in sorted(folder.rglob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        module_tags = _module_marks(tree)
        funcs: list[tuple[ast.FunctionDef | ast.AsyncFunctionDef, list[str]]] = []
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                funcs.append((node, module_tags))
            elif isinstance(node, ast.ClassDef):
                class_tags = module_tags + rules_marks(node.decorator_list)
                funcs += [(n, class_tags) for n in node.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
        for node, inherited in funcs:
            if not node.name.startswith("test_"):
                continue
            rules = set(name_citation(node.name, known))
            for x in inherited + rules_marks(node.decorator_list):
                r = _tag(x, known)
                if r is None:
                    if unknown is not None:
                        rel = path.relative_to(folder.parent).as_posix()
                        unknown.append(f"{rel}::{node.name}: rules mark {x!r} is not a rule number")
                else:
                    rules.add(r)
            for r in rules:
                names = out.setdefault(r, [])
                if node.name not in names:
                    names.append(node.name)
    return out


def collect(index: Path = INDEX, repo: Path = REPO) -> Coverage:
    rules = load_index(index)
    known = {r.number for r in rules}
    cited: dict[str, list[str]] = {}
    for part in CODE_PARTS:
        for r, places in scan_code(repo / "hostwcg_env" / part, known).items():
            cited.setdefault(r, []).extend(f"{part}/{x}" for x in places)
    tests: dict[str, list[str]] = {}
    unknown: list[str] = []
    for found in (scan_scenarios(repo / "tests" / "scenarios", known, unknown),
                  scan_python_tests(repo / "tests", known, unknown)):
        for r, names in found.items():
            tests.setdefault(r, []).extend(n for n in names if n not in tests.get(r, []))
    for names in tests.values():
        names.sort()
    return Coverage(rules, cited, tests, unknown)


# --------------------------------------------------------------------------- the report
def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("*", "")


def _short(text: str, width: int = TEXT_WIDTH) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1].rstrip() + "…"


def _some(items: list[str], limit: int, code: bool = True) -> str:
    shown = [f"`{x}`" if code else x for x in items[:limit]]
    more = len(items) - limit
    return ", ".join(shown) + (f" +{more} more" if more > 0 else "")


def render(cov: Coverage) -> str:
    n = len(cov.rules)
    direct = sum(1 for r in cov.rules if cov.cited.get(r.number))
    implemented = sum(1 for r in cov.rules if cov.is_implemented(r.number))
    tested = sum(1 for r in cov.rules if cov.is_tested(r.number))
    lines = [
        "# Rules coverage",
        "",
        "<!-- Generated by scripts/rules_coverage.py: do not edit by hand. -->",
        "",
        "Generated by `scripts/rules_coverage.py` from the rules index `docs/rules-index.toml` (every",
        "numbered rule of the comprehensive rules), the code and the tests.",
        "Regenerate with `python scripts/rules_coverage.py`; `python scripts/rules_coverage.py --check`",
        "(run by `tests/test_rules_coverage.py`) fails when this file is out of date.",
        "",
        "* **implemented in**: functions of the engine and the card code (`hostwcg_env/engine/`,",
        "  `hostwcg_env/cards/`) whose comments, docstrings or strings cite the rule number exactly",
        "  (`14.7` does not match inside `14.7.1`). A rule with no citation of its own counts as",
        "  implemented when one of its sub-rules is (\"via …\").",
        "* **tested by**: tests *tagged* with the rule, never a comment that mentions it: scenario",
        "  files in `tests/scenarios/` listing it in `rules = [...]` (test `test_<file stem>`),",
        "  `test_*` functions marked `@pytest.mark.rules(\"25.4.1.2\", ...)` (on the function, its",
        "  class or the module's `pytestmark`), and `test_*` functions named after it",
        "  (`test_rule_26_2_2_…`). A rule with sub-rules is not counted as tested through them.",
        "* Rules 1.1.1–1.1.3 are printed under 1.2 (docs/rulings.md A01); `1.2.1`–`1.2.3` are read as them.",
        "",
        f"**{n} rules, {implemented} implemented ({direct} cited directly, {implemented - direct} via sub-rules), "
        f"{tested} tested.**",
        "",
        f"Not implemented: {_list(cov.uncited())}.",
        "",
        f"Not tested: {_list(cov.untested())}.",
        "",
        "| rule | text | implemented in | tested by |",
        "|---|---|---|---|",
    ]
    for r in cov.rules:
        places = cov.cited.get(r.number, [])
        if places:
            impl = _some(places, MAX_PLACES)
        elif cov.implemented_via(r.number):
            impl = "via " + _some(cov.implemented_via(r.number), MAX_TESTS, code=False)
        else:
            impl = "**not cited**"
        tests = cov.tests.get(r.number, [])
        tcell = _some(tests, MAX_TESTS) if tests else "**none**"
        lines.append(f"| {r.number} | {_cell(_short(r.text))} | {impl} | {tcell} |")
    return "\n".join(lines) + "\n"


def _list(numbers: list[str]) -> str:
    return ", ".join(numbers) if numbers else "none"


def gaps(cov: Coverage) -> list[str]:
    out = []
    rules = cov.by_number()
    for n in cov.uncited():
        out.append(f"  not cited in hostwcg_env/engine or cards: {n} {_short(rules[n].text)}")
    for n in cov.untested():
        out.append(f"  no test: {n} {_short(rules[n].text)}")
    return out


def stale_diff(expected: str, path: Path = OUTPUT) -> list[str]:
    """Unified diff from the file on disk to what would be generated (empty if current)."""
    actual = path.read_text(encoding="utf-8") if path.is_file() else ""
    if actual == expected:
        return []
    return list(difflib.unified_diff(actual.splitlines(), expected.splitlines(),
                                     f"{path.name} (on disk)", f"{path.name} (generated)", lineterm=""))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="do not write; exit 1 if the file is out of date")
    ap.add_argument("--strict", action="store_true", help="with --check: also exit 1 if a rule lacks code or tests")
    ap.add_argument("--index", default=str(INDEX), help="the rules index (default docs/rules-index.toml)")
    ap.add_argument("--output", default=str(OUTPUT), help="the Markdown file (default docs/rules-coverage.md)")
    args = ap.parse_args(argv)
    cov = collect(Path(args.index))
    text = render(cov)
    out = Path(args.output)
    if not args.check:
        out.write_text(text, encoding="utf-8")
        print(f"wrote {out} ({len(cov.rules)} rules)")
        return 0
    status = 0
    if cov.unknown_tags:
        print(f"{len(cov.unknown_tags)} tag(s) name no rule:")
        print("\n".join("  " + x for x in cov.unknown_tags))
        status = 1
    diff = stale_diff(text, out)
    if diff:
        print(f"{out} is out of date; regenerate with: python scripts/rules_coverage.py")
        print("\n".join(diff[:40]) + ("\n..." if len(diff) > 40 else ""))
        status = 1
    else:
        print(f"{out} is up to date")
    problems = gaps(cov)
    if problems:
        print(f"{len(problems)} gap(s):")
        print("\n".join(problems))
        if args.strict:
            status = 1
    return status


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:  # output piped into head
        sys.exit(1)
