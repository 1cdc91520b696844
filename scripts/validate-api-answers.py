#!/usr/bin/env python3
"""Validates the spec, then JSON answers against its component schemas.

usage: validate-api-answers.py SPEC [ANSWERS.json]
ANSWERS.json is a list of {"schema": "AccountResponse", "body": {...}}.
Needs the PyPI package openapi-spec-validator (it brings openapi-schema-validator).
Exit 0 when all are valid, 1 with the failures listed, 2 when a package is missing.
"""
import json
import sys

try:
    import yaml
    from openapi_spec_validator import validate
    from openapi_schema_validator import OAS31Validator
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT202012
except ImportError as error:
    print(f"missing Python package ({error}): pip install openapi-spec-validator", file=sys.stderr)
    sys.exit(2)

spec_path = sys.argv[1]
with open(spec_path) as f:
    spec = yaml.safe_load(f)
validate(spec)
if len(sys.argv) < 3:
    print("spec valid")
    sys.exit(0)

registry = Registry().with_resource("spec", Resource.from_contents(spec, default_specification=DRAFT202012))
with open(sys.argv[2]) as f:
    answers = json.load(f)
failures = []
for index, answer in enumerate(answers):
    schema = {"$ref": f"spec#/components/schemas/{answer['schema']}"}
    validator = OAS31Validator(schema, registry=registry)
    for error in validator.iter_errors(answer["body"]):
        failures.append(f"{index} {answer['schema']}: {error.message[:200]} at {list(error.absolute_path)}")
if failures:
    print("\n".join(failures), file=sys.stderr)
    sys.exit(1)
print(f"{len(answers)} answers valid")
