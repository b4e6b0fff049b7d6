"""LaunchDarkly's own evaluator as an oracle for the library's LaunchDarkly format.

    python3 launchdarkly_oracle.py --seed 7 --cases 5000

Generates random LaunchDarkly flag data (flags with on/offVariation, targets and contextTargets, rules
whose clauses use every operator, negate, contextKind and attribute references with `/` paths; segments
with included/excluded lists, includedContexts/excludedContexts, weighted rules with bucketBy and nested
segmentMatch (its values of every JSON type), cycles included; prerequisites, missing, failing and cyclic
ones; fallthroughs with fixed variations, rollouts and experiments with seeds, bucketBy and other context
kinds; the file data source's flagValues; deleted flags) and random single- and multi-kind contexts, with
random.Random(seed).

It writes each data set to a JSON file, loads it into LaunchDarkly's Python server SDK
(`launchdarkly-server-sdk` 9.18.4) through its file data source, exactly as an application would:

    LDClient(Config(sdk_key="x", update_processor_class=Files.new_data_source(paths=[file]),
                    send_events=False, diagnostic_opt_out=True))

and evaluates every flag with `variation_detail(key, context, default)` (never `offline=True`, which
answers every flag with the default and CLIENT_NOT_READY). Nothing goes to the network: the file data
source reads the file, events are off (check with `unshare -n python3 launchdarkly_oracle.py …`). The file
is read as JSON: with pyyaml installed the file data source would read it as YAML, where `1e-07` is a string,
so `have_yaml` is switched off, as a `put` or `/sdk/latest-all` payload is read with `json.loads`.

Each line is one data set and one context:

    {"case": 0, "payload": {...}, "targetingKey": "u1", "attributes": {...}, "context": "<LaunchDarkly's JSON>",
     "contextError": null,
     "expected": {"<flag>": {"value": ..., "variationIndex": 1, "reason": {"kind": "RULE_MATCH", ...}}},
     "flags": {"<flag>": ["regex-dialect", ...]}}

Each data set is evaluated for four contexts, and only the first of its four lines carries `payload`: a line
without one is for the data set of the line before.

`targetingKey` and `attributes` are the library's EvaluationContext for LaunchDarkly's context, by the
mapping in Modules/LaunchDarklyFormat/FORMAT.md ("Contexts"); the oracle builds LaunchDarkly's own context
from the same description with its own builders (`Context.builder`, `Context.create_multi`), so a mistake
in the mapping shows. `variationIndex` is null when LaunchDarkly served the caller's default (`value` is
then absent). A flag the payload lacks (`no-such-flag`) is evaluated too.

Where the library answers otherwise by design, this script flags the flag, by watching the SDK's own
functions (it never changes what they answer):

- regex-dialect: a `matches` clause compared a pattern and a text where ICU (the library's engine) and
  Python's `re` may answer differently: a pattern Python cannot compile; one with syntax only one of
  them has or that they read differently (`[[:alpha:]]`, `(?<name>…)`, `(?P<name>…)`, an escape of a
  letter or digit other than `\\d \\w \\s \\b \\A \\n \\t \\r \\f` and their capitals, a brace outside a
  quantifier, inline flags other than `(?i)`); or a text with characters outside printable ASCII met by
  `.`, `$`, `\\s`, `\\w`, `\\b`, `\\d` or `(?i)`.
- invalid-context-unknown-flag: a flag the payload lacks (or has deleted), for an invalid context. LaunchDarkly looks at the
  context first (USER_NOT_SPECIFIED); the library's payload answers FLAG_NOT_FOUND without a rule to ask.
"""

import argparse
import json
import logging
import os
import random
import re
import sys
import tempfile
import types
import warnings

import ldclient.impl.integrations.files.file_data_source as file_data_source
import ldclient.impl.operators as operators
from ldclient import Context
from ldclient.client import LDClient
from ldclient.config import Config
from ldclient.integrations import Files

# The SDK logs every invalid context, missing prerequisite and malformed flag; the cases make many on purpose.
logging.getLogger("ldclient").setLevel(logging.CRITICAL)
logging.getLogger("ldclient.flag").setLevel(logging.CRITICAL)
logging.getLogger("ldclient.util").setLevel(logging.CRITICAL)

# Python's `re` warns about patterns such as `[[:alpha:]]`; the cases have them on purpose.
warnings.filterwarnings("ignore", category=FutureWarning)

# Read the data file as JSON, as LaunchDarkly's streaming and polling payloads are read (see above).
file_data_source.have_yaml = False

# A `segmentMatch` value that is an array or an object makes the SDK's dependency tracker fail after the data is
# stored (the flags still evaluate, that clause with EXCEPTION); the file data source then prints a traceback on
# stderr. The cases make such values on purpose: the prints are dropped, the answers are untouched.
file_data_source.traceback = types.SimpleNamespace(print_exc=lambda *arguments, **options: None)

# MARK: Watching the SDK where the library answers otherwise

FLAGS = set()

# Syntax that ICU and Python's `re` read differently, or that only one of them has.
RISKY_SYNTAX = ["[[", "&&", "--", "[]", "[^]", "(?<", "(?P", "(?#", "(?x", "(?u", "(?a", "(?L", "(?s", "(?m"]
# Escapes both read alike; any other escape of a letter or digit is read differently or only by one.
SAFE_ESCAPES = set("dDwWsSbBAntrf")
# Constructs whose meaning depends on text beyond printable ASCII.
TEXT_SENSITIVE = [".", "$", "\\s", "\\S", "\\w", "\\W", "\\b", "\\B", "(?i", "\\d", "\\D"]
QUANTIFIER = re.compile(r"\{[0-9]+(,[0-9]*)?\}")


def regex_may_differ(pattern, text):
    """Whether ICU and Python's `re` may answer differently for `pattern` searched in `text` (see the docstring)."""
    try:
        re.compile(pattern)
    except Exception:
        return True
    if any(construct in pattern for construct in RISKY_SYNTAX):
        return True
    escapes = re.findall(r"\\(.)", pattern, flags=re.DOTALL)
    if any(character.isalnum() and character not in SAFE_ESCAPES for character in escapes):
        return True
    # A brace that is not part of a quantifier is a literal in Python and an error in ICU.
    if "{" in QUANTIFIER.sub("", pattern) or "}" in QUANTIFIER.sub("", pattern):
        return True
    plain = all(32 <= ord(character) < 127 or character in "\t\n" for character in text)
    return not plain and any(construct in pattern for construct in TEXT_SENSITIVE)


original_matches = operators.ops["matches"]


def watched_matches(context_value, clause_value, clause_preprocessed):
    if isinstance(context_value, str) and isinstance(clause_value, str) and regex_may_differ(clause_value, context_value):
        FLAGS.add("regex-dialect")
    return original_matches(context_value, clause_value, clause_preprocessed)


operators.ops["matches"] = watched_matches

# MARK: Values

KINDS = ["user", "org", "device", "team.a_b-c"]
# Kinds LaunchDarkly refuses; "multi" and "kind" cannot be a single context's kind attribute or a multi member's name
# in the library's mapping (they mean the multi-context itself).
BAD_KINDS = ["kind", "bad kind", "é", "x:y"]
KEYS = ["u1", "u2", "user-42", "alice@example.com", "é", "e\u0301", "🙂", "東京", "0", "null", "a:b", "100%", "Ünïcode",
        "org-1", "dev-9"]
EMAILS = ["alice@example.com", "bob@EXAMPLE.com", "carol@test.org", "", "é@exämple.de", "nobody", "x@example.com\n"]
COUNTRIES = ["DE", "AT", "US", "us", "", "é", "e\u0301", 49, True, "東京"]
AGES = [0, 17, 18, 30, 30.0, 65.5, -1, "30", True, 9007199254740993, 2.5e-7, 1e21]
VERSIONS = ["1.2.3", "1.2.10", "v1.2.3", "1.2", "1", "1.2.3-beta", "1.2.3-beta.2", "1.2.3-beta.10", "1.2.3-alpha",
            "1.2.3+build.5", "2.0.0", "10.0.0", "1.0.0-rc.1", "0.9", "", "1.2.3.4", "01.2.3", "1.2-beta", "1-beta",
            "1.2\nfoo", "1.2.3-01", "99999999999999999999.0.0", "1.0.0-rc.1+b.2", "1.0.0-0.3.7", "1.0.0-x-y-z.--", 2,
            1.5, None, "١.٢.٣", "1.2.0", "1.0.0", "1.2.3+build.9", "2.0", "1.0.0-beta", "1.2.3-beta.2+x"]
TIMES = [0, 1577836800000, 1577836800000.5, 1714557600000, -1, 1e15, "2024-05-01T10:00:00Z",
         "2024-05-01T10:00:00.123456+02:00", "2024-05-01T10:00:00.1234567-01:30", "2024-05-01 10:00:00z",
         "2024-05-01T10:00:00", "2024-05-01", "20240501T1000Z", "2024-W18-3T10:00+01", "2024W183T10+0100",
         "2020-01-01T00:00:00+00:00:00.5", "2020-01-01T12,5Z", "2020-01-01T12:34:56:78+00:00", "2024-05-01é10:00Z",
         "2024-13-01T00:00:00Z", "2024-02-30T00:00:00Z", "2024-02-29T23:59:59.999999+23:59", "not a date",
         "1970-01-01T00:00:00.000001Z", "9999-12-31T23:59:59.999999-23:59", "0001-01-01T00:00:00+00:00", True, None,
         "2024-05-01T10:00:00+24:00", "2024-05-01T24:00:00Z", "2024-05-01T12:00:00+02:00", "2020-01-01T00:00:00.0005Z",
         "2020-01-01T00:00:00.000500+00:00", 1577836800000.0005, "2024-05-01T10:00:00.000000001Z"]
TAGS = [["a", "b"], [], ["beta", "DE"], [0, "x"], ["", "beta"], [1, 2, 3], [False, "a"], [None, 1], [["a"]],
        [{"k": 1}], ["é", "e\u0301"]]
ADDRESSES = [{"city": "Berlin", "zip": "10115", "geo": {"lat": 52.5}}, {"city": "東京", "zip": 100},
             {"city": None, "geo": {}}, {"zip": "8010"}, {}]
PLANS = ["free", "pro", "enterprise", "", "PRO", 1, None]
SLASHED = ["x/y", "", "slash"]
TILDED = ["tilde", "~", "x"]
OBJECTS = [{"k": 1}, {"k": 1.0}, {"k": True}, {"k": [1, 2]}, {}, {"a": {"b": "c"}}]

ATTRIBUTES = {"email": EMAILS, "country": COUNTRIES, "age": AGES, "version": VERSIONS, "signup": TIMES,
              "tags": TAGS, "address": ADDRESSES, "plan": PLANS, "a/b": SLASHED, "~x": TILDED, "obj": OBJECTS,
              "beta": [True, False, 1, 0, "true"]}
PRESENCE = {"email": 0.75, "country": 0.7, "age": 0.7, "version": 0.75, "signup": 0.75, "tags": 0.5, "address": 0.5,
            "plan": 0.5, "a/b": 0.2, "~x": 0.2, "obj": 0.3, "beta": 0.4}
NAMES = ["Alice", "", "Zoë", None]

# Attribute references: (reference, contextKind stated or not). Without a contextKind the reference is a literal
# name; with one, a path.
LITERAL_ATTRIBUTES = ["email", "country", "age", "version", "signup", "tags", "address", "plan", "a/b", "~x", "obj",
                      "beta", "key", "kind", "name", "anonymous", "missing", "/address/city", "secondary", "email",
                      "country", "plan", "key"]
PATH_ATTRIBUTES = ["email", "/email", "/address/city", "/address/geo/lat", "/address/zip", "/a~1b", "/~0x", "/obj/k",
                   "/obj/a/b", "/tags", "key", "/key", "kind", "/kind", "name", "anonymous", "//bad", "/bad~2", "/",
                   "/address/", "/missing/deep", "age"]

STRINGS = ["DE", "de", "", "é", "e\u0301", "\u0301", "a", "alice", "@example.com", "example", "東", "x", "1", "30",
           "true", "null", "pro", "Berlin", "u1", "org", "user", "1.2.3"]
NUMBERS = [0, 1, -1, 17, 18, 30, 30.0, 1.5, 65.5, 100, 9007199254740992, 9007199254740993, 1e21, -0.0, 52.5]
REGEXES = ["^a", "example\\.com$", "[0-9]+", "^\\d{2}$", "é", "(?i)ALICE", "^$", "", "a|b", "^(foo|bar)", ".*",
           "^.{3}$", "com$", "^[A-Z]{2}$", "x+y*", "(a)(b)?", "@", "^e", "\\.", "[^a-z]", "\\w+@", "\\bDE\\b",
           "\\s", "(?i)de", "[[:alpha:]]", "\\p{L}", "(", "a{,3}", "\\z", "(?<n>a)", "(?P<n>a)", "[a-z&&[^e]]",
           "\\Z"]
# The attributes each operator is mostly given (a path when the clause has a contextKind).
SUITED = {"endsWith": ["email", "country", "plan", "key", "name", "/address/city"],
          "startsWith": ["email", "country", "plan", "key", "name", "/address/city"],
          "contains": ["email", "country", "key", "name", "tags"],
          "matches": ["email", "country", "key", "name", "tags", "/address/city"],
          "lessThan": ["age", "/address/geo/lat", "/address/zip", "tags"],
          "lessThanOrEqual": ["age", "/address/geo/lat", "/address/zip"],
          "greaterThan": ["age", "/address/geo/lat", "tags"], "greaterThanOrEqual": ["age", "/address/geo/lat"],
          "before": ["signup", "age"], "after": ["signup", "age"], "semVerEqual": ["version", "tags"],
          "semVerLessThan": ["version"], "semVerGreaterThan": ["version", "tags"]}
VALUE_POOL = ["a", "b", "", "é", 0, 1, 1.0, 2.5, -1, True, False, None, ["x", 1], {"k": "v"}, [], {}, "東京",
              "e\u0301", 9007199254740993]


def odd_time(rng):
    """A timestamp spelled as Python's `datetime.fromisoformat` may or may not read it (see TIMES)."""
    date = rng.choice(["%04d-%02d-%02d" % (rng.randint(0, 10000), rng.randint(0, 13), rng.randint(0, 32)),
                       "%04d%02d%02d" % (rng.randint(1, 9999), rng.randint(1, 12), rng.randint(1, 31)),
                       "%04d-W%02d-%d" % (rng.randint(1, 9999), rng.randint(0, 54), rng.randint(0, 8)),
                       "%04dW%02d%d" % (rng.randint(1, 9999), rng.randint(0, 54), rng.randint(0, 8)),
                       "%04d-W%02d" % (rng.randint(1, 9999), rng.randint(0, 54))])
    hour, minute, second = ("%02d" % rng.randint(0, 25), "%02d" % rng.randint(0, 61), "%02d" % rng.randint(0, 61))
    colon = rng.choice([":", ":", ""])
    fraction = rng.choice([".", ","]) + str(rng.randint(0, 10 ** rng.randint(0, 9)))
    time = rng.choice([hour, hour + colon + minute, hour + colon + minute + colon + second,
                       hour + colon + minute + colon + second + fraction])
    zone = rng.choice(["", "Z", "z", "+00:00", "-05:30", "+0530", "+05", "+23:59:59.999999", "+24:00", "-00:00:00.5",
                       "+01:00:01.5", "+99", "+1", "Z\n", "-1200"])
    return date + rng.choice(["T", "T", " ", "t", "é", "x", "-"]) + time + zone


def odd_version(rng):
    """A version spelled as LaunchDarkly's semver parsing may or may not read it (see VERSIONS)."""
    parts = [str(rng.choice([0, 1, 2, 10, 1, 2])) for _ in range(rng.choice([1, 2, 3, 3, 3, 4]))]
    text = ".".join(parts)
    if rng.random() < 0.1:
        text = rng.choice(["v", "V", "0", " "]) + text
    if rng.random() < 0.4:
        text += "-" + ".".join(rng.choice(["alpha", "beta", "rc", "1", "2", "10", "01", "x-y", "", "0"])
                               for _ in range(rng.randint(1, 3)))
    if rng.random() < 0.2:
        text += "+" + rng.choice(["build", "b.1", "001", "", "x_y"])
    return text


def attribute_value(rng, name):
    if name == "signup" and rng.random() < 0.3:
        return odd_time(rng)
    if name == "version" and rng.random() < 0.3:
        return odd_version(rng)
    return rng.choice(ATTRIBUTES[name])


def custom_attributes(rng):
    attributes = {}
    for name in ATTRIBUTES:
        if rng.random() < PRESENCE[name]:
            attributes[name] = attribute_value(rng, name)
    return attributes


# MARK: Contexts


def individual(rng, kind):
    """A neutral description of one individual context."""
    return {"kind": kind, "key": rng.choice(KEYS) if rng.random() < 0.97 else "",
            "name": rng.choice(NAMES) if rng.random() < 0.3 else None,
            "anonymous": rng.choice([True, False]) if rng.random() < 0.2 else None,
            "attributes": custom_attributes(rng)}


def ld_individual(description):
    builder = Context.builder(description["key"]).kind(description["kind"])
    if description["name"] is not None:
        builder.name(description["name"])
    if description["anonymous"] is not None:
        builder.anonymous(description["anonymous"])
    for name, value in description["attributes"].items():
        builder.set(name, value)
    return builder.build()


def library_members(rng, description, single):
    """The attributes that describe one individual context in the library's EvaluationContext."""
    members = dict(description["attributes"])
    if description["name"] is not None:
        members["name"] = description["name"]
    elif rng.random() < 0.05:
        members["name"] = 5  # not a string: ignored
    if description["anonymous"] is not None:
        members["anonymous"] = description["anonymous"]
    elif rng.random() < 0.05:
        members["anonymous"] = "yes"  # not a Boolean: ignored
    if rng.random() < 0.05:
        members["privateAttributes"] = ["email"]  # ignored by evaluation
    if rng.random() < 0.03:
        members["_meta"] = {"privateAttributes": ["email"]}
    if single:
        if description["kind"] != "user" or rng.random() < 0.3:
            members["kind"] = description["kind"]
        elif rng.random() < 0.1:
            members["kind"] = 5  # not a string: the kind is user
    return members


def context(rng):
    """A random context: LaunchDarkly's own, its JSON, its error if invalid, and the library's form of it."""
    pick = rng.random()
    if pick < 0.62:
        kind = "user" if rng.random() < 0.7 else rng.choice(KINDS)
        if rng.random() < 0.03:
            kind = rng.choice(BAD_KINDS)
        description = individual(rng, kind)
        ld = ld_individual(description)
        attributes = library_members(rng, description, single=True)
        key = description["key"]
        style = rng.random()
        if style < 0.75:
            targeting_key = key if key != "" or rng.random() < 0.5 else None
            if key != "" and rng.random() < 0.1:
                attributes["key"] = "ignored-key"  # the targeting key wins
        else:
            targeting_key = "" if rng.random() < 0.3 else None
            attributes["key"] = key
        if rng.random() < 0.03:
            attributes["targetingKey"] = "ignored-attribute"
    else:
        count = rng.choice([1, 2, 2, 2, 3]) if rng.random() < 0.97 else 0
        kinds = rng.sample(KINDS, min(count, len(KINDS)))
        if count and rng.random() < 0.03:
            kinds[0] = rng.choice(BAD_KINDS[1:])
        descriptions = [individual(rng, kind) for kind in kinds]
        ld = Context.create_multi(*[ld_individual(d) for d in descriptions])
        attributes = {"kind": "multi"}
        for description in descriptions:
            members = library_members(rng, description, single=False)
            if rng.random() < 0.7:
                members["key"] = description["key"]
            else:
                members["targetingKey"] = description["key"]
                if description["key"] != "" and rng.random() < 0.5:
                    members["key"] = "ignored-key"  # the targeting key wins
            attributes[description["kind"]] = members
        if rng.random() < 0.2:
            attributes["loose"] = rng.choice([5, "text", ["list"], None])  # not an object: ignored
        targeting_key = rng.choice([None, "ignored-targeting-key"])
    return ld, targeting_key, attributes


# MARK: Clauses


def clause(rng, segment_keys, depth=0):
    pick = rng.random()
    if pick < 0.12 and segment_keys:
        values = [rng.choice(segment_keys + ["no-such-segment"]) for _ in range(rng.randint(1, 2))]
        if rng.random() < 0.05:
            values.append(rng.choice([5, None, True, ["seg-a"], {"k": 1}]))  # an array or object: EXCEPTION
        return {"attribute": "", "op": "segmentMatch", "values": values, "negate": rng.random() < 0.2}
    result = {}
    op = rng.choice(["in", "in", "in", "endsWith", "startsWith", "matches", "contains", "lessThan", "lessThanOrEqual",
                     "greaterThan", "greaterThanOrEqual", "before", "after", "semVerEqual", "semVerLessThan",
                     "semVerGreaterThan", "unknownOp"])
    suited = SUITED.get(op)
    if rng.random() < 0.01:
        result["attribute"] = ""  # no attribute: MALFORMED_FLAG where the clause is reached
    elif rng.random() < 0.35:
        result["contextKind"] = rng.choice(["user", "user", "org", "device", "", "nokind", "team.a_b-c"])
        if suited and rng.random() < 0.7:
            result["attribute"] = "/" + rng.choice(suited).lstrip("/") if rng.random() < 0.5 else rng.choice(suited)
        else:
            result["attribute"] = rng.choice(PATH_ATTRIBUTES)
    elif suited and rng.random() < 0.7:
        result["attribute"] = rng.choice([name for name in suited if not name.startswith("/")] or ["email"])
    else:
        result["attribute"] = rng.choice(LITERAL_ATTRIBUTES)
    result["op"] = op
    count = rng.randint(0, 3) if rng.random() < 0.05 else rng.randint(1, 3)
    result["values"] = [clause_value(rng, op, result["attribute"]) for _ in range(count)]
    if rng.random() < 0.25:
        result["negate"] = True
    elif rng.random() < 0.1:
        result["negate"] = False
    return result


def clause_value(rng, op, attribute):
    if op == "in":
        name = attribute.lstrip("/").split("/")[0]
        if name in ATTRIBUTES and rng.random() < 0.8:
            return attribute_value(rng, name)
        if attribute in ("key", "/key") and rng.random() < 0.7:
            return rng.choice(KEYS)
        if attribute in ("kind", "/kind") and rng.random() < 0.7:
            return rng.choice(KINDS)
        return rng.choice(VALUE_POOL + STRINGS + NUMBERS)
    if op in ("endsWith", "startsWith", "contains"):
        return rng.choice(STRINGS) if rng.random() < 0.9 else rng.choice(NUMBERS)
    if op == "matches":
        return rng.choice(REGEXES) if rng.random() < 0.95 else 5
    if op in ("lessThan", "lessThanOrEqual", "greaterThan", "greaterThanOrEqual"):
        if rng.random() < 0.5:
            return rng.choice([value for value in AGES if isinstance(value, (int, float))])
        return rng.choice(NUMBERS) if rng.random() < 0.85 else rng.choice(["30", True, None])
    if op in ("before", "after"):
        return odd_time(rng) if rng.random() < 0.3 else rng.choice(TIMES)
    if op.startswith("semVer"):
        return odd_version(rng) if rng.random() < 0.3 else rng.choice(VERSIONS)
    return rng.choice(VALUE_POOL)


# MARK: Flags and segments

FLAG_KEYS = ["flag-a", "flag-b", "flag-c", "flag-d", "flag-e", "flàg-f", "東京-flag", "", "flag/slash", "e\u0301"]
VARIATIONS = [True, False, 0, 1, 1.0, 2.5, -1, "on", "off", "", "é", None, [1, "a"], {"k": "v"}, [], {},
              9007199254740993, 1e-07]


def weighted_variations(rng, count):
    size = rng.randint(1, 3)
    weights = []
    remaining = 100000
    for index in range(size - 1):
        weight = rng.randint(0, remaining)
        weights.append(weight)
        remaining -= weight
    weights.append(remaining)
    shape = rng.random()
    if shape < 0.1:
        weights[-1] = max(0, weights[-1] - rng.randint(1, 50000))  # short of 100%: the last bucket takes the rest
    elif shape < 0.15:
        weights[0] += rng.randint(1, 50000)  # beyond 100%
    elif shape < 0.18:
        weights[0] = -rng.randint(1, 1000)
    variations = []
    for weight in weights:
        entry = {"variation": variation_index(rng, count), "weight": weight}
        if rng.random() < 0.15:
            entry["untracked"] = rng.random() < 0.6
        variations.append(entry)
    return variations


def variation_index(rng, count):
    if rng.random() < 0.03:
        return rng.choice([count, -1, count + 5])
    return rng.randrange(count) if count else 0


def outcome(rng, count):
    """A fixed variation or a rollout (or, rarely, neither or both)."""
    pick = rng.random()
    if pick < 0.5:
        return {"variation": variation_index(rng, count)}
    rollout = {"variations": weighted_variations(rng, count)}
    if rng.random() < 0.3:
        rollout["bucketBy"] = rng.choice(["email", "age", "country", "key", "name", "anonymous", "missing", "tags",
                                          "/address/zip", "/address/city", "//bad", "a/b", ""])
    if rng.random() < 0.3:
        rollout["contextKind"] = rng.choice(["user", "org", "device", "", "nokind"])
    if rng.random() < 0.3:
        rollout["seed"] = rng.choice([0, 1, 42, -7, 123456789, 9223372036854775807])
    if rng.random() < 0.25:
        rollout["kind"] = rng.choice(["experiment", "experiment", "rollout"])
    if rng.random() < 0.03:
        rollout["variations"] = []
    result = {"rollout": rollout}
    if rng.random() < 0.03:
        result["variation"] = variation_index(rng, count)  # both: the variation wins
    if rng.random() < 0.02:
        return {}
    return result


def segment(rng, key, segment_keys):
    result = {"key": key, "version": rng.randint(1, 50)}
    if rng.random() < 0.5:
        result["included"] = rng.sample(KEYS, rng.randint(1, 3))
    if rng.random() < 0.3:
        result["excluded"] = rng.sample(KEYS, rng.randint(1, 3))
    if rng.random() < 0.4:
        result["includedContexts"] = [{"contextKind": rng.choice(KINDS + ["", "nokind"]),
                                       "values": rng.sample(KEYS, rng.randint(1, 3))}]
    if rng.random() < 0.3:
        result["excludedContexts"] = [{"contextKind": rng.choice(KINDS + [""]),
                                       "values": rng.sample(KEYS, rng.randint(1, 3))}]
    rules = []
    for _ in range(rng.choice([0, 1, 1, 2])):
        rule = {"clauses": [clause(rng, segment_keys) for _ in range(rng.randint(1, 2))]}
        if rng.random() < 0.4:
            rule["weight"] = rng.choice([0, 1, 25000, 50000, 99999, 100000, -5])
        if rng.random() < 0.3:
            rule["bucketBy"] = rng.choice(["email", "age", "key", "/address/zip", "missing"])
        if rng.random() < 0.3:
            rule["rolloutContextKind"] = rng.choice(["user", "org", "device", ""])
        if rng.random() < 0.2:
            rule["id"] = "segment-rule-%d" % rng.randint(0, 9)
        rules.append(rule)
    if rules:
        result["rules"] = rules
    if rng.random() < 0.5:
        result["salt"] = rng.choice(["", "salt", "ünï", "a.b"])
    if rng.random() < 0.06:
        result["unbounded"] = True
        if rng.random() < 0.5:
            result["generation"] = rng.randint(1, 5)
        if rng.random() < 0.5:
            result["unboundedContextKind"] = rng.choice(KINDS)
    if rng.random() < 0.03:
        result = {"key": key, "version": 3, "deleted": True}
    return result


def flag(rng, key, flag_keys, segment_keys):
    count = rng.randint(1, 4)
    variations = rng.sample(VARIATIONS, count)
    result = {"key": key, "version": rng.randint(1, 100), "variations": variations}
    result["on"] = rng.random() < 0.85
    if rng.random() < 0.85:
        result["offVariation"] = variation_index(rng, count)
    if rng.random() < 0.6:
        result["salt"] = rng.choice(["", "salt", "a1b2c3", "ünï", "x.y"])
    if rng.random() < 0.25:
        prerequisites = []
        for _ in range(rng.randint(1, 2)):
            prerequisites.append({"key": rng.choice(flag_keys + ["no-such-prerequisite"]),
                                  "variation": rng.randrange(3)})
        result["prerequisites"] = prerequisites
    if rng.random() < 0.3:
        targets = []
        for _ in range(rng.randint(1, 2)):
            targets.append({"values": rng.sample(KEYS, rng.randint(1, 3)), "variation": variation_index(rng, count)})
        result["targets"] = targets
    if rng.random() < 0.25:
        context_targets = []
        for _ in range(rng.randint(1, 3)):
            kind = rng.choice(KINDS + [None, ""])
            entry = {"values": [] if kind in ("user", None, "") else rng.sample(KEYS, rng.randint(1, 3)),
                     "variation": variation_index(rng, count)}
            if kind is not None:
                entry["contextKind"] = kind
            context_targets.append(entry)
        result["contextTargets"] = context_targets
    rules = []
    for index in range(rng.choice([0, 1, 1, 2, 3])):
        rule = {"clauses": [clause(rng, segment_keys) for _ in range(rng.choice([1, 1, 1, 2, 3]))]}
        rule.update(outcome(rng, count))
        if rng.random() < 0.85:
            rule["id"] = rng.choice(["rule-%d" % index, "ü-%d" % index, ""])
        if rng.random() < 0.2:
            rule["trackEvents"] = rng.random() < 0.5
        rules.append(rule)
    if rules:
        result["rules"] = rules
    if rng.random() < 0.98:
        result["fallthrough"] = outcome(rng, count)
    if rng.random() < 0.1:
        result["trackEvents"] = True
        result["trackEventsFallthrough"] = rng.random() < 0.5
    if rng.random() < 0.05:
        result["clientSideAvailability"] = {"usingMobileKey": True, "usingEnvironmentId": False}
    if rng.random() < 0.03:
        result = {"key": key, "version": 7, "deleted": True}
    return result


def payload(rng):
    size = rng.randint(1, 6)
    flag_keys = rng.sample(FLAG_KEYS, size)
    segment_keys = rng.sample(["seg-a", "seg-b", "seg-c", "ségment", ""], rng.randint(0, 3))
    document = {"flags": {}, "segments": {}}
    for key in segment_keys:
        document["segments"][key] = segment(rng, key, segment_keys)
    for key in flag_keys:
        document["flags"][key] = flag(rng, key, flag_keys, segment_keys)
    if rng.random() < 0.15:
        document["flagValues"] = {"value-a": rng.choice(VARIATIONS), "value-b": rng.choice(VARIATIONS)}
    if not segment_keys and rng.random() < 0.5:
        del document["segments"]
    return document


# MARK: Evaluation

DEFAULT = "__the-callers-default__"
# Each data set is evaluated for this many contexts; only the first of its lines carries it.
CONTEXTS_PER_PAYLOAD = 4


def reason_of(detail):
    return {name: value for name, value in detail.reason.items()}


def evaluate(client, keys, live, ld_context):
    expected = {}
    flags = {}
    for key in keys:
        FLAGS.clear()
        detail = client.variation_detail(key, ld_context, DEFAULT)
        answer = {"variationIndex": detail.variation_index, "reason": reason_of(detail)}
        if detail.variation_index is not None:
            answer["value"] = detail.value
        if key not in live and not ld_context.valid:
            FLAGS.add("invalid-context-unknown-flag")
        expected[key] = answer
        if FLAGS:
            flags[key] = sorted(FLAGS)
    return expected, flags


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--cases", type=int, required=True)
    arguments = parser.parse_args()
    rng = random.Random(arguments.seed)
    # Buffered whatever PYTHONUNBUFFERED says: one write per line costs more than the evaluations.
    out = open(sys.stdout.fileno(), "wb", buffering=1 << 20, closefd=False)
    # A file in memory where there is one: writing and reopening a file per data set costs milliseconds on a disk.
    memory = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None
    folder = tempfile.mkdtemp(prefix="launchdarkly-oracle-", dir=memory)
    path = os.path.join(folder, "flags.json")
    case = 0
    try:
        while case < arguments.cases:
            document = payload(rng)
            with open(path, "w", encoding="utf-8") as file:
                file.write(json.dumps(document, ensure_ascii=False))  # dumps, not dump: json's C encoder
            config = Config(sdk_key="x", update_processor_class=Files.new_data_source(paths=[path]), send_events=False,
                            diagnostic_opt_out=True)
            client = LDClient(config=config, start_wait=5)
            if not client.is_initialized():
                raise SystemExit("the file data source did not load case %d's payload" % case)
            keys = list(document["flags"]) + list(document.get("flagValues", {})) + ["no-such-flag"]
            live = {key for key, definition in document["flags"].items() if not definition.get("deleted")}
            live.update(document.get("flagValues", {}))
            for index in range(min(CONTEXTS_PER_PAYLOAD, arguments.cases - case)):
                ld_context, targeting_key, attributes = context(rng)
                expected, flags = evaluate(client, keys, live, ld_context)
                line = {"case": case, "attributes": attributes, "context": repr(ld_context),
                        "contextError": ld_context.error, "expected": expected, "flags": flags}
                if index == 0:
                    line["payload"] = document
                if targeting_key is not None:
                    line["targetingKey"] = targeting_key
                out.write((json.dumps(line, ensure_ascii=False, allow_nan=False) + "\n").encode("utf-8"))
                case += 1
            client.close()
    finally:
        out.flush()
        if os.path.exists(path):
            os.remove(path)
        os.rmdir(folder)


if __name__ == "__main__":
    main()
