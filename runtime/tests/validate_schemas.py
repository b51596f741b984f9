"""Checks what runtime/tests/schemas.rs wrote, with validators that are not ours.

Every schema must be valid JSON Schema 2020-12 (the metaschema, via `jsonschema`);
every instance must get the verdict serde gave it (accepted inputs and serialized
outputs valid, rejected inputs invalid); the rendered OpenAPI document must pass
`openapi-spec-validator`. Usage: validate_schemas.py CASES.json OPENAPI.json
"""

import json
import sys

try:
    from jsonschema import Draft202012Validator
    from openapi_spec_validator import validate as validate_openapi
except ImportError as e:  # pragma: no cover
    sys.exit(f"missing Python package ({e}): pip install jsonschema openapi-spec-validator")


def main() -> int:
    cases = json.load(open(sys.argv[1]))
    failures = []
    for case in cases:
        schema = case["schema"]
        try:
            Draft202012Validator.check_schema(schema)
        except Exception as e:  # noqa: BLE001
            failures.append(f"{case['name']}: not a valid 2020-12 schema: {e}")
            continue
        validator = Draft202012Validator(schema)
        for instance, expected in case["instances"]:
            errors = list(validator.iter_errors(instance))
            if expected and errors:
                failures.append(f"{case['name']}: serde accepts {json.dumps(instance)} but the schema rejects it: {errors[0].message}")
            if not expected and not errors:
                failures.append(f"{case['name']}: serde rejects {json.dumps(instance)} but the schema accepts it")
    document = json.load(open(sys.argv[2]))
    try:
        validate_openapi(document)
    except Exception as e:  # noqa: BLE001
        failures.append(f"OpenAPI document: {e}")
    for f in failures:
        print(f)
    checked = sum(len(c["instances"]) for c in cases)
    print(f"{len(cases)} schemas, {checked} instances, 1 OpenAPI document checked; {len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
