#!/usr/bin/env python3
"""Bundles merchant-server's OpenAPI document with Tender's into the one document that lists every route.

    openapi-bundle.py            writes Examples/MerchantServer/merchant-server.bundled.openapi.yaml
    openapi-bundle.py --check    fails (exit 1) when that file is not what this script makes of the sources
    openapi-bundle.py --output F writes F instead

The source is `merchant-server.openapi.yaml`. Its `x-tender-routes` extension names Tender's document
(`Documentation/tender-server.openapi.yaml`); every path of that document is copied in as it is, each operation with
the extension's `security` (the `device` scheme, instead of Tender's `deviceSession`) and the extension's `responses`
added (the answers merchant-server gives before Tender's routes see the request). A `$ref` into another file
(`../../Documentation/tender-server.openapi.yaml#/components/schemas/ErrorBody`) brings that component in under its
own name, with what it refers to. The bundle has no reference outside itself.

Fails, rather than guessing, when a name is defined twice differently (a path, a component, a response status), when a
reference points nowhere, or when an operation names a security scheme the bundle does not define.
Needs PyYAML (the schemathesis virtual environment has it: Scripts/schemathesis.sh).
"""

import argparse
import copy
import os
import sys

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = os.path.dirname(HERE)
SOURCE = os.path.join(PACKAGE, "merchant-server.openapi.yaml")
BUNDLE = os.path.join(PACKAGE, "merchant-server.bundled.openapi.yaml")
METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")


class BundleError(Exception):
    pass


class Bundler:
    def __init__(self, source):
        self.source = os.path.abspath(source)
        self.documents = {}
        # (kind, name) -> the file it came from
        self.origins = {}

    def load(self, path):
        path = os.path.abspath(path)
        if path not in self.documents:
            with open(path, encoding="utf-8") as handle:
                self.documents[path] = yaml.safe_load(handle)
        return self.documents[path]

    @staticmethod
    def pointer(document, fragment, where):
        node = document
        for part in fragment.lstrip("/").split("/") if fragment.strip("/") else []:
            part = part.replace("~1", "/").replace("~0", "~")
            if not isinstance(node, dict) or part not in node:
                raise BundleError(f"{where}: no #{fragment}")
            node = node[part]
        return node

    def rewrite(self, node, base):
        """`node` (from the file `base`) with every reference made local to the bundle, importing what they name."""
        if isinstance(node, list):
            return [self.rewrite(item, base) for item in node]
        if not isinstance(node, dict):
            return node
        if "$ref" in node:
            if len(node) != 1:
                raise BundleError(f"{base}: a $ref with siblings ({sorted(node)})")
            return self.reference(node["$ref"], base)
        return {key: self.rewrite(value, base) for key, value in node.items()}

    def reference(self, ref, base):
        file_part, _, fragment = ref.partition("#")
        target = os.path.normpath(os.path.join(os.path.dirname(base), file_part)) if file_part else base
        parts = fragment.strip("/").split("/")
        if target == self.source:
            self.pointer(self.load(target), fragment, ref)  # must exist
            if len(parts) == 3 and parts[0] == "components":
                return {"$ref": f"#{fragment}"}
            raise BundleError(f"{ref}: only components are referenced within the source")
        document = self.load(target)
        if len(parts) == 3 and parts[0] == "components":
            self.import_component(parts[1], parts[2], target, document)
            return {"$ref": f"#/components/{parts[1]}/{parts[2]}"}
        # Anything else (a path item, an inline schema) is copied in place.
        return self.rewrite(copy.deepcopy(self.pointer(document, fragment, ref)), target)

    def import_component(self, kind, name, origin, document):
        key = (kind, name)
        if key in self.origins:
            if self.origins[key] != origin:
                raise BundleError(f"components/{kind}/{name} is defined in both {self.origins[key]} and {origin}")
            return
        source_components = self.load(self.source).get("components", {})
        if name in source_components.get(kind, {}):
            raise BundleError(f"components/{kind}/{name}: {origin} and the source both define it; rename one")
        self.origins[key] = origin
        value = self.pointer(document, f"/components/{kind}/{name}", origin)
        self.imported.setdefault(kind, {})[name] = self.rewrite(copy.deepcopy(value), origin)

    def bundle(self):
        source = copy.deepcopy(self.load(self.source))
        self.imported = {}
        tender = source.pop("x-tender-routes", None)
        if not tender:
            raise BundleError(f"{self.source}: no x-tender-routes")
        for kind, values in source.get("components", {}).items():
            for name in values:
                self.origins[(kind, name)] = self.source
        source["components"] = self.rewrite(source.get("components", {}), self.source)
        paths = {}
        for path, item in source.get("paths", {}).items():
            paths[path] = self.rewrite(item, self.source)
        tender_file = os.path.normpath(os.path.join(os.path.dirname(self.source), tender["document"]))
        tender_document = self.load(tender_file)
        added_responses = self.rewrite(tender.get("responses", {}), self.source)
        for path, item in tender_document.get("paths", {}).items():
            if path in paths:
                raise BundleError(f"{path} is in both {self.source} and {tender_file}")
            item = self.rewrite(copy.deepcopy(item), tender_file)
            for method in METHODS:
                operation = item.get(method)
                if operation is None:
                    continue
                if "security" in operation:
                    raise BundleError(f"{method.upper()} {path} in {tender_file} has its own security: decide here")
                # The scheme goes before the request and the answers, as in the source's own operations.
                fields = list(operation.items())
                at = next((i for i, (key, _) in enumerate(fields) if key in ("parameters", "requestBody", "responses")),
                          len(fields))
                fields.insert(at, ("security", copy.deepcopy(tender["security"])))
                operation = item[method] = dict(fields)
                responses = operation.setdefault("responses", {})
                for status, response in added_responses.items():
                    if status in responses:
                        raise BundleError(f"{method.upper()} {path}: Tender's document already answers {status}")
                    responses[status] = copy.deepcopy(response)
                operation["responses"] = dict(sorted(responses.items(), key=lambda pair: (pair[0] == "default", pair[0])))
            paths[path] = item
        source["paths"] = paths
        components = source.setdefault("components", {})
        for kind, values in sorted(self.imported.items()):
            merged = dict(components.get(kind, {}))
            merged.update(sorted(values.items()))
            components[kind] = merged
        self.check_security(source)
        return source

    @staticmethod
    def check_security(document):
        schemes = set(document.get("components", {}).get("securitySchemes", {}))
        requirements = [("the document", document.get("security", []))]
        for path, item in document["paths"].items():
            for method in METHODS:
                if method in item:
                    requirements.append((f"{method.upper()} {path}", item[method].get("security", [])))
        for where, security in requirements:
            for requirement in security:
                for name in requirement:
                    if name not in schemes:
                        raise BundleError(f"{where}: security scheme {name} is not defined")


HEADER = """\
# GENERATED by Examples/MerchantServer/Scripts/openapi-bundle.py from merchant-server.openapi.yaml and
# Documentation/tender-server.openapi.yaml: do not edit; edit those and run the script (CI fails when this is stale).
"""


class _Dumper(yaml.SafeDumper):
    """Multi-line text as a literal block (`|`), as the sources write it."""


def _text(dumper, value):
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _text)


def render(document):
    text = yaml.dump(document, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=120,
                     default_flow_style=False)
    return HEADER + text


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail when the bundle on disk is stale")
    parser.add_argument("--output", default=BUNDLE)
    parser.add_argument("--source", default=SOURCE)
    arguments = parser.parse_args()
    try:
        text = render(Bundler(arguments.source).bundle())
    except BundleError as failure:
        print(f"openapi-bundle: {failure}", file=sys.stderr)
        return 1
    relative = os.path.relpath(arguments.output)
    if arguments.check:
        try:
            with open(arguments.output, encoding="utf-8") as handle:
                current = handle.read()
        except FileNotFoundError:
            current = None
        if current != text:
            print(f"openapi-bundle: {relative} is stale: run Examples/MerchantServer/Scripts/openapi-bundle.py",
                  file=sys.stderr)
            return 1
        print(f"openapi-bundle: {relative} is up to date")
        return 0
    with open(arguments.output, "w", encoding="utf-8") as handle:
        handle.write(text)
    document = yaml.safe_load(text)
    operations = sum(1 for item in document["paths"].values() for method in METHODS if method in item)
    print(f"openapi-bundle: wrote {relative} ({len(document['paths'])} paths, {operations} operations)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
