r"""MkDocs hooks of the documentation site (mkdocs.yml, docs/documentation-site.md).

At build time, as virtual files (nothing is written into docs/):
  index.md                 README.md, the home page
  reference/cli.md         `granular --help` and each command's `--help`
  reference/case-keys.md   the case keys, from the JSON Schema `granular schema` prints
  reference/python.md      the Python API (mkdocstrings' `::: granular`, read by griffe from
                           the build's package and its _core.pyi stub)
and every page, written for GitHub, is adapted to Python-Markdown: relative links to files
outside docs/ (README.md, cases/, tools/, sources) are rewritten, lists re-indented, `a\|b`
in a table's code unescaped.

Environment: GRANULAR_CLI (default build/granular), the CLI to ask; GRANULAR_DOCS_SCHEMA, a
schema file to render instead of running `granular schema` (tests of the renderer:
tools/docs_site/sample_schema.json). Any failure fails the build: no page is left out quietly.
"""
import json
import os
import posixpath
import re
import subprocess

from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File

# where each virtual page's text comes from in the repository: links in it are relative there
_ORIGIN = {}


def _root(config):
    return os.path.dirname(os.path.abspath(config.config_file_path))


def _cli(config):
    cli = os.environ.get("GRANULAR_CLI", "build/granular")
    return cli if os.path.isabs(cli) else os.path.join(_root(config), cli)


def _ask(cli, *args):
    """The CLI's stdout for args; a PluginError naming the command and its error otherwise."""
    command = " ".join(("granular",) + args)
    try:
        r = subprocess.run([cli, *args], capture_output=True, text=True, timeout=120)
    except OSError as e:
        raise PluginError(f"docs: `{command}`: cannot run {cli} ({e.strerror}): build the CLI "
                          "first (make build) or point GRANULAR_CLI at one") from None
    if r.returncode != 0:
        first = (r.stderr.strip().splitlines() or ["no message"])[0]
        raise PluginError(f"docs: `{command}` failed with exit code {r.returncode} ({cli}): "
                          f"{first}")
    return r.stdout


def _fence(text):
    return "```text\n" + text.rstrip("\n") + "\n```\n"


def cli_page(cli):
    """The top-level help and each command's; the commands are read from the help's
    "commands:" list, so a new command gets its section without a change here."""
    top = _ask(cli, "--help")
    block = re.search(r"^commands:\n((?:[ \t]+\S.*\n?)+)", top, re.M)
    commands = re.findall(r"^  (\w[\w-]*)\s", block.group(1), re.M) if block else []
    if not commands:
        raise PluginError(f"docs: `granular --help` ({cli}) lists no commands under "
                          "\"commands:\"")
    # the version alone: the rest of the line describes the machine that built the CLI
    version = " ".join(_ask(cli, "--version").split()[:2])
    out = ["# Command-line reference\n",
           f"Generated from the help of the CLI the site was built with, `{version}`. Case "
           "files: [cases.md](../cases.md); the keys of each model: [case keys](case-keys.md)."
           "\n",
           "## granular\n", _fence(top)]
    for c in commands:
        out += [f"## granular {c}\n", _fence(_ask(cli, c, "--help"))]
    return "\n".join(out)


def _schema(cli):
    path = os.environ.get("GRANULAR_DOCS_SCHEMA")
    if path:
        try:
            with open(path, encoding="utf-8") as f:
                text, source = f.read(), path
        except OSError as e:
            raise PluginError(f"docs: GRANULAR_DOCS_SCHEMA={path}: {e.strerror}") from None
    else:
        try:
            text, source = _ask(cli, "schema"), "`granular schema`"
        except PluginError as e:
            raise PluginError(f"{e} (to render a schema file instead: "
                              "GRANULAR_DOCS_SCHEMA=FILE)") from None
    try:
        return json.loads(text), source
    except ValueError as e:
        raise PluginError(f"docs: {source}: not JSON: {e}") from None


def _cell(text):
    """Text safe in a Markdown table cell (no HTML, no column breaks)."""
    text = str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return text.replace("|", "\\|").replace("\n", " ")


def _number(x):
    """1e6 as 1000000, not 1000000.0 (JSON does not tell 1e6 from 1000000)."""
    return int(x) if isinstance(x, float) and x.is_integer() and abs(x) < 1e15 else x


def _code(value):
    if isinstance(value, float):
        value = _number(value)
    text = json.dumps(value, ensure_ascii=False)
    return "`" + text.replace("|", "\\|") + "`"


class _Schema:
    """The case keys of one schema, as rows: key path, type, required, default, allowed values
    and bounds, description."""

    def __init__(self, schema, source):
        self.schema, self.source = schema, source

    def resolve(self, node, depth=0):
        """node with its "$ref" (#/$defs/...) followed."""
        while isinstance(node, dict) and "$ref" in node:
            ref = node["$ref"]
            if not ref.startswith("#/") or depth > 50:
                raise PluginError(f"docs: {self.source}: cannot follow $ref {ref!r}")
            target = self.schema
            for part in ref[2:].split("/"):
                part = part.replace("~1", "/").replace("~0", "~")
                if not isinstance(target, dict) or part not in target:
                    raise PluginError(f"docs: {self.source}: $ref {ref!r} names nothing")
                target = target[part]
            node, depth = target, depth + 1
        if not isinstance(node, dict):
            raise PluginError(f"docs: {self.source}: a schema that is not an object: {node!r}")
        return node

    def type_of(self, node):
        node = self.resolve(node)
        values = [node["const"]] if "const" in node else node.get("enum")
        if values and "type" not in node:  # a choice: the type of its values
            names = {str: "string", bool: "boolean", int: "integer", float: "number"}
            return " or ".join(dict.fromkeys(names.get(type(v), "null") for v in values))
        for key in ("oneOf", "anyOf"):
            if key in node and "type" not in node:
                return " or ".join(dict.fromkeys(self.type_of(n) for n in node[key]))
        t = node.get("type", "any")
        types = t if isinstance(t, list) else [t]
        if "array" in types and isinstance(node.get("items"), dict):
            item = self.type_of(node["items"])
            types = [f"array of {item}" if x == "array" and item != "any" else x for x in types]
        return " or ".join(types)

    @staticmethod
    def bounds(node, prefix=""):
        out = []
        for key, sign in (("minimum", "≥"), ("exclusiveMinimum", ">"), ("maximum", "≤"),
                          ("exclusiveMaximum", "<")):
            if key in node:
                out.append(f"{prefix}{sign} {_number(node[key])}")
        if "minItems" in node:
            out.append(f"at least {node['minItems']} item(s)")
        if "maxItems" in node:
            out.append(f"at most {node['maxItems']} item(s)")
        if "enum" in node:
            out.append(prefix + "one of " + ", ".join(_code(v) for v in node["enum"]))
        if "const" in node:
            out.append(prefix + _code(node["const"]))
        return out

    def keys(self, node, path):
        """The properties of an object schema and the required ones, with those of its allOf,
        anyOf and oneOf parts; a keyword that could add keys this page does not show fails."""
        for keyword in ("patternProperties", "if", "dependentSchemas"):
            if keyword in node:
                raise PluginError(f"docs: {self.source}: {path or 'a model'}: \"{keyword}\" is "
                                  "not rendered (tools/docs_site/hooks.py)")
        props, required = dict(node.get("properties", {})), set(node.get("required", ()))
        for keyword in ("allOf", "anyOf", "oneOf"):
            for part in node.get(keyword, []):
                more, needed = self.keys(self.resolve(part), path)
                for name, sub in more.items():
                    props.setdefault(name, sub)
                required |= needed if keyword == "allOf" else set()
        return props, required

    def rows(self, node, path=""):
        """(key path, schema, required) of every key under node, depth first, in schema
        order."""
        props, required = self.keys(self.resolve(node), path)
        for name, sub in props.items():
            yield path + name, sub, name in required
            yield from self.children(sub, path + name)
        extra = self.resolve(node).get("additionalProperties")
        if isinstance(extra, dict):
            yield path + "*", extra, False
            yield from self.children(extra, path + "*")

    def children(self, sub, key):
        """The keys inside an object-valued key, or inside each element of an array of
        objects."""
        sub = self.resolve(sub)
        if self.keys(sub, key)[0] or isinstance(sub.get("additionalProperties"), dict):
            yield from self.rows(sub, key + "/")
        if isinstance(sub.get("items"), dict):
            yield from self.children(sub["items"], key + "/i")

    def table(self, model_node):
        lines = ["| key | type | required | default | allowed | description |",
                 "|---|---|---|---|---|---|"]
        for key, sub, required in self.rows(model_node):
            node = self.resolve(sub)
            allowed = self.bounds(node)
            if isinstance(node.get("items"), dict):
                allowed += self.bounds(self.resolve(node["items"]), "each ")
            default = _code(node["default"]) if "default" in node else ""
            lines.append(f"| `{key}` | {_cell(self.type_of(node))} | "
                         f"{'yes' if required else ''} | {default} | {'; '.join(allowed)} | "
                         f"{_cell(node.get('description', ''))} |")
        return "\n".join(lines) + "\n"


def case_keys_page(schema, source):
    s = _Schema(schema, source)
    models = []
    for alternative in schema.get("oneOf", []) if isinstance(schema, dict) else []:
        node = s.resolve(alternative)
        model = node.get("properties", {}).get("model", {}).get("const")
        if not isinstance(model, str):
            raise PluginError(f"docs: {source}: a oneOf alternative without \"model\": "
                              "{\"const\": ...}")
        models.append((model, node))
    if not models:
        raise PluginError(f"docs: {source}: no models (expected \"oneOf\": "
                          "[{\"$ref\": \"#/$defs/<model>\"}, ...])")
    about = schema.get("description")
    out = ["# Case keys\n",
           f"Generated from {source}, the JSON Schema of the case files (`granular schema "
           "[MODEL]` prints it for editors).\n",
           f"> {_cell(about)}\n" if about else "",
           "One section per model; a key `a/b` is `b` inside the object `a`, `a/i/b` is `b` "
           "in every element of the array `a`, `*` any name. What each key means, with its "
           "units: [cases.md](../cases.md) and the model's page.\n",
           "| model | keys |", "|---|---|"]
    out += [f"| [`{m}`](#{m}) | {sum(1 for _ in s.rows(n))} |" for m, n in models]
    out.append("")
    for model, node in models:
        out.append(f"## {model}\n")  # its anchor is the name (GitHub-style slugs: mkdocs.yml)
        if node.get("description"):
            out.append(_cell(node["description"]) + "\n")
        out.append(s.table(node))
    return "\n".join(out)


API_PAGE = """# Python API

The module `granular` (docs: [python.md](../python.md)), read from the build's package
(`BUILD/python/granular`: `python/granular/` and the generated `_core.pyi` stub) without
importing it.

::: granular
"""


def on_config(config):
    """The API page needs the build's package with its stub: say so, rather than griffe's
    "could not collect" later."""
    handler = config.plugins["mkdocstrings"].config.handlers.get("python", {})
    for path in handler.get("paths", []):
        stub = os.path.join(_root(config), path, "granular", "_core.pyi")
        if not os.path.isfile(stub):
            raise PluginError(f"docs: no {stub}: build the Python module first (make build) "
                              "or point GRANULAR_PYTHON_DIR at the folder holding granular/")
    return config


def on_files(files, config):
    root = _root(config)
    with open(os.path.join(root, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    cli = _cli(config)
    schema, source = _schema(cli)
    pages = {"index.md": (readme, "README.md"),
             "reference/cli.md": (cli_page(cli), "docs/reference/cli.md"),
             "reference/case-keys.md": (case_keys_page(schema, source),
                                        "docs/reference/case-keys.md"),
             "reference/python.md": (API_PAGE, "docs/reference/python.md")}
    for uri, (content, origin) in pages.items():
        if files.get_file_from_path(uri) is not None:
            raise PluginError(f"docs: docs/{uri} exists, but the site generates it")
        _ORIGIN[uri] = origin
        files.append(File.generated(config, uri, content=content))
    # the theme's adjustments (mkdocs.yml's extra_css), kept beside the hooks, not in docs/
    files.append(File.generated(config, "assets/granular.css",
                                abs_src_path=os.path.join(os.path.dirname(__file__), "site.css")))
    return files


_MARKER = re.compile(r"^( *)([-*+]|(\d{1,9})[.)])( +)(\S.*)$")
_FENCE = re.compile(r"^ *(`{3,}|~{3,})")


def _shift(line, delta):
    """line moved delta columns right (left: never past its first character)."""
    if delta >= 0:
        return " " * delta + line
    return line[min(-delta, len(line) - len(line.lstrip(" "))):]


def gfm_lists(markdown):
    """Lists as GitHub reads them (CommonMark), indented for Python-Markdown, which wants a list
    item's content 4 spaces in and a blank line between a paragraph and a list: the docs indent
    continuations, nested lists and fenced blocks in items by the marker's width (2 for "- ")
    and start lists right under a paragraph's last line."""
    # items: the open list items' (source content column, output content column, ordered)
    out, items, fence, text = [], [], None, False
    loose = False  # a blank line since the last item began: its text is a later paragraph
    for line in markdown.split("\n"):
        if fence:  # inside a fenced block: shifted as its opening line was
            out.append(_shift(line, fence[1]))
            if line.strip() and line.strip() == fence[0][0] * len(line.strip()) and \
                    len(line.strip()) >= len(fence[0]):
                fence = None
            continue
        if not line.strip():
            out.append(line)
            text, loose = False, loose or bool(items)
            continue
        indent = len(line) - len(line.lstrip(" "))
        m = _MARKER.match(line)
        # an ordered list interrupts a paragraph only from 1 (CommonMark), and a marker 4 or
        # more columns past the item's content is code
        if m and text and not items and m.group(3) not in (None, "1"):
            m = None
        if m and indent >= (items[-1][0] if items else 0) + 4:
            m = None
        starts_block = re.match(r" *(#|\||>|```|~~~)", line)
        if m:
            in_list, sibling, ordered = bool(items), None, m.group(3) is not None
            while items and items[-1][0] > indent:
                sibling = items.pop()
            # a list or an item right after a paragraph's last line; "-" after "1." (or the
            # other way round) starts another list, which Python-Markdown would merge into the
            # first unless a block stands between them
            if sibling and sibling[2] != ordered:
                out += ["", "<!-- another list -->", ""]
            elif text and (loose or not in_list):
                out.append("")
            loose = False
            at = items[-1][1] if items else 0
            out.append(" " * at + m.group(2) + " " + m.group(5))
            items.append((indent + len(m.group(2)) + len(m.group(4)), at + 4, ordered))
            text = True
            continue
        if items and text and indent < items[-1][0] and not starts_block:
            out.append(" " * items[-1][1] + line.lstrip())  # a lazy continuation line
            continue
        while items and items[-1][0] > indent:
            items.pop()
        delta = items[-1][1] - items[-1][0] if items else 0
        out.append(_shift(line, delta))
        f = _FENCE.match(line)
        if f:
            fence = (f.group(1), delta)
        text = not (f or starts_block)
    return "\n".join(out)


_CODE_SPAN = re.compile(r"`[^`]+`")
_LINK = re.compile(r"(!?)\[([^\]\n]*)\]\(([^()\s]+)\)")


def on_page_markdown(markdown, page, config, files):
    """Relative links are resolved from the page's place in the repository: into docs/ they
    become site links; outside it, a link to repo_url's file when mkdocs.yml sets repo_url,
    else the path as code (the site holds no copy of README.md, cases/ or src/)."""
    uri = page.file.src_uri
    docs = os.path.relpath(config.docs_dir, _root(config)).replace(os.sep, "/")
    origin = _ORIGIN.get(uri, f"{docs}/{uri}")

    def rewrite(m):
        bang, text, target = m.groups()
        if re.match(r"^([a-z][a-z0-9+.-]*:|#|/)", target, re.I):
            return m.group(0)
        path, _, anchor = target.partition("#")
        resolved = posixpath.normpath(posixpath.join(posixpath.dirname(origin), path))
        # README.md is the home page; docs/x.md is x.md
        pages = {o: u for u, o in _ORIGIN.items()}
        if resolved in pages or resolved.startswith(docs + "/"):
            target = pages.get(resolved) or resolved[len(docs) + 1:]
            site = posixpath.relpath(target, posixpath.dirname(uri) or ".")
            return f"{bang}[{text}]({site}{'#' + anchor if anchor else ''})"
        if config.repo_url:
            kind = "raw" if bang else "blob"
            url = f"{config.repo_url.rstrip('/')}/{kind}/HEAD/{resolved}"
            return f"{bang}[{text}]({url}{'#' + anchor if anchor else ''})"
        if text.strip("`") in (resolved, path, posixpath.basename(resolved)):
            return f"`{resolved}`"
        return f"{text} (`{resolved}`)"

    out, fenced = [], False
    for line in markdown.split("\n"):
        if _FENCE.match(line):
            fenced = not fenced
        if not fenced:
            line = _LINK.sub(rewrite, line)
            if line.lstrip().startswith("|"):
                # GitHub's tables want `a\|b` in code, Python-Markdown's `a|b` (it shows the \)
                line = _CODE_SPAN.sub(lambda m: m.group(0).replace("\\|", "|"), line)
        out.append(line)
    return gfm_lists("\n".join(out))
