import type { PackTemplateInput } from './templates.js';

/**
 * The files of `svc pack new NAME --python [VERSION]`: a Python package named after the pack
 * whose modules hold the commands (`run(input, ctx)`, plain or `async def`), unit tests that the
 * standard library's `unittest` runs (and pytest, when installed), and a `pack.yaml` with
 * `runtime: python`. Standard library only, so a new pack needs nothing installed.
 */

/** The pack's Python package: its name as an identifier (`text-tools` → `text_tools`). */
export function pythonPackageName(name: string): string {
  const identifier = name.replace(/-/g, '_');
  return /^[0-9]/.test(identifier) ? `pack_${identifier}` : identifier;
}

function manifest(input: PackTemplateInput, pythonVersion: string, module: string): string {
  return `# The pack manifest; \`svc pack validate\` checks it as the registry will.
schema_version: 1
pack:
  namespace: ${input.namespace}
  name: ${input.name}
  version: 0.1.0
  description: A first Python pack
  visibility: private
runtime: python
# The Python versions its code runs on (PEP 440 specifiers); the platform refuses at publish a
# range its workers can never meet.
python: ">=${pythonVersion}"
commands:
  - name: hello
    description: Greets someone and counts the greetings in your storage
    # package.module:function (or a .py file, whose run(input, ctx) is the command)
    entry: ${module}.hello:run
    input_schema:
      type: object
      additionalProperties: false
      properties:
        name: { type: string, minLength: 1, maxLength: 100, description: Who to greet }
      required: [name]
    timeout: 10
    examples:
      - description: Greet Ada
        input: { name: Ada }
`;
}

const HELLO = `"""The hello command: what run returns is the caller's result, as JSON."""


def run(input, ctx):
    # A plain function's ctx calls return their answer; in an async def, await them. Stored
    # values are JSON objects.
    previous = ctx.storage.get("greetings")
    count = (previous["value"]["count"] if previous else 0) + 1
    ctx.storage.put("greetings", {"count": count})
    ctx.log.info("greeted", input["name"], "for tenant", ctx.tenant)
    return {"message": "Hello, %s!" % input["name"], "greetings": count}
`;

const CONTEXT = `"""A stand-in for the platform's command context (ctx), for unit tests of commands.

\`svc pack dev\` and \`svc pack exec\` run commands in the platform's own runner instead.
"""
import types


class _Storage:
    def __init__(self):
        self.entries = {}

    def get(self, key):
        if key not in self.entries:
            return None
        return {"key": key, "value": self.entries[key], "created_at": "1970-01-01T00:00:00.000Z", "expires_at": None}

    def put(self, key, value, ttl=None):
        if not isinstance(value, dict):
            raise ValueError("storage values are JSON objects, as on the platform")
        created = key not in self.entries
        self.entries[key] = value
        return {"key": key, "created": created, "expires_at": None}

    def delete(self, key):
        return {"deleted": self.entries.pop(key, None) is not None}

    def list(self, prefix="", limit=None):
        keys = sorted(key for key in self.entries if key.startswith(prefix or ""))
        return {"keys": keys, "total": len(keys)}


class _Log:
    def debug(self, *args):
        pass

    info = warn = warning = error = debug


class _Signal:
    aborted = False
    reason = None

    def throw_if_aborted(self):
        pass


def make_context(secrets=None, tenant="test-tenant", user="test-user"):
    """ctx with in-memory storage, the given secrets and a silent log."""
    return types.SimpleNamespace(
        tenant=tenant,
        user=user,
        correlation_id="test-correlation-id",
        secrets=types.MappingProxyType(dict(secrets or {})),
        signal=_Signal(),
        log=_Log(),
        storage=_Storage(),
    )
`;

function helloTest(module: string): string {
  return `import unittest

from ${module}.hello import run
from tests.context import make_context


class HelloTest(unittest.TestCase):
    def test_greets_by_name(self):
        self.assertEqual(run({"name": "Ada"}, make_context())["message"], "Hello, Ada!")

    def test_counts_greetings_in_storage(self):
        ctx = make_context()
        run({"name": "Ada"}, ctx)
        self.assertEqual(run({"name": "Grace"}, ctx)["greetings"], 2)


if __name__ == "__main__":
    unittest.main()
`;
}

function readme(input: PackTemplateInput, pythonVersion: string): string {
  return `# @${input.namespace}/${input.name}

A Python pack (Python ${pythonVersion} or later) for svc.${input.author ? ` By ${input.author}.` : ''}

- \`svc pack validate\` checks it as the registry will; \`svc pack test\` runs \`tests/\` with
  unittest (or pytest when it is installed).
- \`svc pack exec ${input.namespace}/hello --arg name=Ada\` runs a command in the platform's runner.
- \`svc pack build\` writes a wheel to \`dist/\` (\`--format tar.gz\` or \`both\` for the others);
  \`svc pack publish\` publishes it.
- Dependencies: nothing is installed where packs run. Put pure-Python wheels (\`*-py3-none-any.whl\`)
  or packages in \`vendor/\`; they are importable as usual.
`;
}

export function pythonPackTemplateFiles(input: PackTemplateInput, pythonVersion: string): Record<string, string> {
  const module = pythonPackageName(input.name);
  return {
    'pack.yaml': manifest(input, pythonVersion, module),
    [`${module}/__init__.py`]: `"""Commands of @${input.namespace}/${input.name}."""\n`,
    [`${module}/hello.py`]: HELLO,
    'tests/__init__.py': '',
    'tests/context.py': CONTEXT,
    'tests/test_hello.py': helloTest(module),
    'README.md': readme(input, pythonVersion),
    '.svcignore': '# Left out of the package (.svc, dist and .git always are).\ntests/\n.gitignore\n__pycache__/\n*.pyc\n.pytest_cache/\n',
    '.gitignore': '.svc/\ndist/\n__pycache__/\n.pytest_cache/\n',
  };
}
