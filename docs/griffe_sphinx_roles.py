"""A griffe extension for the API reference site (``mkdocs.yml``: the python handler's
``extensions``): the docstrings are written with Sphinx roles (:class:`Game`,
:func:`~onered.rules.judge`) that Markdown would show as they are typed, ``:class:`` and
all. Each role becomes a Markdown code span of the name it shows (the last part after a
``~``, the title of ``title <target>``), and the reStructuredText escape after a role
(``:meth:`play`\\ s``) is dropped, before mkdocstrings renders the docstring.

Code spans rather than cross-references: a role's target is often relative (``Game``), and
an unresolved reference would fail the ``--strict`` build.
"""

from __future__ import annotations

import re
from typing import Any

from griffe import Extension, Object

#: A Sphinx role (``:class:`x```, ``:py:meth:`~a.b```, ``:func:`title <target>```) and an
#: escaped space right after it.
ROLE = re.compile(r":(?:py:)?[a-z]+:`(?P<tilde>~?)(?P<text>[^`]+)`(?:\\ )?")


def _shown(match: re.Match[str]) -> str:
    """The Markdown code span a role shows."""
    text = match["text"].strip()
    titled = re.fullmatch(r"(?P<title>.+?)\s*<(?P<target>[^>]+)>", text)
    if titled:
        text = titled["title"]
    elif match["tilde"]:
        text = text.rsplit(".", 1)[-1]
    return f"`{text}`"


def plain(docstring: str) -> str:
    """``docstring`` with its Sphinx roles as Markdown code spans."""
    return ROLE.sub(_shown, docstring)


class SphinxRoles(Extension):
    """Rewrites every object's docstring once the package is loaded."""

    def on_object(self, *, obj: Object, **kwargs: Any) -> None:
        """Runs on each object (module, class, function, attribute) of the tree."""
        if obj.docstring is not None:
            obj.docstring.value = plain(obj.docstring.value)
