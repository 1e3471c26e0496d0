"""The ``skillsmith new`` wizard: questionary prompts on the terminal, drawn on stderr.

Each answer is checked as it is typed with the validators ``check`` uses, so the wizard never
accepts what ``new NAME`` would refuse. questionary is imported only here.
"""

from __future__ import annotations

import sys
from pathlib import Path

from skillsmith import targets
from skillsmith.scaffold.answers import (
    DEFAULT_KIND,
    DEFAULT_SCRIPTS,
    KINDS,
    SKILL_TEMPLATE,
    license_problem,
    script_problem,
    spdx_license,
)
from skillsmith.scaffold.render import template_available


def split_scripts(text: str) -> list[str]:
    return [part for part in text.replace(",", " ").split() if part]


def scripts_problem(text: str) -> str | None:
    scripts = split_scripts(text)
    if not scripts:
        return "name at least one script, e.g. main.py"
    for script in scripts:
        problem = script_problem(script)
        if problem:
            return problem
    stems = [s[:-3] for s in scripts]
    if len(set(stems)) != len(stems):
        return "script names must be unique (without their extension)"
    return None


def folder_problem(dest: str, name: str) -> str | None:
    root = Path(dest) / name
    if root.is_dir() and any(root.iterdir()):
        return f"{root} exists and is not empty"
    return None


def validator(*checks):
    """A questionary validator: True, or the first problem a check reports."""

    def validate(text: str):
        for check in checks:
            problem = check(text)
            if problem:
                return problem
        return True

    return validate


def ask(options: dict) -> dict | None:
    """Ask for the answers ``new`` needs, starting from *options*; None when the user declines."""
    import questionary
    from prompt_toolkit.output import create_output

    out = {"output": create_output(stdout=sys.stderr)}
    dest = options["dest"]
    choices = [t for t in targets.new_targets() if template_available(targets.get(t).new.template)]
    default = options["target"] if options["target"] in choices else None
    target = questionary.select("Target host:", choices=choices, default=default, **out).unsafe_ask()
    scaffold = targets.get(target).new
    name = questionary.text(
        f"{scaffold.identifier}:",
        validate=validator(
            scaffold.name_problem,
            lambda t: None if options["force"] else folder_problem(dest, t),
        ),
        **out,
    ).unsafe_ask()
    description = questionary.text(
        "Description (what it does and when to use it):", default=options["description"] or "",
        validate=validator(scaffold.description_problem), **out,
    ).unsafe_ask()
    answers = dict(options, name=name, description=description, target=target)
    if scaffold.template == SKILL_TEMPLATE:  # the questions only the skill template asks
        answers["license"] = spdx_license(questionary.text(
            "License (SPDX id, empty for none):", default=options["license"], validate=validator(one_line, license_problem),
            **out,
        ).unsafe_ask())
        answers["author"] = questionary.text(
            "Author (empty for none):", default=options["author"], validate=validator(one_line), **out,
        ).unsafe_ask()
        scripts = questionary.text(
            "Scripts (file names ending in .py or .sh, separated by spaces):",
            default=" ".join(options["scripts"] or DEFAULT_SCRIPTS), validate=validator(scripts_problem), **out,
        ).unsafe_ask()
        answers["scripts"] = split_scripts(scripts)
        if all(script.endswith(".py") for script in answers["scripts"]):  # a shell script can only be a counter
            answers["kind"] = questionary.select(
                "Script kind (seed 000 §8):", choices=[questionary.Choice(f"{kind}: {what}", value=kind)
                                                       for kind, what in KINDS.items()],
                default=options.get("kind") or DEFAULT_KIND, **out,
            ).unsafe_ask()
        else:
            answers["kind"] = DEFAULT_KIND
        answers["examples"] = questionary.confirm("Include example references/ and assets/?", default=options["examples"], **out).unsafe_ask()
        answers["json"] = questionary.confirm("Scripts accept --json?", default=options["json"], **out).unsafe_ask()
        answers["verifier"] = questionary.confirm(
            "Add a staleness verifier (--offline/--live)?", default=options["verifier"], **out,
        ).unsafe_ask()
    print(summary(answers), file=sys.stderr)
    if not questionary.confirm("Create it?", default=True, **out).unsafe_ask():
        return None
    return answers


def one_line(text: str) -> str | None:
    return "one line of at most 200 characters" if "\n" in text or len(text) > 200 else None


def summary(answers: dict) -> str:
    root = Path(answers["dest"]) / answers["name"]
    rows = [("folder", str(root)), ("name", answers["name"]), ("description", answers["description"]),
            ("target", answers["target"])]
    if targets.get(answers["target"]).new.template == SKILL_TEMPLATE:
        rows += [
            ("license", answers["license"] or "(none)"), ("author", answers["author"] or "(none)"),
            ("scripts", ", ".join(answers["scripts"])), ("kind", answers.get("kind") or DEFAULT_KIND), ("examples", "yes" if answers["examples"] else "no"),
            ("--json", "yes" if answers["json"] else "no"), ("verifier", "yes" if answers["verifier"] else "no"),
        ]
    width = max(len(k) for k, _ in rows)
    return "\nSummary:\n" + "\n".join(f"  {k.ljust(width)}  {v}" for k, v in rows) + "\n"
