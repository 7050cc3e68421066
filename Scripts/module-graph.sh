#!/usr/bin/env bash
# Prints geophoto's module graph, read from Package.swift, as a Mermaid `graph TD` block: every
# `.target`, `.executableTarget` and `.systemLibrary` with the modules it depends on. README's
# Architecture section carries this output between `<!-- module-graph:begin -->` and
# `<!-- module-graph:end -->`; run it again after changing Package.swift and paste the output.
#
#   Scripts/module-graph.sh [Package.swift]
#
# An arrow A --> B says A depends on B. An arrow another path already implies (A --> B --> C
# makes A --> C) is left out, so the layers show. The C wrappers (`CGeoPhoto*`, one Debian
# library each) and the developer tools are grouped. Nothing is compiled: the declarations are
# read as text.
set -euo pipefail
package=${1:-"$(dirname "$0")/../Package.swift"}

python3 - "$package" <<'PY'
import re
import sys

text = open(sys.argv[1], encoding="utf-8").read()
# Line comments out (a "//" after a letter or a colon, as in a URL, stays).
text = re.sub(r"(^|[\s,(\[])//[^\n]*", r"\1", text, flags=re.M)


def closing(text, start, opening, closer):
    """The index just past the bracket that closes the one opened before `start`."""
    depth, i = 1, start
    while depth:
        depth += {opening: 1, closer: -1}.get(text[i], 0)
        i += 1
    return i


kinds = {"target": "library", "executableTarget": "tool", "systemLibrary": "c"}
modules = []  # (name, kind, dependencies), in Package.swift's order
end = 0
for match in re.finditer(r"\.(target|executableTarget|systemLibrary)\(", text):
    if match.start() < end:
        continue  # a `.target(name:)` inside another declaration's dependencies
    end = closing(text, match.end(), "(", ")")
    body = text[match.end() : end - 1]
    name = re.search(r'name:\s*"([^"]+)"', body).group(1)
    dependencies = []
    deps = re.search(r"dependencies:\s*\[", body)
    if deps:
        listed = body[deps.end() : closing(body, deps.end(), "[", "]") - 1]
        # `.product(name: "X", package: "P")` is X; conditions name no modules.
        listed = re.sub(r'(package|condition):\s*("[^"]*"|\.\w+\([^)]*\))', "", listed)
        dependencies = re.findall(r'"([^"]+)"', listed)
    modules.append((name, kinds[match.group(1)], dependencies))

direct = {name: deps for name, _, deps in modules}


def reachable(start, skip):
    """Every module reachable from `start` without taking the edge start --> skip."""
    seen, stack = set(), [d for d in direct[start] if d != skip]
    while stack:
        m = stack.pop()
        if m in seen:
            continue
        seen.add(m)
        stack.extend(direct.get(m, []))
    return seen


edges = [(a, b) for a, _, deps in modules for b in deps if b not in reachable(a, b)]


def ident(name):
    # Mermaid ids: no hyphens; the node's label keeps the module's name.
    return name.replace("-", "_")


def node(name):
    return name if ident(name) == name else f'{ident(name)}["{name}"]'


# The executable `geophoto` is the product; the other executables are developer tools.
tools = [n for n, k, _ in modules if k == "tool" and n != "geophoto"]
fixtures = [n for n, _, _ in modules if n == "GeoPhotoFixtures"]
linked = {m for edge in edges for m in edge}
lines = ["```mermaid", "graph TD"]
# The grouped modules are declared in their groups; the others appear with their arrows, and
# a module with none (GeoPhotoClient) on a line of its own.
for name, k, _ in modules:
    if name not in linked and ((k == "library" and name not in fixtures) or name == "geophoto"):
        lines.append(f"  {node(name)}")
lines.append('  subgraph dev ["developer tools"]')
for name in fixtures + tools:
    lines.append(f"    {node(name)}")
lines.append("  end")
lines.append('  subgraph c ["C libraries (Debian packages)"]')
for name, k, _ in modules:
    if k == "c":
        lines.append(f"    {node(name)}")
lines.append("  end")
for a, b in edges:
    lines.append(f"  {ident(a)} --> {ident(b)}")
lines.append("```")
print("\n".join(lines))
PY
