"""Square's published OpenAPI document (Connect v2, 2025-08-20), loaded with the schema fixes strict validators need.

The shared file is never edited: each fix is applied here, in memory, at load time. Every fix says why.
Run `python square_spec.py --check` to validate the fixed document with openapi-spec-validator.
"""
import json
import os
import sys

SPEC_PATH = os.environ.get(
    "TENDER_SQUARE_SPEC",
    os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared", "peers", "square-connect-api-2025-08-20.json"))

#: The API version the document describes (its `Square-Version` global header).
SQUARE_VERSION = "2025-08-20"


def _fix_missing_toggle_override(spec):
    """`CatalogModifierToggleOverrideType` is referenced five times (CatalogItemModifierListInfo.allow_quantities,
    is_conversational, hidden_from_customer_override; CatalogModifierOverride.hidden_online_override,
    on_by_default_override) but never defined: every `$ref` to it points nowhere and a strict loader stops.
    The properties' own descriptions list its values (`YES`, `NO`, `NOT_SET`), so it is defined as that enum."""
    schemas = spec["components"]["schemas"]
    if "CatalogModifierToggleOverrideType" in schemas:
        return False
    schemas["CatalogModifierToggleOverrideType"] = {
        "type": "string", "enum": ["YES", "NO", "NOT_SET"],
        "description": "Added by Tender's loader: referenced by the document but not defined in it."}
    return True


def _fix_external_docs_in_info(spec):
    """`info.externalDocs` is not a field of the Info object (OpenAPI 3.0 allows only `x-` extensions there);
    `externalDocs` belongs at the document's top level, where it is moved."""
    info = spec.get("info", {})
    if "externalDocs" not in info:
        return False
    spec.setdefault("externalDocs", info.pop("externalDocs"))
    return True


def _fix_null_security_scopes(spec):
    """`POST /oauth2/revoke` lists its security requirement as `{"oauth2": null}`; a Security Requirement maps each
    scheme to an array of scopes. `null` becomes `[]` (no scopes), which is what the endpoint documents (it is
    authorized by the application's client secret, not an OAuth scope)."""
    changed = False
    for path_item in spec["paths"].values():
        for operation in path_item.values():
            if not isinstance(operation, dict):
                continue
            for requirement in operation.get("security") or []:
                for scheme, scopes in list(requirement.items()):
                    if scopes is None:
                        requirement[scheme] = []
                        changed = True
    return changed


def _fix_unresolved_path_parameters(spec):
    """`PUT /v2/vendors/{vendor_id}` (UpdateVendor) declares no `vendor_id` parameter although its path has one;
    OpenAPI requires every templated path segment to be declared. The declaration of the same path's `GET` is
    reused (a required string in the path). Fixed generically for any operation with the same defect."""
    changed = False
    for path, path_item in spec["paths"].items():
        names = [part[1:-1] for part in path.split("/") if part.startswith("{") and part.endswith("}")]
        shared = {p.get("name") for p in path_item.get("parameters", []) if p.get("in") == "path"}
        for method, operation in path_item.items():
            if not isinstance(operation, dict) or method == "parameters":
                continue
            params = operation.setdefault("parameters", [])
            declared = shared | {p.get("name") for p in params if p.get("in") == "path"}
            for name in names:
                if name not in declared:
                    params.append({"name": name, "in": "path", "required": True, "schema": {"type": "string"},
                                   "description": "Added by Tender's loader: the path declares it, the operation did not."})
                    changed = True
    return changed


def _fix_error_codes_missing_from_enum(spec):
    """The `ErrorCode` enum (153 values) lacks codes the document itself lists as endpoint errors
    (`x-endpoint-errors`) or generic errors (`x-square-generic-error-codes`): `VERSION_MISMATCH` (CompletePayment
    with a stale `version_token`), `ORDER_EXPIRED`, `ISSUER_INSTALLMENT_ERROR`. An `Error` carrying one of them would
    fail validation although the API documents it, so they are added to the enum."""
    enum = spec["components"]["schemas"]["ErrorCode"]["enum"]
    used = set(spec.get("x-square-generic-error-codes", []))
    for path_item in spec["paths"].values():
        for operation in path_item.values():
            if isinstance(operation, dict):
                used.update(error["error-code"] for error in operation.get("x-endpoint-errors", []))
    missing = sorted(used - set(enum))
    enum.extend(missing)
    return bool(missing)


#: Every fix, in the order applied. Each returns whether it changed anything (a fix that stops applying means Square
#: corrected its document; `--check` reports it).
FIXES = [
    _fix_missing_toggle_override,
    _fix_external_docs_in_info,
    _fix_null_security_scopes,
    _fix_unresolved_path_parameters,
    _fix_error_codes_missing_from_enum,
]


def load_fixed_spec(path=SPEC_PATH):
    """The document with every fix applied, and the names of the fixes that changed it."""
    with open(path) as handle:
        spec = json.load(handle)
    applied = [fix.__name__ for fix in FIXES if fix(spec)]
    return spec, applied


def check(path=SPEC_PATH):
    """Validates the document as published (it must fail: otherwise a fix is no longer needed) and then fixed (it
    must pass) with openapi-spec-validator; returns the number of errors after the fixes (printed)."""
    from openapi_spec_validator import OpenAPIV30SpecValidator
    with open(path) as handle:
        raw = json.load(handle)
    try:
        raw_errors = sum(1 for _ in OpenAPIV30SpecValidator(raw).iter_errors())
        print("square spec as published: %d errors" % raw_errors)
    except Exception as error:  # the dangling $ref stops the validator outright
        print("square spec as published: the validator stops: %s" % type(error).__name__)
    spec, applied = load_fixed_spec(path)
    print("fixes applied: " + ", ".join(applied))
    errors = list(OpenAPIV30SpecValidator(spec).iter_errors())
    for error in errors:
        print("spec error: %s: %s" % ("/".join(map(str, error.absolute_path)), error.message))
    print("square spec: %d errors after %d fixes" % (len(errors), len(applied)))
    return len(errors)


if __name__ == "__main__":
    if "--check" in sys.argv:
        sys.exit(1 if check() else 0)
    print(__doc__)
