"""Firebase's server-side template evaluation as an oracle for the library's Firebase template format.

    python3 firebase_oracle.py --seed 7 --cases 5000

Generates random Remote Config server templates (named conditions with orCondition, andCondition,
true, false, percent conditions with every percentOperator, seeds and micro-percent limits at the
context's own micro-percentile, custom signal conditions with every customSignalOperator, a few
conditions that cannot be read, nesting past Firebase's depth limit; parameters of every value type
with default and conditional values and useInAppDefault, some in parameter groups) and random
evaluation contexts (randomization ids that are empty or not ASCII, custom signals spelled oddly)
with random.Random(seed). It evaluates each template for its context with firebase-admin's own
server-side evaluation (`remote_config.init_server_template(app=…, default_config=…,
template_data_json=…)` then `template.evaluate(context)`, offline: the template is passed in, and
the app's credential is google-auth's AnonymousCredentials, which never asks for a token) and
prints one JSON object per case:

    {"case": 0, "template": {...}, "targetingKey": "u1", "attributes": {...},
     "expected": {"<parameter>": {"value": "…" or null, "source": "remote", "origin": "cond:beta",
                                  "valueType": "NUMBER"}},
     "flags": {"<condition>": ["falsy-signal", ...]}}

`targetingKey` is absent when the context has none; the randomization id is the targeting key, or
the attribute `randomizationId`, as the library reads it. `value` is firebase-admin's string for the
parameter (`get_string`) when its source is `remote` (the template), else null. `origin` says where
the value came from: `cond:<name>` (a conditional value), `default` (the default value) or `in-app`
(neither: the app's default). firebase-admin reports `remote` for both of the first two, so the
origin comes from evaluating, for the same context, a copy of the template whose every value is
replaced by a tag naming where it is.

firebase-admin evaluates only the top-level `parameters`; the library serves a grouped parameter as
a top-level one. So firebase-admin evaluates a copy of the template with the groups' parameters
moved to the top level (the generator never gives two parameters one name), and a grouped
parameter's answer is what firebase-admin serves the same parameter at the top level.

The library follows Firebase's reference SDK (Node.js) where firebase-admin for Python departs
from it (Modules/FirebaseFormat/FORMAT.md, "Differences from firebase-admin for Python"). The script
watches firebase-admin's own functions (it wraps them; it never changes what they answer) and
flags each condition whose evaluation went through such a place:

- falsy-signal: a custom signal was 0, 0.0 or "". Python takes such a signal for a missing one.
- number-spelling: a numeric operator read a text that Python's float() reads otherwise than the
  library (1_000, inf, nan, digits of other scripts, other white space).
- number-text: a string or version operator read a float signal whose Python text (str) is not
  JavaScript's (2.0 is "2.0" in Python, "2" in JavaScript).
- version-spelling: a version operator read a text that Python's int()-per-segment reads otherwise
  than the library (white space or a sign inside, 1_0, digits of other scripts, more than five segments).
- trim: STRING_EXACTLY_MATCHES trimmed a text that Python's strip() trims otherwise than
  JavaScript's trim() (U+001C to U+001F, U+FEFF).

The test tolerates a difference in a parameter only when a condition that can decide it (one the
parameter has a value for, up to the later of the two answers' conditions) carries a flag.
"""

import argparse
import copy
import decimal
import hashlib
import json
import logging
import random
import re
import sys

import firebase_admin
from firebase_admin import remote_config
from google.auth.credentials import AnonymousCredentials

# firebase-admin logs each condition it cannot evaluate and each in-app default; the cases make many on purpose.
logging.getLogger(remote_config.__name__).setLevel(logging.CRITICAL)

# Evaluating a template passed in needs no token: anonymous credentials never ask for one.
APP = firebase_admin.initialize_app(
    credential=AnonymousCredentials(), options={"projectId": "oracle"}, name="firebase-oracle")

# MARK: The library's definitions, to flag where Python reads otherwise

JS_SPACE = "\t\n\x0b\x0c\r \xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
DECIMAL = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?", re.ASCII)


def js_trim(text):
    return text.strip(JS_SPACE)


def js_text(number):
    """JavaScript's String(number)."""
    if isinstance(number, int):
        return str(number) if abs(number) <= 2**53 else js_text(float(number))
    if number != number:
        return "NaN"
    if number in (float("inf"), float("-inf")):
        return "Infinity" if number > 0 else "-Infinity"
    if number == 0:
        return "0"
    if number < 0:
        return "-" + js_text(-number)
    parts = decimal.Decimal(repr(number)).normalize().as_tuple()
    digits = "".join(map(str, parts.digits))
    k = len(digits)
    n = k + parts.exponent
    if k <= n <= 21:
        return digits + "0" * (n - k)
    if 0 < n <= 21:
        return digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return "0." + "0" * (-n) + digits
    return digits[0] + ("." + digits[1:] if k > 1 else "") + "e" + ("+" if n > 0 else "-") + str(abs(n - 1))


def library_text(value):
    return value if isinstance(value, str) else js_text(value)


def library_number(text):
    trimmed = js_trim(text)
    if trimmed in ("Infinity", "+Infinity"):
        return float("inf")
    if trimmed == "-Infinity":
        return float("-inf")
    return float(trimmed) if DECIMAL.fullmatch(trimmed) else None


def python_number(text):
    try:
        number = float(text)
    except ValueError:
        return None
    return "nan" if number != number else number


def library_version(text):
    parts = js_trim(text).split(".")
    if len(parts) > 5 or not all(part and part.isascii() and part.isdigit() for part in parts):
        return None
    return normalized([int(part) for part in parts])


def python_version(text):
    try:
        parts = [int(part) for part in text.split(".")]
    except ValueError:
        return None
    return None if any(part < 0 for part in parts) else normalized(parts)


def normalized(segments):
    while segments and segments[-1] == 0:
        segments = segments[:-1]
    return segments


# MARK: Watching firebase-admin

CONDITION_NAMES = {}  # id of a named condition's tree -> its name, for the template being evaluated
CURRENT = [None]
CONDITION_FLAGS = {}  # condition name -> flags met while evaluating it

STRING_OPERATORS = {"STRING_CONTAINS", "STRING_DOES_NOT_CONTAIN", "STRING_EXACTLY_MATCHES", "STRING_CONTAINS_REGEX"}

original_evaluate_condition = remote_config._ConditionEvaluator.evaluate_condition
original_evaluate_signal = remote_config._ConditionEvaluator.evaluate_custom_signal_condition


def watched_evaluate_condition(self, condition, context, nesting_level=0):
    if nesting_level == 0:
        CURRENT[0] = CONDITION_NAMES.get(id(condition))
    return original_evaluate_condition(self, condition, context, nesting_level)


def flag(name):
    CONDITION_FLAGS.setdefault(CURRENT[0], set()).add(name)


def watched_evaluate_signal(self, signal, context):
    operator = signal.get("customSignalOperator")
    key = signal.get("customSignalKey")
    targets = signal.get("targetCustomSignalValues") or []
    actual = context.get(key) if key else None
    if operator and targets and actual is not None:
        if actual == "" or (not isinstance(actual, str) and actual == 0):
            flag("falsy-signal")
        elif operator in STRING_OPERATORS:
            if isinstance(actual, float) and str(actual) != js_text(actual):
                flag("number-text")
            if operator == "STRING_EXACTLY_MATCHES":
                texts = [library_text(actual)] + [t for t in targets if isinstance(t, str)]
                if any(text.strip() != js_trim(text) for text in texts):
                    flag("trim")
        elif operator.startswith("NUMERIC_"):
            texts = [targets[0]] + ([actual] if isinstance(actual, str) else [])
            if any(isinstance(t, str) and library_number(t) != python_number(t) for t in texts):
                flag("number-spelling")
        elif operator.startswith("SEMANTIC_VERSION_") and isinstance(targets[0], str):
            if library_version(library_text(actual)) != python_version(str(actual)):
                flag("version-spelling")
            if library_version(targets[0]) != python_version(targets[0]):
                flag("version-spelling")
    return original_evaluate_signal(self, signal, context)


remote_config._ConditionEvaluator.evaluate_condition = watched_evaluate_condition
remote_config._ConditionEvaluator.evaluate_custom_signal_condition = watched_evaluate_signal

# MARK: Random templates and contexts

SIGNAL_KEYS = ["app_version", "country", "level", "plan", "score", "région"]
RANDOMIZATION_IDS = [
    "user-1", "user-2", "ユーザー", "😀", "caf\u00e9", "cafe\u0301", " spaced id ", "a" * 80, "0", "x.y", "", None,
]
TEXTS = [
    "US", "us", "United States", " US ", "US\u00a0", "\ufeffUS", "US\x1c", "\x1fUS", "Ünïcödé", "日本", "😀 party",
    "caf\u00e9", "cafe\u0301", "beta-tester", "", "123", "a.b", "tab\tted",
]
NUMBER_TEXTS = [
    "3", " 3 ", "3.0", "-3", "+3", ".5", "5.", "1e2", "1E-2", "0", "-0", "0x10", "Infinity", "-Infinity", "inf", "nan",
    "NaN", "1_000", "", " ", "abc", "3abc", "\u00a03", "\ufeff3", "\u20083", "\u0663", "1e400", "2.5",
]
NUMBERS = [0, 3, -3, 7, 100, 2.5, 0.0, 3.0, 1e21, 1e-7, 1e16, 0.1, -2.5]
VERSION_TEXTS = [
    "1", "1.2", "1.2.3", "1.2.3.4", "1.2.3.4.5", "1.2.3.4.5.6", "01.2", "1.02", "1..2", "1.2.", ".1", "2.0.0", "10.0",
    "1.10", " 1.2 ", "1. 2", "v1.2", "1.2-beta", "1.2.3.0.0", "+1.2", "1_0.2", "\u0661.2", "99999999999999999999.1", "2",
    "-1.2", "1.2.3.4.0.0",
]
STRING_TARGETS = [
    "U", "S", "US", "States", "日", "😀", "", " US ", "e", "\u0301", "caf\u00e9", "beta", "3", "1.2", "\ufeffUS", "US\x1c",
    "united", "a.b",
]
REGEXES = [
    "^US$", "U.", "^[a-z]+$", "[0-9]+", "\\d", "^1\\.2", "(US|DE)", "a*", "^$", "😀", ".", "^.{2}$", "é", "[^a-z]",
    "S?$", "x{2,3}", "^\\d+\\.\\d+$", "[日本]",
]
NUMERIC_TARGETS = ["3", "2.5", "-3", "0", "1e2", " 4 ", ".5", "Infinity", "abc", "1_0", "", "0x10", "100", "7"]
VERSION_TARGETS = ["1", "1.2", "1.2.0", "1.10", "2", "1.2.3.4.5", "1.2.3.4.5.6", "01.02", "1..2", "1. 2", "10.0.0", "0"]
OPERATORS = {
    "string": ["STRING_CONTAINS", "STRING_DOES_NOT_CONTAIN", "STRING_EXACTLY_MATCHES", "STRING_CONTAINS_REGEX"],
    "numeric": [
        "NUMERIC_LESS_THAN", "NUMERIC_LESS_EQUAL", "NUMERIC_EQUAL", "NUMERIC_NOT_EQUAL", "NUMERIC_GREATER_THAN",
        "NUMERIC_GREATER_EQUAL",
    ],
    "version": [
        "SEMANTIC_VERSION_LESS_THAN", "SEMANTIC_VERSION_LESS_EQUAL", "SEMANTIC_VERSION_EQUAL",
        "SEMANTIC_VERSION_NOT_EQUAL", "SEMANTIC_VERSION_GREATER_THAN", "SEMANTIC_VERSION_GREATER_EQUAL",
    ],
}
SEEDS = [None, "", "seed-1", "séed", "🌱", "checkout.2024"]


def micro_percentile(seed, randomization_id):
    hashed = (seed + "." if seed else "") + randomization_id
    return int(hashlib.sha256(hashed.encode("utf-8")).hexdigest(), 16) % 100_000_000


def signal_value(rng):
    kind = rng.random()
    if kind < 0.3:
        return rng.choice(TEXTS)
    if kind < 0.5:
        return rng.choice(NUMBER_TEXTS)
    if kind < 0.7:
        return rng.choice(NUMBERS)
    return rng.choice(VERSION_TEXTS)


def context(rng):
    randomization_id = rng.choice(RANDOMIZATION_IDS)
    if rng.random() < 0.3:
        randomization_id = "".join(rng.choice("abcdef0123456789") for _ in range(12))
    signals = {key: signal_value(rng) for key in SIGNAL_KEYS if rng.random() < 0.7}
    return randomization_id, signals


def percent(rng, randomization_id):
    seed = rng.choice(SEEDS)
    own = micro_percentile(seed, randomization_id) if randomization_id else rng.randrange(100_000_000)
    limit = rng.choice([own, own - 1, own + 1, 0, 1, 99_999_999, 100_000_000, rng.randrange(100_000_000)])
    operator = rng.choice(["LESS_OR_EQUAL", "GREATER_THAN", "BETWEEN"])
    fields = {"percentOperator": operator}
    if seed is not None:
        fields["seed"] = seed
    if operator != "BETWEEN":
        if rng.random() < 0.9:
            fields["microPercent"] = limit
    else:
        lower, upper = rng.choice(
            [(own - 1, own), (own, own + 1), (own, own), (0, 100_000_000), (0, own), (own, 100_000_000)]
            + [tuple(sorted(rng.sample(range(100_000_000), 2))), (own + 5, own - 5)])
        bounds = {}
        if rng.random() < 0.9:
            bounds["microPercentLowerBound"] = lower
        if rng.random() < 0.95:
            bounds["microPercentUpperBound"] = upper
        if rng.random() < 0.95:
            fields["microPercentRange"] = bounds
    return {"percent": fields}


def custom_signal(rng):
    family = rng.choice(["string", "string", "numeric", "version"])
    operator = rng.choice(OPERATORS[family])
    if family == "string":
        pool = REGEXES if operator == "STRING_CONTAINS_REGEX" else STRING_TARGETS
        targets = rng.sample(pool, rng.randint(1, 3))
    else:
        pool = NUMERIC_TARGETS if family == "numeric" else VERSION_TARGETS
        targets = [rng.choice(pool)] + ([rng.choice(pool)] if rng.random() < 0.1 else [])
    key = rng.choice(SIGNAL_KEYS + ["missing_signal"])
    return {"customSignal": {"customSignalOperator": operator, "customSignalKey": key, "targetCustomSignalValues": targets}}


def unreadable(rng):
    """A condition firebase-admin answers false for and the library cannot read."""
    return rng.choice([
        {"customSignal": {"customSignalOperator": "STRING_STARTS_WITH", "customSignalKey": "country",
                          "targetCustomSignalValues": ["U"]}},
        {"customSignal": {"customSignalOperator": "STRING_CONTAINS", "targetCustomSignalValues": ["U"]}},
        {"customSignal": {"customSignalOperator": "NUMERIC_EQUAL", "customSignalKey": "level", "targetCustomSignalValues": []}},
        {"percent": {"microPercent": 50_000_000}},
        {"percent": {"percentOperator": "UNKNOWN", "microPercent": 50_000_000}},
        {"exotic": {}},
        {},
    ])


def tree(rng, randomization_id, depth):
    roll = rng.random()
    if depth < 7 and roll < (0.45 if depth < 5 else 0.3):
        kind = "orCondition" if rng.random() < 0.5 else "andCondition"
        children = [tree(rng, randomization_id, depth + 1) for _ in range(rng.choice([0, 1, 1, 2, 2, 3]))]
        return {kind: {"conditions": children} if children or rng.random() < 0.5 else {}}
    roll = rng.random()
    if roll < 0.06:
        return {"true": {}}
    if roll < 0.1:
        return {"false": {}}
    if roll < 0.13:
        return unreadable(rng)
    if roll < 0.45:
        return percent(rng, randomization_id)
    return custom_signal(rng)


def parameter_value(rng, value_type):
    if value_type == "BOOLEAN":
        return rng.choice(["true", "false", "TRUE", " False "])
    if value_type == "NUMBER":
        return rng.choice(["20", "-3", "0.5", "1e3", ".5", "7"])
    if value_type == "JSON":
        return rng.choice(['{"a":1}', "[1,2]", '"s"', "null", '{"nested":{"b":[true,null]}}'])
    return rng.choice(["Hello", "", "true", "日本", "😀", "20", " spaced "])


def wrapped(rng, value_type):
    return {"useInAppDefault": True} if rng.random() < 0.15 else {"value": parameter_value(rng, value_type)}


def template(rng, randomization_id):
    conditions = []
    for index in range(rng.choice([0, 1, 2, 3, 3, 4, 5, 6])):
        name = rng.choice([f"c{index}"] * 6 + ["beta users", "grüppe", "🌍"])
        if conditions and rng.random() < 0.04:
            name = rng.choice(conditions)["name"]
        if any(c["name"] == name for c in conditions) and rng.random() < 0.5:
            name = f"c{index}"
        conditions.append({"name": name, "condition": tree(rng, randomization_id, 0), "tagColor": "BLUE"})
    names = list(dict.fromkeys(c["name"] for c in conditions))
    parameters = {}
    groups = {}
    defaults = {}
    for index in range(rng.randint(1, 6)):
        key = rng.choice([f"p{index}"] * 5 + [f"größe{index}"])
        value_type = rng.choice(["STRING", "BOOLEAN", "NUMBER", "JSON", None])
        parameter = {}
        roll = rng.random()
        if roll < 0.8:
            parameter["defaultValue"] = {"value": parameter_value(rng, value_type)}
        elif roll < 0.9:
            parameter["defaultValue"] = {"useInAppDefault": True}
        elif roll < 0.95:
            parameter["defaultValue"] = {}
        if rng.random() < 0.8:
            chosen = [name for name in names if rng.random() < 0.55]
            if rng.random() < 0.1:
                chosen.append("undefined_condition")
            parameter["conditionalValues"] = {name: wrapped(rng, value_type) for name in chosen}
        if value_type is not None:
            parameter["valueType"] = value_type
        if rng.random() < 0.3:
            defaults[key] = "in-app"
        if rng.random() < 0.06:
            groups.setdefault(rng.choice(["checkout", "onboarding"]), {"parameters": {}})["parameters"][key] = parameter
        else:
            parameters[key] = parameter
    document = {"conditions": conditions, "parameters": parameters, "version": {"versionNumber": "1"}}
    if groups:
        document["parameterGroups"] = groups
    return document, defaults


# MARK: Evaluating with firebase-admin


def flattened(document):
    """The template with its groups' parameters moved to the top level, where firebase-admin evaluates them."""
    copied = copy.deepcopy(document)
    for group in copied.pop("parameterGroups", {}).values():
        copied["parameters"].update(group["parameters"])
    return copied


def tagged(document):
    """The template with every value replaced by a tag naming where it is."""
    copied = copy.deepcopy(document)
    for parameter in copied["parameters"].values():
        if "value" in parameter.get("defaultValue", {}):
            parameter["defaultValue"] = {"value": "default"}
        for name, value in parameter.get("conditionalValues", {}).items():
            if "value" in value:
                parameter["conditionalValues"][name] = {"value": "cond:" + name}
    return copied


def evaluate(document, defaults, firebase_context):
    server_template = remote_config.init_server_template(
        app=APP, default_config=defaults, template_data_json=json.dumps(document))
    CONDITION_NAMES.clear()
    for condition in server_template._cache.conditions:
        CONDITION_NAMES[id(condition.get("condition"))] = condition.get("name")
    return server_template.evaluate(firebase_context)


def run(seed, cases):
    rng = random.Random(seed)
    out = sys.stdout
    for number in range(cases):
        randomization_id, signals = context(rng)
        document, defaults = template(rng, randomization_id)
        firebase_context = dict(signals)
        if randomization_id is not None:
            firebase_context["randomization_id"] = randomization_id
        CONDITION_FLAGS.clear()
        evaluated = flattened(document)
        config = evaluate(evaluated, defaults, firebase_context)
        origins = evaluate(tagged(evaluated), defaults, firebase_context)
        expected = {}
        for key, parameter in evaluated["parameters"].items():
            source = config.get_value_source(key)
            origin = origins.get_string(key) if origins.get_value_source(key) == "remote" else "in-app"
            expected[key] = {
                "value": config.get_string(key) if source == "remote" else None, "source": source, "origin": origin,
                "valueType": parameter.get("valueType", "STRING"),
            }
        flags = {name: sorted(met) for name, met in CONDITION_FLAGS.items() if name is not None and met}
        line = {"case": number, "template": document, "attributes": {}, "expected": expected, "flags": flags}
        placement = rng.random()
        if randomization_id is not None:
            if placement < 0.6:
                line["targetingKey"] = randomization_id
            else:
                line["attributes"]["randomizationId"] = randomization_id
                if placement < 0.8:
                    line["targetingKey"] = "decoy-targeting-key"
        line["attributes"].update(signals)
        out.write(json.dumps(line, ensure_ascii=False) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--cases", type=int, default=5000)
    arguments = parser.parse_args()
    run(arguments.seed, arguments.cases)


if __name__ == "__main__":
    main()
