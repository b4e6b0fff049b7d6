"""flagd's own evaluator as an oracle for the library's flagd format.

    python3 flagd_oracle.py --seed 7 --cases 5000

Generates random flagd flag definitions (schema v0: flags with state, variants, defaultVariant,
JsonLogic targeting with flagd's fractional, sem_ver, starts_with and ends_with, metadata, a flag
set's metadata and $evaluators referred to with $ref) and random evaluation contexts with
random.Random(seed). It loads each definition into flagd-core (`openfeature-flagd-core` on PyPI,
the in-process evaluator of flagd's Python provider), resolves every flag for each context, and
prints one JSON object per definition-context pair:

    {"case": 0, "payload": {...}, "targetingKey": "u1", "attributes": {...},
     "expected": {"<flag>": {"value": ..., "default": false, "variant": "on", "reason": "STATIC",
                             "errorCode": null, "metadata": {...}}},
     "flags": {"<flag>": ["unknown-operator", ...]}}

`targetingKey` is absent when the context has none. `default: true` means flagd served the
caller's default (no value of its own). Each flag is resolved without a type (`_resolve` with no
flag type: what every typed resolve method does before its type check), and a flag the payload
lacks (`no-such-flag`) is resolved too. An exception that is not one of OpenFeature's errors (a
division by zero in a rule, say) is what the OpenFeature SDK reports as `GENERAL`.

The library reads flagd's evaluator closely (flagd-core's Python JsonLogic included); where it
answers otherwise by design, this script flags the flag, by watching flagd-core's own functions
(it never changes what they answer):

- unknown-operator: the targeting has an operator flagd does not know, or a $ref to an
  evaluator the payload lacks. The library rejects such a flag when it reads the payload
  (PARSE_ERROR for every context); flagd-core fails only when an evaluation reaches it.
- identity-equality: `==` or `!=` compared an array or object with itself (the same context
  value, read twice). flagd-core's JsonLogic compares arrays and objects by identity, so it
  answers true; the library's JSON values have no identity and it answers false.
"""

import argparse
import importlib
import json
import logging
import random
import sys

from openfeature.contrib.tools.flagd.core import FlagdCore
from openfeature.evaluation_context import EvaluationContext
from openfeature.exception import OpenFeatureError

# flagd-core logs each fractional or sem_ver it cannot use; the cases make many on purpose.
logging.getLogger("openfeature.contrib").setLevel(logging.CRITICAL)

# MARK: Watching flagd-core where the library answers otherwise

# The module (its package exports a function of the same name): its OPERATORS is what flagd-core passes to JsonLogic.
targeting_module = importlib.import_module("openfeature.contrib.tools.flagd.core.targeting.targeting")

FLAGS = set()

original_equals = targeting_module.OPERATORS["=="]
original_not_equals = targeting_module.OPERATORS["!="]


def same_container(a, b):
    return isinstance(a, (list, dict)) and type(a) is type(b) and a is b


def watched_equals(data=None, a=None, b=None, *rest):
    if same_container(a, b):
        FLAGS.add("identity-equality")
    return original_equals(data, a, b, *rest)


def watched_not_equals(data=None, a=None, b=None, *rest):
    if same_container(a, b):
        FLAGS.add("identity-equality")
    return original_not_equals(data, a, b, *rest)


targeting_module.OPERATORS["=="] = watched_equals
targeting_module.OPERATORS["!="] = watched_not_equals

# The operators the library knows (flagd's schema, and the JsonLogic ones flagd-core evaluates).
KNOWN = {"if", "?:", "and", "or", "filter", "map", "reduce", "all", "some", "none", "var", "missing", "missing_some",
         "==", "===", "!=", "!==", "<", "<=", ">", ">=", "!", "!!", "+", "-", "*", "/", "%", "min", "max", "in", "cat",
         "substr", "merge", "fractional", "sem_ver", "starts_with", "ends_with"}


def has_unknown_operator(logic, evaluators, seen=()):
    """Whether the library would reject this targeting: an unknown operator or an unresolved $ref."""
    if isinstance(logic, list):
        return any(has_unknown_operator(item, evaluators, seen) for item in logic)
    if not isinstance(logic, dict) or len(logic) != 1:
        return False
    (name, arguments), = logic.items()
    if name == "$ref":
        if not isinstance(arguments, str) or arguments not in evaluators or arguments in seen:
            return True
        return has_unknown_operator(evaluators[arguments], evaluators, seen + (arguments,))
    if name not in KNOWN:
        return True
    arguments = arguments if isinstance(arguments, list) else [arguments]
    if name == "reduce":
        arguments = arguments[:2]
    return any(has_unknown_operator(argument, evaluators, seen) for argument in arguments)


# MARK: Contexts

TARGETING_KEYS = ["u1", "u2", "user-42", "alice@example.com", "séed-ü", "🙂", "東京", "e\u0301", "é", "Ünïcode-id", "",
                  "0", "null"]
ATTRIBUTES = {
    "email": ["a@example.com", "ballmer@macrosoft.com", "x@test.org", "", "Ünï@côde.de", "nobody", "staff@example.com",
              42, None],
    "country": ["DE", "AT", "US", "us", "", "Ünïcode", "é", "e\u0301", 49, None, True],
    "age": [0, 17, 18, 30, 65.5, "30", "abc", True, False, None, -1, " 7 ", "1_000", "nan", "inf", "Infinity", "1e3", "١٢",
            "0x10", "", 2.5e-7],
    "version": ["1.2.3", "1.2.10", "v1.2.3", "V2.0", "1.2.3-beta", "1.2.3-beta.2", "1.2.3-beta.10", "1.2.3+build.5",
                "2.0", "2", "10.0.0", "1.0.0-rc.1", "0.9", "", "1.2.3.4", "01.2.3", "1.2-beta", "1+b", 2, 1.5, None,
                True],
    "tags": [["a", "b"], [], ["beta", "DE"], [0, "x"], ["", "beta"], [1, 2, 3], [False, "a"], "beta", None,
             [["a", 5]], ["a", 5]],
    "plan": ["free", "pro", "enterprise", "", "PRO", "on", "off", "true", "1", 1, 2.5, True, None],
    "beta": [True, False, 1, 0, "true", "", None, [], {}],
    "score": [0.1, 0.5, 0.25, 1.5, 2.0, -0.0, 0, 1e21, 3, "0.5", 0.30000000000000004],
    "user": [{"id": "u1", "tier": "gold", "n": 3}, {"id": 7, "tier": None}, {"tier": "silver", "tags": ["x"]}, {},
             {"id": "u2", "tier": "gold", "n": 2.5}],
    "items": [[{"n": 1, "name": "x"}, {"n": 5, "name": "y"}], [], [{"name": "z"}], [1, {"name": "x"}], None,
              [1, 2, 3], ["a", "b"]],
    "userId": [12345, 0, -7, 3.5, "12345", True, 9223372036854775807, -9223372036854775808, 2.0, 1e20],
}
PRESENCE = {"email": 0.7, "country": 0.7, "age": 0.6, "version": 0.6, "tags": 0.5, "plan": 0.6, "beta": 0.5,
            "score": 0.5, "user": 0.5, "items": 0.4, "userId": 0.4}


def context(rng):
    attributes = {}
    for name, values in ATTRIBUTES.items():
        if rng.random() < PRESENCE[name]:
            attributes[name] = rng.choice(values)
    if rng.random() < 0.03:
        attributes["targetingKey"] = "attribute-key"
    if rng.random() < 0.03:
        attributes["$flagd"] = {"flagKey": "spoofed"}
    targeting_key = rng.choice(TARGETING_KEYS) if rng.random() < 0.85 else None
    return targeting_key, attributes


# MARK: Rules

PATHS = ["email", "country", "age", "version", "tags", "plan", "beta", "score", "user", "user.tier", "user.id", "user.n",
         "items", "items.0.name", "items.1.n", "tags.0", "tags.length", "email.length", "missing", "missing.deep",
         "targetingKey", "$flagd.flagKey", "userId", "user.tags.0"]
STRINGS = ["DE", "AT", "us", "", "é", "e\u0301", "a", "abc", "beta", "gold", "x", "@example.com", "a@", "1", "30",
           "true", "null", "pro", "Ünï"]
NUMBERS = [0, 1, -1, 2, 5, 17, 18, 30, 1.5, 0.5, 2.0, 65.5, 100, 1e21, -0.0]


def scalar(rng):
    pick = rng.random()
    if pick < 0.45:
        return rng.choice(STRINGS)
    if pick < 0.85:
        return rng.choice(NUMBERS)
    if pick < 0.95:
        return rng.choice([True, False])
    return None


def var(rng, path=None):
    path = path or rng.choice(PATHS)
    pick = rng.random()
    if pick < 0.15:
        return {"var": [path, scalar(rng)]}
    if pick < 0.2:
        return {"var": [path]}
    return {"var": path}


def value(rng, depth):
    """An operand: a literal, a context value, or a computed one."""
    pick = rng.random()
    if depth >= 3 or pick < 0.3:
        return scalar(rng)
    if pick < 0.65:
        return var(rng)
    kind = rng.choice(["+", "-", "*", "/", "%", "min", "max", "cat", "substr", "merge", "if", "map", "filter",
                       "reduce", "array", "var-computed", "!!", "missing"])
    if kind in ("+", "*", "min", "max"):
        return {kind: [value(rng, depth + 1) for _ in range(rng.randint(0, 3))]}
    if kind in ("-", "/", "%"):
        return {kind: [value(rng, depth + 1) for _ in range(rng.choice([1, 2, 2, 2]))]}
    if kind == "cat":
        return {"cat": [value(rng, depth + 1) for _ in range(rng.randint(1, 3))]}
    if kind == "substr":
        return {"substr": [var(rng, rng.choice(["email", "country", "plan", "version"])),
                           rng.choice([0, 1, -1, -3, 2.5, "1", None, 10, -10])] + (
                   [rng.choice([1, 2, -1, 0, None, "x", 100])] if rng.random() < 0.6 else [])}
    if kind == "merge":
        return {"merge": [rng.choice([var(rng, "tags"), ["x", 1], "beta", None, []]) for _ in range(rng.randint(1, 3))]}
    if kind == "if":
        return {"if": [condition(rng, depth + 1), value(rng, depth + 1), value(rng, depth + 1)]}
    if kind == "map":
        return {"map": [var(rng, rng.choice(["items", "tags", "user"])), rng.choice(
            [{"var": "name"}, {"var": "n"}, {"var": ""}, {"*": [{"var": ""}, 2]}, {"var": 0}])]}
    if kind == "filter":
        return {"filter": [var(rng, rng.choice(["items", "tags"])), rng.choice(
            [{"var": "n"}, {">": [{"var": "n"}, 2]}, {"var": ""}, {"==": [{"var": ""}, "beta"]}])]}
    if kind == "reduce":
        return {"reduce": [var(rng, rng.choice(["items", "tags"])), rng.choice(
            [{"+": [{"var": "accumulator"}, {"var": "current.n"}]}, {"+": [{"var": "accumulator"}, {"var": "current"}]},
             {"cat": [{"var": "accumulator"}, {"var": "current"}]}]), rng.choice([0, "", 1.5, None, {"var": "age"}])]}
    if kind == "array":
        return [value(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    if kind == "var-computed":
        return {"var": {"cat": ["us", "er.", rng.choice(["tier", "id", "n"])]}}
    if kind == "!!":
        return {"!!": [value(rng, depth + 1)]}
    return {"missing": [rng.choice(PATHS) for _ in range(rng.randint(0, 3))]}


VERSION_LITERALS = ["1.2.3", "1.2.10", "2.0.0", "1.0.0-rc.1", "1.2.3-beta.2", "v1.2", "1", "1.2.3+b", "0.9.0", "bad", "",
                    2, 1.5]
SEMVER_OPS = ["=", "!=", "<", "<=", ">", ">=", "^", "~", "==", ""]


def condition(rng, depth):
    """Something tested for truth (it may be any value)."""
    if depth >= 3:
        return rng.choice([True, False, var(rng)])
    kind = rng.choice(["==", "!=", "===", "!==", "<", "<=", ">", ">=", "between", "in-list", "in-string", "starts_with",
                       "ends_with", "sem_ver", "!", "!!", "and", "or", "missing", "missing_some", "all", "some", "none",
                       "var", "timestamp", "flagKey", "arith", "substr", "same-value"])
    if kind in ("==", "!=", "===", "!==", "<", "<=", ">", ">="):
        return {kind: [value(rng, depth + 1), value(rng, depth + 1)] + ([scalar(rng)] if rng.random() < 0.05 else [])}
    if kind == "between":
        return {rng.choice(["<", "<=", ">", ">="]): [value(rng, depth + 1), var(rng, rng.choice(["age", "score"])),
                                                    rng.choice([30, 65.5, 100, None, "50"])]}
    if kind == "in-list":
        return {"in": [var(rng), [scalar(rng) for _ in range(rng.randint(0, 4))]]}
    if kind == "in-string":
        return {"in": [rng.choice(["@", "example", "", "é", True, 1, None]), var(rng, rng.choice(["email", "country", "plan"]))]}
    if kind in ("starts_with", "ends_with"):
        arguments = [var(rng, rng.choice(["email", "country", "plan", "version", "age"])),
                     rng.choice(["a", "b", "@example.com", ".com", "", "é", "e", 1, None, "Ün"])]
        if rng.random() < 0.05:
            arguments = arguments[:1] if rng.random() < 0.5 else arguments + ["x"]
        return {kind: arguments}
    if kind == "sem_ver":
        arguments = [var(rng, "version") if rng.random() < 0.8 else rng.choice(VERSION_LITERALS), rng.choice(SEMVER_OPS),
                     rng.choice(VERSION_LITERALS)]
        if rng.random() < 0.05:
            arguments = arguments[:2]
        return {"sem_ver": arguments}
    if kind == "!":
        return {"!": [condition(rng, depth + 1)]} if rng.random() < 0.7 else {"!": condition(rng, depth + 1)}
    if kind == "!!":
        return {"!!": [value(rng, depth + 1)]}
    if kind in ("and", "or"):
        return {kind: [condition(rng, depth + 1) for _ in range(rng.randint(0, 3))]}
    if kind == "missing":
        return {"!": {"missing": [rng.choice(PATHS) for _ in range(rng.randint(1, 2))]}}
    if kind == "missing_some":
        return {"missing_some": [rng.choice([0, 1, 2, "1", None]), [rng.choice(PATHS) for _ in range(rng.randint(1, 3))]]}
    if kind in ("all", "some", "none"):
        return {kind: [var(rng, rng.choice(["tags", "items", "user.tags", "email"])), rng.choice(
            [{"==": [{"var": ""}, "beta"]}, {"var": ""}, {">": [{"var": "n"}, 1]}, {"!!": [{"var": "name"}]}])]}
    if kind == "var":
        return var(rng)
    if kind == "timestamp":
        return {rng.choice([">", "<"]): [{"var": "$flagd.timestamp"}, rng.choice([1_600_000_000, 4_000_000_000])]}
    if kind == "flagKey":
        return {"==": [{"var": "$flagd.flagKey"}, rng.choice(["f0", "f1", "f2", "spoofed"])]}
    if kind == "arith":
        return {rng.choice(["==", ">", "<"]): [{rng.choice(["+", "-", "*", "/", "%"]): [var(rng, rng.choice(
            ["age", "score", "userId", "user.n"])), rng.choice([1, 2, 0, 0.5, "2", True])]}, rng.choice([0, 1, 18, 2.5])]}
    if kind == "substr":
        return {"==": [{"substr": [var(rng, "email"), rng.choice([0, -4, 1]), rng.choice([1, 3, -4])]}, rng.choice(
            ["a", ".com", "x", "b"])]}
    # The same context value on both sides: an array or object equal to itself.
    path = rng.choice(["tags", "user", "items", "country"])
    return {rng.choice(["==", "!=", "===", "!=="]): [{"var": path}, {"var": path}]}


def fractional(rng, names):
    """A fractional: with or without a bucketing value, weights or not, sometimes malformed."""
    buckets = []
    for name in rng.sample(names, min(len(names), rng.randint(1, 3))):
        pick = rng.random()
        if pick < 0.5:
            buckets.append([name, rng.choice([1, 10, 25, 50, 50, 100, 0])])
        elif pick < 0.75:
            buckets.append([name])
        elif pick < 0.8:
            buckets.append([name, rng.choice([-5, 50.0, True, "10", None, 2_147_483_647, 1_500_000_000])])
        elif pick < 0.85:
            buckets.append([name, {"+": [10, rng.choice([5, -20, 0.5])]}])
        elif pick < 0.88:
            buckets.append([{"var": "plan"}, 20])
        elif pick < 0.9:
            buckets.append(rng.choice([[], [name, 1, 2], name, [None, 10]]))
        else:
            buckets.append([name, rng.randint(1, 1000)])
    pick = rng.random()
    if pick < 0.45:
        return {"fractional": buckets}
    bucketing = rng.choice([
        {"cat": [{"var": "$flagd.flagKey"}, {"var": "email"}]}, {"var": "email"}, {"var": "userId"}, {"var": "user"},
        {"var": "beta"}, {"var": "tags"}, {"var": "missing"}, {"var": "targetingKey"}, "abc", 42, 2.5, -0.0, True,
        {"cat": [{"var": "targetingKey"}, "-salt"]}, {"var": "score"}, {"var": "age"}, {"var": "items"}])
    return {"fractional": [bucketing] + buckets}


def outcome(rng, names, depth, evaluators):
    """A rule that returns a variant's name (or null, or sometimes something else)."""
    pick = rng.random()
    if depth >= 3 or pick < 0.3:
        return outcome_leaf(rng, names)
    if pick < 0.55:
        arguments = []
        for _ in range(rng.randint(1, 3)):
            arguments += [condition(rng, depth + 1), outcome(rng, names, depth + 1, evaluators)]
        if rng.random() < 0.7:
            arguments.append(outcome(rng, names, depth + 1, evaluators))
        return {rng.choice(["if", "if", "?:"]): arguments}
    if pick < 0.75:
        return fractional(rng, names)
    if pick < 0.8 and evaluators:
        return {"$ref": rng.choice(sorted(evaluators))}
    if pick < 0.85:
        return {rng.choice(["or", "and"]): [rng.choice([None, "", var(rng, "plan"), outcome_leaf(rng, names)])
                                           for _ in range(rng.randint(1, 3))]}
    if pick < 0.9:
        return {"cat": [rng.choice(["", "o", "v"]), rng.choice([var(rng, "plan"), rng.choice(names)])]}
    if pick < 0.95:
        return value(rng, depth + 1)
    if pick < 0.955:
        return {rng.choice(["if", "cat"]): [condition(rng, depth + 1), {rng.choice(["nope", "log2", "var.x"]): [1]}, None]}
    if pick < 0.96:
        return {"$ref": rng.choice(["undefined-rule", "nope"])}
    return {"min": [var(rng, rng.choice(["age", "beta", "plan"])), rng.choice([1, True, 2.5])]}


def outcome_leaf(rng, names):
    pick = rng.random()
    if pick < 0.6:
        return rng.choice(names)
    if pick < 0.75:
        return None
    if pick < 0.85:
        return var(rng, rng.choice(["plan", "country", "beta", "user.tier", "missing", "age"]))
    return rng.choice(["", "nope", True, False, 1, 2.5, 2.0, 0, [], {}, {"a": 1, "b": 2}, ["on"]])


# MARK: Flags

VARIANT_SETS = [
    {"on": True, "off": False},
    {"true": True, "false": False},
    {"red": "#FF0000", "blue": "#0000FF", "green": "#00FF00"},
    {"free": 0, "pro": 10, "enterprise": 100},
    {"1": 1, "2.5": 2.5, "0": 0.0, "2.0": "two point oh", "2": "two"},
    {"gold": {"discount": 0.2, "tags": ["a"]}, "silver": {}, "none": []},
    {"é": "composed", "Ünïcode": "u", "e": "plain", "": "empty name"},
    {"on": "x", "off": None, "null": "the name null", "nan": 1, "inf": 2},
    {"a": 1, "b": "b", "c": True, "d": [1, 2], "e": {"k": "v"}, "f": 1.5},
]
METADATA = [{"owner": "team-a", "version": 3, "ratio": 0.5, "beta": True}, {"version": "flag"}, {}]


def flag(rng, evaluators):
    variants = dict(rng.choice(VARIANT_SETS))
    names = list(variants)
    definition = {"state": "DISABLED" if rng.random() < 0.12 else "ENABLED", "variants": variants}
    pick = rng.random()
    if pick < 0.72:
        definition["defaultVariant"] = rng.choice(names)
    elif pick < 0.8:
        definition["defaultVariant"] = None
    elif pick < 0.86:
        pass
    elif pick < 0.89:
        definition["defaultVariant"] = ""
    elif pick < 0.94:
        definition["defaultVariant"] = "not-a-variant"
    else:
        definition["defaultVariant"] = rng.choice([True, False])
    pick = rng.random()
    if pick < 0.2:
        pass
    elif pick < 0.25:
        definition["targeting"] = {}
    elif pick < 0.3 and evaluators:
        definition["targeting"] = {"$ref": rng.choice(sorted(evaluators))}
    else:
        definition["targeting"] = outcome(rng, names, 0, evaluators)
        if not isinstance(definition["targeting"], dict) or len(definition["targeting"]) != 1:
            # Targeting is an object: wrap a bare value in a rule that returns it.
            definition["targeting"] = {"if": [True, definition["targeting"]]}
    if rng.random() < 0.3:
        definition["metadata"] = dict(rng.choice(METADATA))
    return definition


def payload(rng):
    document = {"$schema": "https://flagd.dev/schema/v0/flags.json"}
    evaluators = {}
    if rng.random() < 0.35:
        for name in rng.sample(["isStaff", "is-beta", "rollout", "gold_tier"], rng.randint(1, 2)):
            evaluators[name] = rng.choice([
                {"ends_with": [{"var": "email"}, "@example.com"]},
                {"in": [{"var": "country"}, ["DE", "AT"]]},
                {"fractional": [["on", 50], ["off", 50]]},
                {"if": [{"==": [{"var": "user.tier"}, "gold"]}, "gold", None]},
                {"sem_ver": [{"var": "version"}, ">=", "1.2.0"]},
            ])
        document["$evaluators"] = evaluators
    if rng.random() < 0.4:
        document["metadata"] = {"flagSetId": "set-" + str(rng.randint(1, 3)), "version": "1", "owner": "platform"}
    document["flags"] = {f"f{i}": flag(rng, evaluators) for i in range(rng.randint(2, 5))}
    return document


# MARK: Evaluation

DEFAULT = object()


def evaluate(core, keys, targeting_key, attributes, evaluators, flags_section):
    expected = {}
    flags = {}
    for key in keys:
        FLAGS.clear()
        answer = {"value": None, "default": False, "variant": None, "reason": None, "errorCode": None, "metadata": None}
        ctx = EvaluationContext(targeting_key=targeting_key, attributes=json.loads(json.dumps(attributes)))
        try:
            result = core._resolve(key, DEFAULT, ctx, None)
            if result.value is DEFAULT:
                answer["default"] = True
            else:
                answer["value"] = result.value
            answer["variant"] = result.variant
            answer["reason"] = str(result.reason)
            answer["metadata"] = dict(result.flag_metadata)
        except OpenFeatureError as error:
            answer["default"] = True
            answer["reason"] = "ERROR"
            answer["errorCode"] = str(error.error_code)
        except Exception:
            answer["default"] = True
            answer["reason"] = "ERROR"
            answer["errorCode"] = "GENERAL"
        definition = flags_section.get(key)
        if isinstance(definition, dict) and has_unknown_operator(definition.get("targeting"), evaluators):
            FLAGS.add("unknown-operator")
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
    out = sys.stdout.buffer
    case = 0
    while case < arguments.cases:
        document = payload(rng)
        core = FlagdCore()
        core.set_flags(json.loads(json.dumps(document)))
        keys = list(document["flags"]) + ["no-such-flag"]
        evaluators = document.get("$evaluators", {})
        for _ in range(min(4, arguments.cases - case)):
            targeting_key, attributes = context(rng)
            expected, flags = evaluate(core, keys, targeting_key, attributes, evaluators, document["flags"])
            line = {"case": case, "payload": document, "attributes": attributes, "expected": expected, "flags": flags}
            if targeting_key is not None:
                line["targetingKey"] = targeting_key
            out.write((json.dumps(line, ensure_ascii=False, allow_nan=False) + "\n").encode("utf-8"))
            case += 1


if __name__ == "__main__":
    main()
