"""Scripts that read a credential file and send what they read over the network (SEC005).

A credential file is one that holds a secret for a person's accounts: SSH private keys, cloud
and registry credentials, ``.netrc``, git's stored credentials, browser cookie and password
stores. The finding needs the flow, not just the two halves: the file's content (or the open
file) reaches the arguments of a network call in the same script. Reading ``~/.kube/config`` to
call the cluster it names, a token sent as a request's ``Authorization`` header (a credential
used for the service it belongs to), or such paths listed by a scanner, is not reported.

Python: ``ast`` with one step of data flow through plain assignments (``key = open(p).read()``,
``with open(p) as fh``), into the body of ``requests``/``httpx``/``urllib``/``socket``/``smtplib``/
``boto3`` calls (``data=``, ``files=``, ``json=``, the bytes a socket sends). Shell: ``curl``/``wget`` uploading the file (``-d @~/.ssh/id_rsa``, ``-T``,
``-F f=@...``), ``nc``/``socat`` fed from it, or ``cat`` of it piped into one of them.
"""

from __future__ import annotations

import ast
import re
from itertools import pairwise

from skillsmith.lang import shell
from skillsmith.lang.python import facts, qualified, walk

#: files that hold a person's secrets (``.pub`` keys are public)
CREDENTIAL_PATH = re.compile(
    r"\.ssh/id_[a-z0-9_]+(?!\.pub)\b|\.aws/credentials|(^|/)\.netrc\b|\.git-credentials|\.docker/config\.json|"
    r"\.config/gh/hosts\.yml|gcloud/(credentials\.db|application_default_credentials\.json)|\.azure/accessTokens\.json|"
    r"\.pypirc|\.npmrc|Login Data|(^|/)Cookies(\.sqlite)?$|cookies\.sqlite|logins\.json|key4\.db")

_NETWORK_MODULES = ("requests", "httpx", "urllib", "http.client", "socket", "smtplib", "aiohttp", "ftplib", "boto3")
#: method names that send data (``session.post``, ``sock.sendall``), with the positional arguments
#: that carry the body (after the URL for HTTP; every argument for sockets and mail)
_SENDS = {"post": 1, "put": 1, "patch": 1, "urlopen": 1, "Request": 1, "send": 0, "sendall": 0, "sendto": 0,
          "sendmail": 0, "send_message": 0, "storbinary": 0, "upload_file": 0, "upload_fileobj": 0}
#: keyword arguments that carry a request's body; headers and auth are a credential used, not sent away
_BODY_KEYWORDS = {"data", "json", "files", "body", "content", "msg", "message", "Body", "Fileobj", "Filename"}

def _path_text(expr: ast.AST, paths: dict[str, str]) -> str:
    """The path an expression spells, its string parts joined with ``/`` (``os.path.join(home,
    ".ssh", "id_rsa")`` and ``Path.home() / ".ssh" / "id_rsa"`` give ``.ssh/id_rsa``)."""
    parts = []
    for node in walk(expr):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            parts.append((node.lineno, node.col_offset, node.value.strip("/")))
        elif isinstance(node, ast.Name) and node.id in paths:
            parts.append((node.lineno, node.col_offset, paths[node.id]))
    return "/".join(text for _, _, text in sorted(parts) if text)  # in source order


def _reads_credential(expr: ast.AST, paths: dict[str, str], aliases: dict[str, str]) -> bool:
    """Whether *expr* opens or reads a credential file."""
    for node in walk(expr):
        if not isinstance(node, ast.Call):
            continue
        name = qualified(node.func, aliases) or ""
        if name in ("open", "io.open", "codecs.open") and node.args:
            target = node.args[0]
        elif isinstance(node.func, ast.Attribute) and node.func.attr in ("read_text", "read_bytes", "open"):
            target = node.func.value
        else:
            continue
        if CREDENTIAL_PATH.search(_path_text(target, paths)):
            return True
    return False


def python_uploads(module: ast.Module, calls: list, aliases: dict[str, str]) -> list[ast.Call]:
    """Network calls whose arguments carry what the script read from a credential file."""
    if not any(v.split(".")[0] in _NETWORK_MODULES or v.startswith(_NETWORK_MODULES) for v in aliases.values()):
        return []
    paths: dict[str, str] = {}  # name -> the path text it was assigned (``key_file = "~/.ssh/id_rsa"``)
    tainted: set[str] = set()
    assigns = [n for n in facts(module).nodes if isinstance(n, (ast.Assign, ast.AnnAssign, ast.With, ast.AsyncWith))]
    for node in assigns:
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            text = _path_text(node.value, paths)
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for t in targets:
                if isinstance(t, ast.Name) and CREDENTIAL_PATH.search(text):
                    paths[t.id] = text
    # each step once: (names it binds to what it read, reads a credential itself, names it reads)
    steps: list[tuple[set[str], bool, set[str]]] = []
    for node in assigns:
        if isinstance(node, (ast.With, ast.AsyncWith)):
            steps += [({item.optional_vars.id}, True, set()) for item in node.items
                      if isinstance(item.optional_vars, ast.Name) and _reads_credential(item.context_expr, paths, aliases)]
        elif node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            steps.append(({n.id for t in targets for n in walk(t) if isinstance(n, ast.Name)},
                          _reads_credential(node.value, paths, aliases),
                          {n.id for n in walk(node.value) if isinstance(n, ast.Name)}))
    for _ in range(3):  # a few steps of flow through plain assignments
        for bound, reads, names in steps:
            if reads or not names.isdisjoint(tainted):
                tainted.update(bound)
    found = []
    for name, call in calls:
        method = (name or "").rsplit(".", 1)[-1]
        if method not in _SENDS:
            continue
        carried = [*call.args[_SENDS[method]:], *(k.value for k in call.keywords if k.arg in _BODY_KEYWORDS)]
        if any(_reads_credential(a, paths, aliases) or any(isinstance(n, ast.Name) and n.id in tainted
                                                           for n in walk(a)) for a in carried):
            found.append(call)
    return found


_SHELL_SENDERS = {"curl", "wget", "nc", "ncat", "netcat", "socat", "scp", "rsync"}
_HOME = re.compile(r"^(~|\$HOME|\$\{HOME\})/")


def _credential_word(word: str) -> bool:
    word = word.lstrip("@").split("=@")[-1] if "=@" in word else word.lstrip("@")
    return bool(_HOME.match(word) and CREDENTIAL_PATH.search(word))


def shell_uploads(root, data: bytes, nodes: list) -> list:
    """``curl -d @~/.ssh/id_rsa URL``, ``curl -T ~/.aws/credentials URL``, ``nc host 9 < ~/.netrc``,
    ``cat ~/.ssh/id_rsa | curl --data-binary @- URL``: a credential file sent off the machine."""
    found = []
    for node in nodes:
        if node.type != "command":
            continue
        name = shell.text(node.child_by_field_name("name") or node, data)
        if name not in _SHELL_SENDERS:
            continue
        words = [shell.unquote(shell.text(a, data)) for a in node.children_by_field_name("argument")]
        sent = any(_credential_word(w) for w in words if w.startswith("@") or "=@" in w) or any(
            flag in ("-T", "--upload-file", "--post-file", "--body-file") and _credential_word(value)
            for flag, value in pairwise(words))
        if name in ("scp", "rsync"):
            sent = sent or any(_credential_word(w) for w in words[:-1])
        parent = node.parent
        if not sent and parent is not None and parent.type == "redirected_statement":
            sent = any(shell.text(r, data).replace(" ", "").startswith("<")
                       and _credential_word(shell.text(r, data).replace(" ", "")[1:].strip("\"'"))
                       for r in parent.children if r.type == "file_redirect")
        if not sent and parent is not None and parent.type == "pipeline":
            for before in parent.named_children:
                if before == node:
                    break
                if before.type == "command" and shell.text(before.child_by_field_name("name") or before, data) == "cat" \
                        and any(_credential_word(shell.unquote(shell.text(a, data)))
                                for a in before.children_by_field_name("argument")):
                    sent = True
        if sent:
            found.append(node)
    return found
