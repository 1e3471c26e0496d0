"""Python fixes: one libcst parse, every selected codemod, re-verify, encode as the original was."""

from __future__ import annotations

import re
import sys
from typing import Any

from skillsmith.fix.codegen import ModuleCode
from skillsmith.fix.context import CONTEXT_KEY, FixContext
from skillsmith.fix.engine import FileFix, Fixer, Unfixable, held_lines, load_fixers, rewrites
from skillsmith.model.sourcefile import EncodeError, SourceFile

# -- Python ----------------------------------------------------------------------------------


def transform(script, fixers: list[Fixer], out: FileFix, fix_context: FixContext) -> bytes:
    """Parse once with libcst, run each codemod, re-verify, encode as the original was.

    *script* is the checked ``Script``: its ``ast`` parse (made by the check) tells whether the
    file is valid for the running Python. *fix_context* (the findings to answer, the worked
    invocations) is in ``context.scratch[CONTEXT_KEY]`` for the codemods; a codemod whose
    change rewrites a line of a suppressed finding of its rules is undone. A file libcst could
    crash on (:func:`risky`) goes through libcst in a forked child: a crash or a time-out skips
    that file, not the run.
    """
    f = script.file
    text = f.text  # engine.refuse_text has made sure it decodes and has one line ending style
    feature = sys.version_info[:2]
    problem = script.py[1]
    if problem is not None:
        raise Unfixable(f"does not parse with Python {feature[0]}.{feature[1]}: {problem.message} "
                        f"(line {problem.line})")
    if risky(text, script.py[0]):
        from skillsmith import forked

        try:
            new_text, applied, fixed_rules = forked.call(_contained_codemods, script, fixers, out.rules, fix_context,
                                                         timeout=LIBCST_SECONDS)
        except forked.Failed as why:
            raise Unfixable(f"libcst failed on it: {why}") from None
        if applied is None:
            raise Unfixable(new_text)
    else:
        new_text, applied, fixed_rules = codemods(script, fixers, out.rules, fix_context)
    out.applied.extend(applied)
    out.fixed_rules |= fixed_rules
    if new_text == text:
        return f.data
    try:
        new_data = f.encode(new_text.replace("\r\n", "\n") if f.newline == "\r\n" else new_text)
    except EncodeError as exc:
        raise Unfixable(f"{exc}; left unchanged") from None
    # the fixed file's one parse: it proves the result valid, and the check after the fix reuses it
    fixed = SourceFile.from_bytes(f.path, f.rel, new_data, f.mode)
    if fixed.text is None:
        raise Unfixable("the fixed file would not be decodable text; left unchanged")
    problem = fixed.python_parse[1]
    if problem is not None:
        raise Unfixable(f"the fixed file would not parse ({problem.message}, line {problem.line}); left unchanged")
    out.new_file = fixed
    return new_data


#: a file this large, or whose libcst tree would be this deep, goes through libcst in a forked child
RISKY_BYTES = 256 * 1024
RISKY_DEPTH = 100
#: how long the libcst pass over one risky file may take
LIBCST_SECONDS = 120.0


def risky(text: str, module) -> bool:
    """Whether libcst could take the process down on *text*: its native parser overflows the
    stack on deeply nested code (the process dies of SIGSEGV), and it is slow on huge files.

    Real scripts are far from the limits: the deepest of 5,874 public skill scripts has a
    libcst depth of 49, while ``a and a and ...`` makes libcst recurse out at about 1,000
    terms and crash at about 10,000.
    """
    if len(text) > RISKY_BYTES:
        return True
    return module is not None and libcst_depth_bound(module) > RISKY_DEPTH and libcst_depth(module) > RISKY_DEPTH


def libcst_depth_bound(module) -> int:
    """An upper bound of :func:`libcst_depth`, from the walk the check made of *module* (its facts).

    The walk is breadth-first, so its last node is one of the deepest of the ``ast``; a node's
    libcst depth adds the extra levels of the ``BoolOp`` chains above it, at most those of all
    of them. Real scripts are far below :data:`RISKY_DEPTH`, so the exact depth (a walk of its
    own) is rarely needed.
    """
    import ast

    from skillsmith.lang import python

    facts = python.facts(module)
    deepest, at = 1, len(facts.nodes) - 1
    parents = facts.parents
    while at >= 0:
        deepest += 1
        at = parents[at]
    return deepest + sum(len(node.values) - 2 for node in facts.by_type.get(ast.BoolOp, ()) if len(node.values) > 2)


def libcst_depth(module) -> int:
    """How deep libcst's tree of *module* would be, from its ``ast``: as deep as the ``ast``,
    but ``a and b and c`` is a chain of binary operations in libcst, one ``BoolOp`` in ``ast``."""
    import ast

    node_type, bool_op = ast.AST, ast.BoolOp
    deepest = 0
    todo = [(module, 1)]
    pop, push = todo.pop, todo.append
    while todo:  # the children as ast.iter_child_nodes gives them, without its generators (a third of the time)
        node, depth = pop()
        if type(node) is bool_op and len(node.values) > 2:
            depth += len(node.values) - 2
        if depth > deepest:
            deepest = depth
        depth += 1
        for name in node._fields:
            value = getattr(node, name, None)
            if isinstance(value, list):
                for item in value:
                    if isinstance(item, node_type):
                        push((item, depth))
            elif isinstance(value, node_type):
                push((value, depth))
    return deepest


def _contained_codemods(script, fixers: list[Fixer], rules: set[str], fix_context: FixContext):
    """:func:`codemods` in a forked child: why the file cannot be fixed comes back as (reason, None, None)."""
    try:
        return codemods(script, fixers, rules, fix_context)
    except Unfixable as why:
        return str(why), None, None


def codemods(script, fixers: list[Fixer], rules: set[str], fix_context: FixContext) -> tuple[str, list[str], set[str]]:
    """(new text, the fixers that changed something, the rules they fixed): one libcst parse of
    the script, each codemod on the previous one's tree, then the imports they asked for.

    Raises :class:`Unfixable` when libcst cannot parse, round-trip or write back the file
    (``RecursionError`` on deep code included), or a codemod fails.
    """
    import libcst as cst
    from libcst.codemod import CodemodContext

    f = script.file
    text = f.text
    applied: list[str] = []
    fixed_rules: set[str] = set()
    try:
        tree = cst.parse_module(text)
    except Exception as exc:  # ParserSyntaxError and libcst's own limits
        raise Unfixable(f"libcst cannot parse it: {type(exc).__name__}") from None
    # every rendering of this file's trees shares the code of the statements no codemod replaced
    module_code = ModuleCode()
    try:
        round_trips = module_code.code(tree) == text
    except RecursionError:
        raise Unfixable("libcst cannot write it back: nested too deeply") from None
    if not round_trips:
        raise Unfixable("libcst does not round-trip this file byte for byte")
    # one context for the file: the imports every codemod asks for are added once, at the end
    context = CodemodContext(filename=str(f.path), full_module_name=None)
    context.scratch[PARSED_KEY] = (text, script.py[0])  # the check's ast parse, for the codemods' facts
    evidence = vars(script).get("py_evidence")  # the check's facts of the text as it is, when its rules made them
    if evidence is not None:
        context.scratch[FACTS_KEY] = evidence
    context.scratch[CONTEXT_KEY] = fix_context
    context.scratch[CODE_KEY] = module_code
    for fx in fixers:
        keep = held_lines(fix_context, fx)
        saved = {k: list(v) if isinstance(v, list) else v for k, v in context.scratch.items()} if keep else None
        try:
            new_tree, changed = run_codemod(fx.impl, context, tree)
            if keep and changed is not False and new_tree is not tree \
                    and rewrites(text, module_code.code(new_tree), keep):
                context.scratch.clear()
                context.scratch.update(saved)  # nor the imports it asked for
                continue  # it rewrote a line of a suppressed finding (lines of the file as checked): not applied
            if changed is None:  # a codemod we could not watch: compare the code
                changed = module_code.code(new_tree) != module_code.code(tree)
        except Exception as exc:  # a codemod bug (or libcst's recursion on deep code) must never cost the file
            raise Unfixable(f"{fx.name} failed: {type(exc).__name__}: {exc}") from None
        if changed:
            tree = new_tree
            applied.append(fx.name)
            fixed_rules |= fx.rules & rules
    context.scratch.pop(CODE_KEY, None)
    try:
        tree = add_requested_imports(context, tree)
    except Exception as exc:
        raise Unfixable(f"adding imports failed: {type(exc).__name__}: {exc}") from None
    try:
        return module_code.code(tree), applied, fixed_rules
    except RecursionError:
        raise Unfixable("libcst cannot write the fixed file: nested too deeply") from None


_INSTANCES: dict[type, Any] = {}
#: ``context.scratch`` key holding the file's :class:`~skillsmith.fix.codegen.ModuleCode`, so codemods
#: render a tree from the code of the statements they left as they were
CODE_KEY = "skillsmith.code"
#: ``context.scratch`` key holding (text, ast module) of the file as checked, so codemods need not parse it again
PARSED_KEY = "skillsmith.parsed"
#: ``context.scratch`` key holding the facts (``ScriptFacts``) of the file as checked, shared by the codemods
FACTS_KEY = "skillsmith.facts"


def run_codemod(cls: type, context, tree):
    """``cls(context).transform_module(tree)``, minus the costs our codemods do not need.

    Returns (tree, changed); *changed* is None when it could not be observed. An unchanged
    tree is returned as the same object, so its code need not be generated again.

    A codemod without ``METADATA_DEPENDENCIES`` and without matcher decorators visits the tree
    directly: no metadata wrapper (so no deep copy of the tree) and plain ``visit_*``/``leave_*``
    dispatch (libcst's matcher bookkeeping costs about three times the walk itself). Its
    instance is reused with the file's context. The imports it asks for are added by
    :func:`add_requested_imports` once all codemods ran.
    """
    if getattr(cls, "METADATA_DEPENDENCIES", ()):
        return cls(context).transform_module(tree), None
    inst = _INSTANCES.get(cls)
    if inst is None:
        inst = _INSTANCES[cls] = cls(context)
    inst.context = context
    if getattr(inst, "_extra_visit_funcs", None) or getattr(inst, "_extra_leave_funcs", None) \
            or getattr(inst, "_matchers", None):
        return tree.visit(inst), None
    dispatch = _plain_dispatch(inst)
    new_tree = tree.visit(dispatch)
    return (new_tree, True) if dispatch.changed else (tree, False)


def add_requested_imports(context, tree):
    """Add (and remove) the imports codemods asked for, as ``CodemodCommand`` does after each.

    ``import x`` of a standard module goes where an import sorter puts it (:func:`place_import`);
    other requests go through libcst's ``AddImportsVisitor``.
    """
    from libcst.codemod.visitors import AddImportsVisitor, RemoveImportsVisitor

    rest = []
    for request in context.scratch.get(AddImportsVisitor.CONTEXT_KEY, []):
        module, obj, alias = request.module_name, request.obj_name, request.alias
        if obj is None and alias is None and not request.relative and "." not in module \
                and module in sys.stdlib_module_names:
            tree = place_import(tree, module)
        else:
            rest.append(request)
    if rest:
        context.scratch[AddImportsVisitor.CONTEXT_KEY] = rest
        tree = tree.visit(_plain_dispatch(AddImportsVisitor(context)))  # (changed or not: imports only)
    context.scratch.pop(AddImportsVisitor.CONTEXT_KEY, None)
    if context.scratch.get(RemoveImportsVisitor.CONTEXT_KEY):
        tree = RemoveImportsVisitor(context).transform_module(tree)
    return tree


def place_import(tree, module: str):
    """*tree* with ``import module`` among its top-level imports, as an import sorter places it.

    In the first block of imports (after the docstring and ``__future__`` imports), standard
    ``import x`` lines stay in alphabetical order before the block's ``from`` imports; a block
    without standard imports gets it first, as a group of its own; a module without imports
    gets it after the docstring. Nothing changes when a top-level ``import module`` exists.
    """
    import libcst as cst

    body = list(tree.body)
    code = tree.code_for_node

    def is_import(stmt) -> bool:
        return isinstance(stmt, cst.SimpleStatementLine) and all(isinstance(s, (cst.Import, cst.ImportFrom)) for s in stmt.body)

    def module_of(stmt) -> str:
        small = stmt.body[0]
        if isinstance(small, cst.Import):
            return code(small.names[0].name)
        return ("." * len(small.relative)) + (code(small.module) if small.module else "")

    def stdlib(name: str) -> bool:
        return name.split(".")[0] in sys.stdlib_module_names

    for stmt in body:
        if is_import(stmt) and any(isinstance(s, cst.Import) and any(code(a.name) == module and a.asname is None
                                                                     for a in s.names) for s in stmt.body):
            return tree
    start = 0
    if body and isinstance(body[0], cst.SimpleStatementLine) and isinstance(body[0].body[0], cst.Expr) \
            and isinstance(body[0].body[0].value, (cst.SimpleString, cst.ConcatenatedString)):
        start = 1
    while start < len(body) and is_import(body[start]) and module_of(body[start]) == "__future__":
        start += 1
    end = start
    while end < len(body) and is_import(body[end]):
        end += 1
    new = cst.SimpleStatementLine(body=[cst.Import(names=[cst.ImportAlias(name=cst.Name(module))])])
    block = range(start, end)
    plain = [i for i in block if isinstance(body[i].body[0], cst.Import) and stdlib(module_of(body[i]))]
    froms = [i for i in block if isinstance(body[i].body[0], cst.ImportFrom) and stdlib(module_of(body[i]))]
    def take_lines(at: int, left: list) -> None:
        """The new line opens the group at *at*: it takes the group's leading lines."""
        nonlocal new
        new = new.with_changes(leading_lines=body[at].leading_lines)
        body[at] = body[at].with_changes(leading_lines=left)

    later = [i for i in plain if module_of(body[i]) > module]
    if later:
        at = later[0]
        if at == plain[0]:
            take_lines(at, [])
    elif plain:
        at = plain[-1] + 1
    elif froms:
        at = froms[0]
        take_lines(at, [])
    elif end > start:
        at = start
        take_lines(at, [cst.EmptyLine()])
    else:
        at = start
        new = new.with_changes(leading_lines=[cst.EmptyLine()] if start > 0 else [])
        if at < len(body):
            wanted = 2 if isinstance(body[at], (cst.FunctionDef, cst.ClassDef)) else 1
            have = len([ln for ln in body[at].leading_lines if ln.comment is None])
            if have < wanted:
                body[at] = body[at].with_changes(leading_lines=[cst.EmptyLine()] * (wanted - have) + list(body[at].leading_lines))
    return tree.with_changes(body=body[:at] + [new] + body[at:])


def _plain_dispatch(inner):
    """A transformer that calls *inner*'s ``visit_*``/``leave_*`` methods and nothing else.

    It notes whether any ``leave_*`` returned a different node (``changed``). A node none of
    whose descendants changed comes back as the same object (libcst rebuilds every node it
    visits), so the code of an untouched statement is known (:class:`ModuleCode`).
    """
    global _DISPATCH
    if _DISPATCH is None:
        _DISPATCH = _dispatch_class()
    hooks = _ATTRIBUTE_HOOKS.get(type(inner))
    if hooks is None:
        hooks = _ATTRIBUTE_HOOKS[type(inner)] = any(_ATTRIBUTE_HOOK.match(name) for name in dir(type(inner)))
    return _DISPATCH(inner, hooks)


def _dispatch_class() -> type:
    import libcst as cst

    class PlainDispatch(cst.CSTTransformer):
        def __init__(self, inner, attribute_hooks: bool) -> None:
            super().__init__()
            self.inner = inner
            self.attribute_hooks = attribute_hooks  # whether inner has visit_<Node>_<attribute> methods
            self.methods: dict[str, Any] = {}
            self.changed = False
            self.changes = 0  # how many times a leave_* returned a different node
            self.before: list[int] = []  # per node being visited: ``changes`` when the visit began

        def method(self, name: str):
            try:
                return self.methods[name]
            except KeyError:
                found = self.methods[name] = getattr(self.inner, name, None)
                return found

        def on_visit(self, node) -> bool:
            self.before.append(self.changes)
            func = self.method(f"visit_{type(node).__name__}")
            return func is None or func(node) is not False

        def on_leave(self, original_node, updated_node):
            untouched = self.before.pop() == self.changes  # nothing below this node changed
            func = self.method(f"leave_{type(original_node).__name__}")
            result = updated_node if func is None else func(original_node, updated_node)
            if result is not updated_node:
                self.changed = True
                self.changes += 1
                return result
            return original_node if untouched else updated_node

        def on_visit_attribute(self, node, attribute: str) -> None:
            if self.attribute_hooks:
                func = self.method(f"visit_{type(node).__name__}_{attribute}")
                if func is not None:
                    func(node)

        def on_leave_attribute(self, original_node, attribute: str) -> None:
            if self.attribute_hooks:
                func = self.method(f"leave_{type(original_node).__name__}_{attribute}")
                if func is not None:
                    func(original_node)

    return PlainDispatch


#: the transformer class of :func:`_plain_dispatch` (made on first use: it needs libcst)
_DISPATCH: type | None = None
#: per codemod class: whether it has ``visit_<Node>_<attribute>`` / ``leave_...`` hooks
_ATTRIBUTE_HOOKS: dict[type, bool] = {}


_ATTRIBUTE_HOOK = re.compile(r"^(visit|leave)_[A-Z][A-Za-z]*_[a-z_]+$")


def prepare_python_codemods() -> None:
    """Import libcst and the Python codemods and build their instances (libcst's set-up is slow)."""
    from libcst.codemod import CodemodContext

    for fx in load_fixers("python"):
        if fx.impl not in _INSTANCES and not getattr(fx.impl, "METADATA_DEPENDENCIES", ()):
            _INSTANCES[fx.impl] = fx.impl(CodemodContext())
