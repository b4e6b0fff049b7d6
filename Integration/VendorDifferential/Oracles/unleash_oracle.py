#!/usr/bin/env python3
"""Unleash's own engine as an oracle for UnleashDifferentialTests.swift.

    python3 unleash_oracle.py --seed S --cases N

generates random but valid Unleash client-features payloads and contexts with
random.Random(S), evaluates every feature of every payload for every context with
Yggdrasil (the `yggdrasil-engine` package that `UnleashClient` installs), and prints
one JSON object per payload:

    {"case": i, "payload": {...}, "contexts": [...], "expected": [{flag: answer}, ...]}

`expected[k]` holds the answers for `contexts[k]`. A case, as counted by --cases, is one
payload-context pair. An answer is:

    enabled         is_enabled
    variant         the variant's name ("disabled" when none)
    payload         the variant's payload {"type", "value"}, or null
    variantEnabled  the variant's `enabled`
    randomEnabled   whether is_enabled depends on a random draw for this context
    randomVariant   whether the variant depends on a random draw for this context

Random draws (gradualRolloutRandom, "random" stickiness, "default" stickiness without a
userId or sessionId, a stickiness field the context lacks) cannot be compared by value: the
Swift side checks invariants there.

Payloads are valid for Unleash's schema and compile in the engine; their values and contexts
aim at the edges (empty, spaced, non-ASCII, numbers as text, boundary dates and versions), and
half the context values are ones the payload names. The engine, as the Python SDK embeds it,
has no host name, so applicationHostname is always off; the generated host names never
include the one the Swift side passes.

Only the engine is imported; everything else is the standard library. Evaluation is
offline: the payload is handed to the engine directly.
"""

import argparse
import json
import logging
import random

from yggdrasil_engine.engine import UnleashEngine

CONTEXTS_PER_PAYLOAD = 5

# Context fields with a place of their own in Unleash's context; every other name is a custom property.
STANDARD_FIELDS = ["userId", "sessionId", "remoteAddress", "environment", "appName", "currentTime"]
CUSTOM_FIELDS = ["tier", "country", "appVersion", "score", "signup", "ünïcode", "plan id"]

# Ids and strings: empty, spaced, non-ASCII (composed and decomposed é, which compare unequal as bytes),
# numbers written as text, a final sigma (which lower-cases to ς).
IDS = [
    "u1", "user-42", "42", "", " ", "a b", " u1", "\u00a0u1", "ü", "ユーザー", "🙂", "\u00e9", "e\u0301", "ΟΔΟΣ", "Ab",
    "0x10", " 42", "1.2.3", "vip", "qa-1",
]
STRINGS = [
    "DE", "de", "De", "FR", "", " ", " DE", "DE ", "ü", "Ü", "straße", "STRASSE", "ΟΔΟΣ", "οδος", "\u00e9",
    "e\u0301", "É", "🙂", "a,b", "beta", "BETA-1", "1.2.3-beta.10", "1.2.3", "0x10", " 42", "42", "İstanbul",
]
# Strings where byte-wise and character-wise comparison, or Rust's and others' lower-casing, part ways.
TRICKY = ["ΟΔΟΣ", "ΣΑΣ Σ", "e\u0301", "E\u0301te", "\u00e9", "İstanbul", "straße", "ǅ", "ﬀ", "🙂x"]
SUBSTRINGS = ["D", "d", "E", "", " ", " 1.2", "1.2", "beta", "BETA", "ü", "Ü", "σ", "ς", "Σ", "e", "\u0301", "🙂", "İ", "i"]

CONSTRAINT_NUMBERS = ["0", "1", "42", "-3", "2.5", "1e3", "16", "100", "0.1", "+7", "42.", "-0", "1E2", " 42"]
CONTEXT_NUMBERS = [
    "0", "1", "42", " 42", "42 ", "0x10", "16", "1e3", "1000", "2.5", "-3", "+7", ".5", "42.", "inf", "NaN",
    "abc", "", "4.2e1", "1_000", "٤٢", "-0", "1E2", "0.1", "1e400", "-Infinity", "+nan", "0.1e1", "1.e1", ".", "e3",
]

# Constraint dates follow Unleash's strict form; contexts use the looser forms SDKs accept.
# None is near the present, so a missing currentTime (the time of evaluation) compares alike.
CONSTRAINT_DATES = [
    "2010-05-06T08:00:00.000Z", "2010-05-06T08:00:00Z", "2050-01-01T00:00:00Z", "2015-06-30T23:59:59+02:00",
    "2049-12-31T23:00:00-05:30", "2005-01-01T12:00:00.500Z",
]
CONTEXT_DATES = [
    "2010-05-06T08:00:00Z", "2010-05-06T08:00:01Z", "2010-05-06T07:59:59.999Z", "2010-05-06T08:00:00.000Z",
    "2010-05-06T10:00:00+02:00", "2010-05-06T10:00:01+0200", "2010-05-06 08:00:01Z", "2010-05-06t08:00:01z",
    "2010-05-06T08:00:00.5Z", "2010-05-06T08:00:00.123456789Z", " 2010-05-06T08:00:01Z", "2010-05-06T08:00:01 UTC",
    "2050-01-01T00:00:01Z", "2049-12-31T23:59:59Z", "2015-06-30T21:59:59Z", "2015-06-30T21:59:58Z", "2001-01-01T00:00:00Z",
    "2060-01-01T00:00:00Z", "2010-05-06", "2010-05-06T08:00:01", "yesterday", "", "2010-5-6T8:0:1Z",
    "2010-05-06T07:59:60Z", "2010-05-06T08:00:00-00:00", "2010-05-06T08:00:00+24:00", "2010-05-06T08:00:00 +02 : 00",
    "2010-05-06T08:00:00,5Z", "2010-05-06T08:00:00.Z", "2010-02-30T08:00:00Z", "+2010-05-06T08:00:01Z",
]

CONSTRAINT_VERSIONS = [
    "1.2.3", "2.0.0-beta.2", "2.0.0-beta.11", "1.0.0-rc.1", "2.0.0", "0.0.1", "1.2.3+build.5", "10.0.0",
    "1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-0", " 1.2.3", "v1.2.3",
]
CONTEXT_VERSIONS = [
    "1.2.3", " 1.2.3", "1.2.3 ", "v1.2.3", "2.0.0-beta.11", "2.0.0", "1.2", "01.2.3", "1.2.3-01", "1.2.3+b7",
    "1.2.3-", "2.0.0-rc.1", "10.0.0", "", "abc", "1.0.0-alpha.beta", "1.0.0-alpha", "2.0.0-beta.2", "1.2.3+build.5",
    "0.0.1", "1.0.0-0", "1.0.0-rc.1+b", "1.0.0-99999999999999999999", "18446744073709551615.0.0", "1.0.0-rc.01",
]

REGEXES = [
    "^a", "b$", "\\d+", "^[A-Z]{2}$", "é", "(foo|bar)", ".*", "^$", "^ü", "beta", "^\\s", "[0-9]+\\.[0-9]+",
    "^de$", "ς", "straße", "^.$", "(open", "a(?=b)", "[z-a]",
]

CIDRS = [
    "10.0.0.0/8", "10.0.0.1/32", "192.168.1.0/24", "2001:db8::/32", "::ffff:10.0.0.0/104", "10.0.0.1",
    " 10.0.0.0/8", "fe80::1", "0.0.0.0/0", "::/0", "10.0.0.0/255.0.0.0", "not-an-ip", "10.0.0.0/33", "10.1.2.3/16",
    "10.0.0.0/08", "10.0.0.0/+8", "2001:DB8::/32", "::1.2.3.4", "10.0.0.0/255.0.255.0", "",
]
ADDRESSES = [
    "10.0.0.1", "10.1.2.3", "192.168.1.7", "11.0.0.1", "2001:db8::1", "2001:db9::1", "::ffff:10.0.0.1", "fe80::1",
    " 10.0.0.1", "010.0.0.1", "::1", "", "not-an-ip", "10.0.0.256", "::ffff:192.168.1.7", "10.0.0.1 ",
    "2001:DB8::1", "::", "1:2:3:4:5:6:7:8", "::1.2.3.4", "1::2::3", "2001:db8::1%eth0",
]

HOST_NAMES = ["diff-host", "", "localhost", "DIFF-HOST", "api-1"]
ENVIRONMENTS = ["production", "dev", "", "Production"]
APP_NAMES = ["ios", "web", "", "Ü-app"]

# The values each context field is drawn from (custom properties and the fixed fields alike).
FIELD_VALUES = {
    "userId": IDS, "sessionId": IDS, "remoteAddress": ADDRESSES, "environment": ENVIRONMENTS, "appName": APP_NAMES,
    "currentTime": CONTEXT_DATES, "tier": STRINGS + ADDRESSES + TRICKY, "country": STRINGS + TRICKY * 2,
    "appVersion": CONTEXT_VERSIONS, "score": CONTEXT_NUMBERS, "signup": CONTEXT_DATES, "ünïcode": STRINGS, "plan id": IDS,
    "random": IDS,
}


FEATURE_NAMES = ["checkout", "new.ui", "dark-mode", "Ünïcode-flag", "パリティ", "beta_banner", "search", "a"]
GROUP_IDS = ["checkout", "grp", "Ünï", "", "g 1"]
VARIANT_NAMES = ["red", "green", "blue", "A", "b", "ü-variant", "control"]
STICKINESSES = [
    "default", "default", "default", "userId", "userId", "sessionId", "random", "tier", "country", "appName", "environment",
    "remoteAddress", "",
]

STRING_OPERATORS = ["IN", "NOT_IN", "STR_STARTS_WITH", "STR_ENDS_WITH", "STR_CONTAINS"]
NUMBER_OPERATORS = ["NUM_EQ", "NUM_GT", "NUM_GTE", "NUM_LT", "NUM_LTE"]
DATE_OPERATORS = ["DATE_AFTER", "DATE_BEFORE"]
VERSION_OPERATORS = ["SEMVER_EQ", "SEMVER_GT", "SEMVER_GTE", "SEMVER_LT", "SEMVER_LTE"]
ALL_OPERATORS = STRING_OPERATORS + NUMBER_OPERATORS + DATE_OPERATORS + VERSION_OPERATORS + ["REGEX", "IN_CIDR"]


# ---------------------------------------------------------------------------------------------
# Payloads


def maybe(rng, probability):
    return rng.random() < probability


def percentage(rng, whole_numbers_up_to=100):
    """Mostly a whole number from 0 to 100 (for gradualRolloutRandom, beyond); rarely one Yggdrasil reads as off."""
    if maybe(rng, 0.05):
        return rng.choice(["12.5", "", " 50", "+50", "050", "abc", "-5"])
    return str(rng.choice([0, 100, rng.randint(0, 100), rng.randint(1, 99), rng.randint(0, whole_numbers_up_to)]))


def group_id_into(rng, parameters):
    """groupId present, empty or absent."""
    choice = rng.random()
    if choice < 0.5:
        parameters["groupId"] = rng.choice(GROUP_IDS)
    elif choice < 0.65:
        parameters["groupId"] = ""


def near_value(rng, field):
    """A value for IN or NOT_IN: one the field may hold, or the same in another case or with a space."""
    text = rng.choice(FIELD_VALUES[field])
    return rng.choice([text, text, text.upper(), text.lower(), " " + text, text + " "])


def fragment(rng, operator, field):
    """A value for a STR_ operator: mostly a piece of a value the field may hold (cut between code
    points, so "e" + combining accent gives "e"), sometimes in another case; else any short string."""
    if maybe(rng, 0.3):
        return rng.choice(SUBSTRINGS)
    text = rng.choice(FIELD_VALUES[field])
    start, end = sorted(rng.randint(0, len(text)) for _ in range(2))
    if operator == "STR_STARTS_WITH":
        start = 0
    elif operator == "STR_ENDS_WITH":
        end = len(text)
    piece = text[start:end]
    return rng.choice([piece, piece, piece.upper(), piece.lower()])


def constraint(rng):
    operator = rng.choice(ALL_OPERATORS)
    result = {"operator": operator}
    if operator in STRING_OPERATORS:
        field = rng.choice(CUSTOM_FIELDS[:3] + ["userId", "sessionId", "environment", "appName"])
        result["contextName"] = field
        if operator in ["IN", "NOT_IN"]:
            values = [near_value(rng, field) for _ in range(rng.randint(0, 3))]
        else:
            values = [fragment(rng, operator, field) for _ in range(rng.randint(1, 3))]
        if operator in ["IN", "NOT_IN"] and maybe(rng, 0.05):
            result["value"] = rng.choice(STRINGS)  # a single value, which IN and NOT_IN do not read
        else:
            result["values"] = values
    elif operator in NUMBER_OPERATORS:
        result["contextName"] = "score"
        result["value"] = rng.choice(CONSTRAINT_NUMBERS)
    elif operator in DATE_OPERATORS:
        result["contextName"] = rng.choice(["currentTime", "currentTime", "signup"])
        result["value"] = rng.choice(CONSTRAINT_DATES)
    elif operator in VERSION_OPERATORS:
        result["contextName"] = "appVersion"
        result["value"] = rng.choice(CONSTRAINT_VERSIONS)
    elif operator == "REGEX":
        result["contextName"] = rng.choice(["country", "tier", "userId"])
        if maybe(rng, 0.95):
            result["value"] = rng.choice(REGEXES)
    else:
        result["contextName"] = rng.choice(["remoteAddress", "remoteAddress", "tier"])
        result["values"] = [rng.choice(CIDRS) for _ in range(rng.randint(1, 3))]
    if maybe(rng, 0.3):
        result["inverted"] = True
    if maybe(rng, 0.5 if operator in STRING_OPERATORS + ["REGEX"] else 0.2):
        result["caseInsensitive"] = True
    return result


def payload_value(rng):
    kind = rng.choice(["string", "json", "csv", "number"])
    if kind == "string":
        value = rng.choice(["on", "", "ü ünïcode", "{not json}", "🙂"])
    elif kind == "json":
        value = rng.choice(['{"color": "#0057ff", "size": 2}', "[1, 2, 3]", '"text"', "true", "null", '{"ü": [1.5, null]}'])
    elif kind == "csv":
        value = rng.choice(["a,b,c", "1;2", ""])
    else:
        value = rng.choice(["3", "2.5", "-1", "0", "1e3", "42"])
    return {"type": kind, "value": value}


def variants(rng, feature_level):
    """0 to 3 variants; weights may be 0 but never all (Yggdrasil cannot divide by a total of 0)."""
    count = rng.choice([0, 1, 2, 2, 3, 3])
    names = rng.sample(VARIANT_NAMES, count)
    stickiness = rng.choice(STICKINESSES) if maybe(rng, 0.8) else None
    result = []
    for name in names:
        variant = {"name": name, "weight": rng.choice([0, 1, 50, 100, 333, 500])}
        if feature_level:
            variant["weightType"] = "variable"
        if stickiness is not None:
            variant["stickiness"] = stickiness
        if maybe(rng, 0.7):
            variant["payload"] = payload_value(rng)
        if feature_level and maybe(rng, 0.25):
            field = rng.choice(["userId", "sessionId", "tier", "appName"])
            variant["overrides"] = [{"contextName": field, "values": rng.sample(IDS, 2)}]
        result.append(variant)
    if result and all(variant["weight"] == 0 for variant in result):
        result[0]["weight"] = 1
    return result


def strategy(rng, segment_ids):
    name = rng.choice([
        "default", "userWithId", "gradualRolloutUserId", "gradualRolloutSessionId", "gradualRolloutRandom",
        "flexibleRollout", "flexibleRollout", "flexibleRollout", "remoteAddress", "applicationHostname",
        "myCustomStrategy",
    ])
    parameters = {}
    if name == "userWithId":
        separator = rng.choice([",", ", ", " , "])
        parameters["userIds"] = separator.join(rng.choice([i for i in IDS if "," not in i]) for _ in range(rng.randint(0, 3)))
    elif name in ["gradualRolloutUserId", "gradualRolloutSessionId"]:
        parameters["percentage"] = percentage(rng)
        group_id_into(rng, parameters)
    elif name == "gradualRolloutRandom":
        parameters["percentage"] = percentage(rng, whole_numbers_up_to=150)
    elif name == "flexibleRollout":
        parameters["rollout"] = percentage(rng)
        if maybe(rng, 0.85):
            parameters["stickiness"] = rng.choice(STICKINESSES + ["default", "userId"])
        group_id_into(rng, parameters)
    elif name == "remoteAddress":
        parameters["IPs"] = rng.choice([",", ", "]).join(rng.choice(CIDRS) for _ in range(rng.randint(1, 3)))
    elif name == "applicationHostname":
        parameters["hostNames"] = ", ".join(rng.choice(HOST_NAMES) for _ in range(rng.randint(1, 2)))
    result = {"name": name, "parameters": parameters}
    result["constraints"] = [constraint(rng) for _ in range(rng.choice([0, 0, 1, 1, 2]))]
    if segment_ids and maybe(rng, 0.3):
        result["segments"] = rng.sample(segment_ids, 1)
    if maybe(rng, 0.35):
        result["variants"] = variants(rng, feature_level=False)
    return result


def dependency(rng, parent):
    result = {"feature": parent["name"]}
    choice = rng.random()
    if choice < 0.3:
        result["enabled"] = False
    elif choice < 0.6:
        result["enabled"] = True
    if maybe(rng, 0.4):
        known = [variant["name"] for variant in parent.get("variants", [])]
        result["variants"] = rng.sample(known + ["x", "disabled"], rng.randint(0, min(2, len(known) + 2)))
    return result


def payload(rng):
    segments = []
    for segment_id in rng.sample(range(1, 50), rng.randint(0, 2)):
        constraints = [constraint(rng) for _ in range(rng.randint(1, 2))]
        segments.append({"id": segment_id, "name": "segment %d" % segment_id, "constraints": constraints})
    segment_ids = [segment["id"] for segment in segments]
    features = []
    for name in rng.sample(FEATURE_NAMES, rng.randint(1, 4)):
        feature = {
            "name": name,
            "type": "release",
            "enabled": maybe(rng, 0.9),
            "stale": False,
            "impressionData": False,
            "strategies": [strategy(rng, segment_ids) for _ in range(rng.choice([0, 1, 1, 2, 3]))],
            "variants": variants(rng, feature_level=True),
        }
        if features and maybe(rng, 0.45):
            feature["dependencies"] = [dependency(rng, rng.choice(features))]
        elif maybe(rng, 0.05):
            feature["dependencies"] = [{"feature": "missing-parent"}]
        features.append(feature)
    return {"version": 2, "features": features, "segments": segments}


def values_named(state):
    """The strings the payload compares each context field with: constraint values, override values and user ids."""
    named = {}
    constraints = [c for segment in state["segments"] for c in segment["constraints"]]
    for feature in state["features"]:
        for strategy in feature["strategies"]:
            constraints += strategy["constraints"]
            if "userIds" in strategy["parameters"]:
                named.setdefault("userId", []).extend(i.strip() for i in strategy["parameters"]["userIds"].split(","))
        for variant in feature["variants"]:
            for override in variant.get("overrides", []):
                named.setdefault(override["contextName"], []).extend(override["values"])
    for c in constraints:
        texts = c.get("values", []) + ([c["value"]] if "value" in c else [])
        named.setdefault(c["contextName"], []).extend(text for text in texts if isinstance(text, str))
    return named


def field_value(rng, field, named):
    """Half the time a value the payload names for the field (or it in another case), else one from the field's pool."""
    if named.get(field) and maybe(rng, 0.5):
        text = rng.choice(named[field])
        return rng.choice([text, text, text.upper(), text.lower()])
    return rng.choice(FIELD_VALUES[field])


def context(rng, named):
    result = {}
    for field, probability in [
        ("userId", 0.75), ("sessionId", 0.5), ("remoteAddress", 0.5), ("environment", 0.5), ("appName", 0.5),
        ("currentTime", 0.6),
    ]:
        if maybe(rng, probability):
            result[field] = field_value(rng, field, named)
    properties = {}
    for field in CUSTOM_FIELDS + ["random"]:
        if maybe(rng, 0.1 if field == "random" else 0.6):
            properties[field] = field_value(rng, field, named)
    if properties:
        result["properties"] = properties
    return result


# ---------------------------------------------------------------------------------------------
# Which answers depend on a random draw (conservatively: a draw that might not decide still counts)


def field_present(name, ctx):
    if name in STANDARD_FIELDS:
        return name in ctx
    return name in ctx.get("properties", {})


def whole_number(text):
    """A percentage as Yggdrasil reads it: an unsigned whole number, else None."""
    digits = text[1:] if text.startswith("+") else text
    return int(digits) if digits.isascii() and digits.isdigit() else None


def rollout_draws(strategy, ctx):
    parameters = strategy.get("parameters", {})
    if strategy["name"] == "gradualRolloutRandom":
        value = whole_number(parameters.get("percentage", ""))
        return value is not None and 2 <= value <= 99  # on when a draw from 1 to 99 is below it
    if strategy["name"] == "flexibleRollout":
        value = whole_number(parameters.get("rollout", ""))
        stickiness = parameters.get("stickiness", "default")
        if value is None or not 1 <= value <= 99:
            return False
        if stickiness == "random":
            return True
        return stickiness == "default" and "userId" not in ctx and "sessionId" not in ctx
    return False


def variant_list_draws(variant_list, stickiness, ctx):
    if sum(1 for variant in variant_list if variant["weight"] > 0) < 2:
        return False
    if stickiness in (None, "default"):
        return "userId" not in ctx and "sessionId" not in ctx
    return not field_present(stickiness, ctx)


def variant_lists(feature):
    """Every variant list the feature may serve from, with the stickiness it is hashed on."""
    lists = [(feature.get("variants", []), (feature.get("variants") or [{}])[0].get("stickiness"))]
    for strategy in feature["strategies"]:
        if strategy.get("variants"):
            lists.append((strategy["variants"], strategy.get("parameters", {}).get("stickiness", "default")))
    return lists


def enabled_draws(feature, ctx, features):
    if any(rollout_draws(strategy, ctx) for strategy in feature["strategies"]):
        return True
    for dependency in feature.get("dependencies", []):
        parent = features.get(dependency["feature"])
        if parent is None:
            continue
        if enabled_draws(parent, ctx, features):
            return True
        if dependency.get("variants") and any(variant_list_draws(v, s, ctx) for v, s in variant_lists(parent)):
            return True
    return False


def variant_draws(feature, ctx, features):
    if enabled_draws(feature, ctx, features):
        return True
    return any(variant_list_draws(v, s, ctx) for v, s in variant_lists(feature))


# ---------------------------------------------------------------------------------------------
# Evaluation


class EngineComplaint(logging.Handler):
    """The engine's Python wrapper logs, and answers "disabled", when the engine fails: count those."""

    def __init__(self):
        super().__init__(level=logging.WARNING)
        self.messages = []

    def emit(self, record):
        self.messages.append(record.getMessage())


def evaluate(engine, feature, ctx, features):
    toggle = engine.check_enabled(feature["name"], ctx)
    variant = engine.check_variant(feature["name"], ctx).variant
    if not toggle.is_found:
        raise SystemExit("the engine does not know feature %r" % feature["name"])
    return {
        "enabled": toggle.is_enabled,
        "variant": variant.name,
        "payload": variant.payload,
        "variantEnabled": variant.enabled,
        "randomEnabled": enabled_draws(feature, ctx, features),
        "randomVariant": variant_draws(feature, ctx, features),
    }


def main():
    arguments = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    arguments.add_argument("--seed", type=int, required=True)
    arguments.add_argument("--cases", type=int, required=True, help="payload-context pairs")
    options = arguments.parse_args()

    complaints = EngineComplaint()
    logging.getLogger("yggdrasil_engine").addHandler(complaints)
    logging.getLogger("yggdrasil_engine").propagate = False

    rng = random.Random(options.seed)
    engine = UnleashEngine()
    written = 0
    index = 0
    while written < options.cases:
        state = payload(rng)
        named = values_named(state)
        contexts = [context(rng, named) for _ in range(min(CONTEXTS_PER_PAYLOAD, options.cases - written))]
        engine.take_state(json.dumps(state))
        features = {feature["name"]: feature for feature in state["features"]}
        expected = [{name: evaluate(engine, feature, ctx, features) for name, feature in features.items()} for ctx in contexts]
        if complaints.messages:
            raise SystemExit("the engine failed on case %d: %s\n%s" % (index, complaints.messages[0], json.dumps(state)))
        print(json.dumps({"case": index, "payload": state, "contexts": contexts, "expected": expected}, ensure_ascii=False))
        written += len(contexts)
        index += 1


if __name__ == "__main__":
    main()
