#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""validate-json.py SCHEMA FILE...: each FILE must hold exactly one JSON
document that SCHEMA (JSON Schema draft 2020-12, Debian's
python3-jsonschema) accepts.

Stricter than json.load on purpose, since the documents are our own
programs' output: an empty file, a duplicate key, NaN or Infinity, and
anything after the document are errors.

Prints one line per invalid FILE, "FILE: WHY" (WHY names the place in the
document, e.g. "at /layers/net/tier: 'partial' does not match ..."), and
ends with "validated N, invalid M". Exit status: 0 all valid, 1 some
invalid, 2 the schema or the command line is unusable.
"""
import json
import sys

try:
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import SchemaError
except ImportError:
    print("validate-json: python3-jsonschema is missing "
          "(make deps installs it)", file=sys.stderr)
    sys.exit(2)


class Refused(ValueError):
    pass


def no_duplicates(pairs):
    seen = {}
    for k, v in pairs:
        if k in seen:
            raise Refused("duplicate key %r" % k)
        seen[k] = v
    return seen


def no_constant(name):
    raise Refused("%s is not JSON" % name)


def load(path):
    with open(path, "rb") as f:
        raw = f.read()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise Refused("not UTF-8: %s" % e)
    if not text.strip():
        raise Refused("empty: no JSON document")
    dec = json.JSONDecoder(object_pairs_hook=no_duplicates,
                           parse_constant=no_constant)
    try:
        doc, end = dec.raw_decode(text.lstrip())
    except json.JSONDecodeError as e:
        raise Refused("not JSON: %s" % e)
    if text.lstrip()[end:].strip():
        raise Refused("text after the JSON document")
    return doc


def where(err):
    return "/" + "/".join(str(p) for p in err.absolute_path)


def why(err):
    """The error, without the whole instance that some messages repeat."""
    if err.validator == "not":
        return "must not match %s" % json.dumps(err.validator_value,
                                                separators=(",", ":"))[:200]
    if err.validator == "anyOf" or (err.validator == "oneOf" and
                                    err.context):
        return "matches none of its alternatives (%s)" % ", ".join(
            json.dumps(v, separators=(",", ":"))[:80]
            for v in err.validator_value)
    if err.validator == "oneOf":
        return "matches more than one of its alternatives, not exactly one"
    msg, shown = err.message, repr(err.instance)
    if len(shown) > 60 and shown in msg:
        msg = msg.replace(shown, "the %s here" % type(err.instance).__name__)
    return msg[:300]


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    try:
        with open(argv[1]) as f:
            schema = json.load(f)
        Draft202012Validator.check_schema(schema)
    except (OSError, ValueError, SchemaError) as e:
        print("validate-json: %s: unusable schema: %s" % (argv[1], e),
              file=sys.stderr)
        return 2
    validator = Draft202012Validator(schema)
    invalid = 0
    for path in argv[2:]:
        try:
            doc = load(path)
            # the most specific first: the deepest place in the document
            errs = sorted(validator.iter_errors(doc),
                          key=lambda e: (-len(e.absolute_path),
                                         list(map(str, e.absolute_path))))
            # a property whose value failed is also "unevaluated" in every
            # object above it: those echoes only when nothing else is wrong
            errs = [e for e in errs
                    if e.validator != "unevaluatedProperties"] or errs
            if errs:
                raise Refused("; ".join("at %s: %s" % (where(e), why(e))
                                        for e in errs[:3]))
        except (OSError, Refused) as e:
            invalid += 1
            print("%s: %s" % (path, e))
    print("validated %d, invalid %d" % (len(argv) - 2, invalid))
    return 1 if invalid else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
