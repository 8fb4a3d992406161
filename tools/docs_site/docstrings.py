"""Griffe extension of the documentation site (mkdocs.yml): granular's docstrings are plain
text written for help(), which the Python API page renders as Markdown. Here, once the package
is loaded:
  - an attribute documented by a `#:` comment (on its line or the lines above) gets it as its
    docstring, as Sphinx reads them (griffe does not);
  - Sphinx roles (:func:`run`, :meth:`checkpoint`) become links to the object when it is
    documented, else code;
  - aligned "name   meaning" lists (run's arguments, Result's attributes) become Markdown
    lists instead of one run-on paragraph;
  - `<word>` outside code (point_<k>, "<dict>") is escaped, not taken for an HTML tag;
and every name in granular.__all__ must resolve: a name the sources or the _core.pyi stub
lack would otherwise be left off the page without a word, so it fails the build.
"""
import logging
import re

import griffe

_log = logging.getLogger("mkdocs.plugins.granular_docs")  # a warning fails `mkdocs --strict`

_COMMENT = re.compile(r"#:\s?(.*)$")
_ROLE = re.compile(r":(?:func|meth|class|attr|data|exc|mod):`~?([\w.]+)(?:\(\))?`")
_ITEM = re.compile(r"^( {0,3})([A-Za-z_][\w.]*)( {2,})(\S.*)$")  # 4 spaces in: code
_CODE = re.compile(r"(``.+?``|`[^`]+`)")


def _comment_docstring(attr):
    """The `#:` comment at the end of attr's line or the `#:` lines just above it; also at a
    class-level declaration (`case: Case`) that an assignment in __init__ took the place of."""
    if attr.lineno is None:
        return None
    lines = attr.lines_collection[attr.filepath]
    declaration = re.compile(rf"^\s*{re.escape(attr.name)}\s*[:=]")
    starts = [attr.lineno] + [k + 1 for k in range(attr.parent.lineno or 0,
                                                    attr.parent.endlineno or 0)
                              if attr.parent.is_class and declaration.match(lines[k])]
    for start in starts:
        match = _COMMENT.search(lines[start - 1])
        if match:
            return match.group(1)
        above, k = [], start - 2
        while k >= 0 and lines[k].lstrip().startswith("#:"):
            above.insert(0, _COMMENT.search(lines[k]).group(1))
            k -= 1
        if above:
            return "\n".join(above)
    return None


def _lists(text):
    """Blocks of two or more "name  meaning" lines (continuations indented to the meaning's
    column) as Markdown list items "- `name`: meaning"."""
    lines, out, k = text.split("\n"), [], 0
    while k < len(lines):
        items, j = [], k
        while j < len(lines) and (m := _ITEM.match(lines[j])):
            column = len(m.group(1)) + len(m.group(2)) + len(m.group(3))
            item = [m.group(4)]
            j += 1
            while j < len(lines) and lines[j].strip() and \
                    len(lines[j]) - len(lines[j].lstrip()) == column:
                item.append(lines[j].strip())
                j += 1
            items.append(f"- `{m.group(2)}`: " + " ".join(item))
        if len(items) >= 2:
            out += ([""] if out and out[-1].strip() else []) + items + [""]
            k = j
        else:
            out.append(lines[k])
            k += 1
    return "\n".join(out)


def _escape(text):
    """< and > outside code spans and indented code blocks as entities."""
    out, in_block, blank = [], False, True
    for line in text.split("\n"):
        in_block = line.startswith("    ") and (in_block or blank)
        blank = not line.strip()
        if not in_block:
            parts = _CODE.split(line)
            line = "".join(p if k % 2 else p.replace("<", "&lt;").replace(">", "&gt;")
                           for k, p in enumerate(parts))
        out.append(line)
    return "\n".join(out)


class PlainDocstrings(griffe.Extension):
    def on_package(self, *, pkg, **kwargs):
        if pkg.name != "granular":
            return
        for name in pkg.exports or []:
            name = str(name)
            try:
                member = pkg[name]
                if member.is_alias:
                    member.final_target  # resolves it, or raises
            except (KeyError, griffe.AliasResolutionError, griffe.CyclicAliasError):
                _log.warning(f"docs: granular.{name} is in granular.__all__ but neither "
                             "python/granular/*.py nor the build's _core.pyi stub defines it: "
                             "it would be missing from the Python API page")
        self._walk(pkg, pkg)

    def _walk(self, obj, pkg):
        for member in list(obj.members.values()):
            if member.is_alias:
                continue
            if member.is_attribute and member.docstring is None:
                text = _comment_docstring(member)
                if text:
                    member.docstring = griffe.Docstring(text, lineno=member.lineno,
                                                        parent=member)
            if member.docstring is not None:
                member.docstring.value = self._markdown(member.docstring.value, member, pkg)
            self._walk(member, pkg)
        if obj is pkg and obj.docstring is not None:
            obj.docstring.value = self._markdown(obj.docstring.value, obj, pkg)

    @staticmethod
    def _markdown(text, obj, pkg):
        def role(m):
            name = m.group(1)
            # the object's class first (:meth:`checkpoint` in Ensemble), then the package
            scopes = [obj if obj.is_class else obj.parent, pkg]
            for scope in scopes:
                if scope.is_class or scope is pkg:
                    if name in scope.members:
                        return f"[`{name}`][{scope.path}.{name}]"
            return f"`{name}`"
        return _escape(_lists(_ROLE.sub(role, text)))
