#!/usr/bin/env python3
"""Validates real answers of geophoto's HTTP API against the schemas of its own OpenAPI document,
with python3-jsonschema (Debian's), as an oracle independent of the Swift code that wrote both.

    validate-answers.py OPENAPI.json ANSWERS.json

ANSWERS.json is a list of {"path": "/v1/near", "status": 200, "mediaType": "application/json",
"body": <the answer>}. OpenAPI 3.0's `nullable: true` becomes JSON Schema's null type and
`$ref`s resolve inside the document. Every answer is checked with additionalProperties left
open, then again with every object closed (no property the schema does not name), so an answer
that says more than its schema documents fails too. Prints one line per failure; exit status 1
when any failed.
"""
import copy
import json
import sys

import jsonschema


def converted(schema, closed):
    """The schema as JSON Schema draft 4 reads it: nullable as a null type, objects closed."""
    if isinstance(schema, list):
        return [converted(s, closed) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: converted(v, closed) for k, v in schema.items()}
    if out.pop("nullable", False):
        if "type" in out:
            out["type"] = [out["type"], "null"] if isinstance(out["type"], str) else out["type"] + ["null"]
        elif "$ref" in out:
            out = {"anyOf": [{"$ref": out["$ref"]}, {"type": "null"}]}
        if "enum" in out:
            out["enum"] = out["enum"] + [None]
    if closed and out.get("type") in ("object", ["object", "null"]) and "properties" in out:
        out.setdefault("additionalProperties", False)
    return out


def main():
    document = json.load(open(sys.argv[1], encoding="utf-8"))
    answers = json.load(open(sys.argv[2], encoding="utf-8"))
    failures = 0
    for closed in (False, True):
        root = converted(copy.deepcopy(document), closed)
        resolver = jsonschema.RefResolver.from_schema(root)
        for answer in answers:
            operation = root["paths"][answer["path"]]["get"]
            response = operation["responses"].get(str(answer["status"]))
            if response is None:
                print(f"{answer['path']}: status {answer['status']} is not documented")
                failures += 1
                continue
            if "$ref" in response:
                response = resolver.resolve(response["$ref"])[1]
            content = response.get("content", {}).get(answer["mediaType"])
            if content is None:
                print(f"{answer['path']} {answer['status']}: {answer['mediaType']} is not documented")
                failures += 1
                continue
            validator = jsonschema.Draft4Validator(content["schema"], resolver=resolver)
            for error in validator.iter_errors(answer["body"]):
                where = "/".join(str(p) for p in error.absolute_path) or "(the answer)"
                kind = "closed" if closed else "open"
                print(f"{answer['path']} {answer['status']} {answer['mediaType']} [{kind}] at {where}: {error.message[:300]}")
                failures += 1
    print(f"{len(answers)} answers checked, {failures} failures")
    sys.exit(1 if failures else 0)


main()
