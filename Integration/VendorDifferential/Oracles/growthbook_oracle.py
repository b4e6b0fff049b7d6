"""GrowthBook's own engine as an oracle for the library's GrowthBook format.

    python3 growthbook_oracle.py --seed 7 --cases 5000

Generates random but valid GrowthBook SDK payloads (features and saved groups) and contexts with
random.Random(seed), evaluates every feature of each payload for each context with GrowthBook's
Python SDK (the `growthbook` package, offline: the payload is passed in directly), and prints one
JSON object per payload-context pair:

    {"case": 0, "payload": {...}, "attributes": {...}, "targetingKey": true,
     "expected": {"<feature>": {"value", "source", "ruleId", "on", "inExperiment", "variationId",
                                "variationKey", "hashUsed", "bucket"}},
     "flags": {"<feature>": ["typed-compare", ...]}}

`targetingKey` asks the library side to pass the string `id` as the context's targeting key
rather than as an attribute (both must give the same answers).

GrowthBook's JavaScript SDK is the reference, and the Python SDK differs from it in a few places.
The script watches the Python SDK's own functions (it wraps them; it never changes what they
answer) and lists, per feature, each such place the evaluation went through:

- typed-compare: a condition compared values of different types (a string with a number, a
  boolean with a number, a number with a version, a regular expression with a non-string).
  Python answers false; JavaScript converts the values as its operators do.
- hash-value: an attribute to hash held a value JavaScript hashes and Python does not (true, an
  array, an object): Python leaves the context out, JavaScript hashes the value's text.
- elemmatch-falsy: `$elemMatch` met an array element 0, "" or false. JavaScript skips such
  elements; Python tests them.
- rollout-fallback: a force rule's rollout hashed its `fallbackAttribute`. JavaScript uses the
  fallback only with sticky bucketing (which these cases do not use); Python always does.
- coverage-boundary: a force rule's bucket equals its `coverage`. JavaScript includes the context
  (`bucket <= coverage`); Python does not (`bucket < coverage`).
- empty-meta-key: the assigned variation's meta `key` is "". JavaScript names the variation by its
  index then (`meta.key || index`); Python names it "".
"""

import argparse
import json
import logging
import random
import sys

from growthbook import GrowthBook
import growthbook.core as core

# MARK: Watching the Python SDK where it differs from the JavaScript SDK

FLAGS = set()


def js_truthy(value):
    """JavaScript's `!!value` for a JSON value."""
    if value is None or value is False:
        return False
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value != 0
    if isinstance(value, str):
        return value != ""
    return True


original_eval_condition_value = core._eval_condition_value
original_eval_operator_condition = core._eval_operator_condition
original_is_hashable = core._is_hashable
original_is_included_in_rollout = core._isIncludedInRollout

# Operators Python answers false for on values that are not both numbers or both strings.
COMPARISONS = ("$lt", "$lte", "$gt", "$gte", "$veq", "$vne", "$vlt", "$vlte", "$vgt", "$vgte")


def watched_eval_condition_value(conditionValue, attributeValue, savedGroups, insensitive=False, visited=None):
    if not core.isOperatorObject(conditionValue):
        kind = core.getType(conditionValue)
        if kind in ("string", "number", "boolean") and kind != core.getType(attributeValue):
            FLAGS.add("typed-compare")
    return original_eval_condition_value(conditionValue, attributeValue, savedGroups, insensitive, visited)


def watched_eval_operator_condition(operator, attributeValue, conditionValue, savedGroups, visited=None):
    if operator in COMPARISONS and not core._is_orderable(attributeValue, conditionValue):
        FLAGS.add("typed-compare")
    if operator in ("$regex", "$regexi") and not isinstance(attributeValue, str):
        FLAGS.add("typed-compare")
    if operator == "$elemMatch" and isinstance(attributeValue, list):
        if any(item is not None and not js_truthy(item) for item in attributeValue):
            FLAGS.add("elemmatch-falsy")
    return original_eval_operator_condition(operator, attributeValue, conditionValue, savedGroups, visited)


def watched_is_hashable(value):
    hashable = original_is_hashable(value)
    if not hashable and js_truthy(value):
        FLAGS.add("hash-value")
    return hashable


def watched_is_included_in_rollout(seed, eval_context, hashAttribute=None, fallbackAttribute=None, range=None,
                                   coverage=None, hashVersion=None):
    if coverage is not None or range is not None:
        used, value = core._getOrigHashValue(eval_context, hashAttribute, fallbackAttribute)
        if fallbackAttribute and used == fallbackAttribute and used != (hashAttribute or "id"):
            FLAGS.add("rollout-fallback")
        if range is None and coverage:
            bucket = core.gbhash(seed, core._hash_string(value), hashVersion or 1) if value != "" else None
            if bucket is not None and bucket == coverage:
                FLAGS.add("coverage-boundary")
    return original_is_included_in_rollout(seed, eval_context, hashAttribute, fallbackAttribute, range, coverage,
                                           hashVersion)


core._eval_condition_value = watched_eval_condition_value
core._eval_operator_condition = watched_eval_operator_condition
core._is_hashable = watched_is_hashable
core._isIncludedInRollout = watched_is_included_in_rollout

# The SDK logs unknown and cyclic prerequisites, which the cases make on purpose.
logging.getLogger("growthbook").setLevel(logging.CRITICAL)

# MARK: Values

STRINGS = ["DE", "AT", "us", "US", "", "é", "e\u0301", "Ünïcode", "🙂", "a,b", "null", "true", "5", "10",
           "1.5", " 7 ", "0x10", "abc", "Straße", "İstanbul", "u1", "u2", "beta"]
NUMBERS = [0, 1, -1, 5, 7, 10, 1.5, 0.1, 3.0, 2.5e-7, 1e21, 123456789012, 9007199254740993]
VERSIONS = ["1.2.3", "1.2.10", "v1.2.3", "1.2.3-beta", "1.2.3-beta.2", "1.2.3+build.5", "2.0", "10.0.0",
            "1.0.0-rc.1", "0.9", "", "1.2.3.4", "v2"]
IDS = ["u1", "u2", "user-42", "", "🙂", "séed-ü", "Ünïcode-id", "e\u0301", "東京", 42, 7.5, 0, 9007199254740993,
       True, False, None, ["a", "b"], {"k": 1}]
REGEXES = ["^D", "E$", "[0-9]+", "^(DE|AT)$", "b", "^$", "ü", "^\\s*7", "x|y", "^[a-z]+$", "Ab?c", "nul",
           "^u\\d$", "^u", "e", "^[A-Z]{2}$", "\\.", "^1\\.2", "-beta", "@"]
SEEDS = ["", "s1", "checkout", "séed-ü", "🙂", "种子"]
GROUPS = {"grp_ids": ["u1", "user-42", 42, "🙂"], "grp_countries": ["DE", "AT"], "grp_empty": [],
          "grp_mixed": [1, "1", True, None]}
TYPES = ["string", "number", "boolean", "array", "object", "null"]


def scalar(rng):
    """A random JSON scalar."""
    pick = rng.random()
    if pick < 0.45:
        return rng.choice(STRINGS)
    if pick < 0.85:
        return rng.choice(NUMBERS)
    if pick < 0.95:
        return rng.choice([True, False])
    return None


def value(rng, depth=0):
    """A random JSON value: scalars mostly, sometimes an array or an object with sorted members."""
    pick = rng.random()
    if depth < 2 and pick < 0.1:
        return [value(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    if depth < 2 and pick < 0.18:
        return sorted_object({rng.choice(["a", "b", "name", "n"]): value(rng, depth + 1) for _ in range(rng.randint(0, 2))})
    return scalar(rng)


def sorted_object(members):
    """An object with members in sorted order, so that JavaScript's JSON.stringify order never decides."""
    return {name: members[name] for name in sorted(members)}


def served_value(rng):
    """A value a rule forces or a variation serves (never null: a null force reads as no force in Python)."""
    result = value(rng)
    return "v" if result is None else result


# MARK: Contexts

# What each attribute holds in the contexts (when present); conditions compare with these values mostly.
ATTRIBUTE_VALUES = {
    "id": ["u1", "u2", "u3", "user-42", "🙂", "séed-ü"],
    "deviceId": ["d1", "d2", "", "🙂", 5, True],
    "company.id": ["c1", "c2", "çø", "", 3],
    "company": [{"id": "c9", "size": 1}, {"id": "nested", "size": 50}, {"id": "c9", "size": "50"}],
    "country": ["DE", "AT", "US", "us", "fr", "", "Ünïcode", 49, None],
    "age": [0, 17, 18, 30, 65.5, "30", "abc", True, None, -1],
    "version": VERSIONS + [2, 1.5, None, True],
    "tags": [["a", "b"], [], ["beta", "DE"], [0, "x"], ["", "beta"], [1, 2, 3], [False, "a"], "beta", None],
    "items": [[{"n": 1, "name": "x"}, {"n": 5, "name": "y"}], [], [{"name": "z"}], [1, {"name": "x"}], None],
    "address": [{"city": city, "geo": {"lat": lat}} for city in ["Berlin", "Wien", "", "Zürich"] for lat in [52.5, 48.2, "52"]],
    "beta": [True, False, 1, 0, "true", "", None],
    "email": ["a@b.de", "X@Y.COM", "nul", "", "ü@ß.de"],
    "plan": STRINGS + [1, None],
}
PRESENCE = {"id": 0.85, "deviceId": 0.5, "company.id": 0.5, "company": 0.5, "items": 0.5, "address": 0.6, "email": 0.5,
            "plan": 0.5}


def attributes(rng):
    """A random context: each attribute present or not, with values of its usual type mostly."""
    a = {}
    for name, values in ATTRIBUTE_VALUES.items():
        if rng.random() < PRESENCE.get(name, 0.75):
            a[name] = rng.choice(IDS) if name == "id" and rng.random() < 0.3 else rng.choice(values)
    return a


# MARK: Conditions

# Condition paths: attributes, members of objects, elements of arrays (by index and length), and a missing one.
# "company.id" here is the path into the object "company", not the attribute named "company.id".
PATHS = ["id", "country", "age", "version", "version", "version", "tags", "tags", "items", "address.city",
         "address.geo.lat", "address.geo", "beta", "email", "email", "plan", "company", "company.id", "company.size",
         "deviceId", "missing", "tags.0", "tags.length", "items.1.name", "items.length"]
ARRAY_KINDS = ["in", "nin", "ini", "nini", "all", "alli", "elemMatch", "elemMatch", "size", "size", "exists", "type", "not"]
SCALAR_KINDS = ["eq", "ne", "order", "order", "regex", "in", "nin", "ini", "nini", "exists", "type", "not", "inGroup",
                "notInGroup"]
ALL_KINDS = sorted(set(ARRAY_KINDS + SCALAR_KINDS + ["version", "all", "alli", "elemMatch", "size"]))


def member(value, name):
    """JavaScript's `name in value` step of a path (objects, and arrays by index or length), or None."""
    if isinstance(value, dict):
        return value.get(name)
    if isinstance(value, list):
        if name == "length":
            return len(value)
        if name.isdigit() and str(int(name)) == name and int(name) < len(value):
            return value[int(name)]
    return None


def values_at(path):
    """The values the contexts hold at a condition path (its first step is an attribute)."""
    steps = path.split(".")
    found = []
    for value in ATTRIBUTE_VALUES.get(steps[0], []):
        for step in steps[1:]:
            value = member(value, step)
        if value is not None:
            found.append(value)
    return found


def elements_at(path):
    """The elements of the arrays the contexts hold at a path."""
    return [element for value in values_at(path) if isinstance(value, list) for element in value]


def operand(rng, path, scalars=True):
    """A value to compare `path` with: one the contexts hold there mostly, else any scalar."""
    usual = [value for value in values_at(path) if not scalars or not isinstance(value, (list, dict))]
    if usual and rng.random() < 0.7:
        return rng.choice(usual)
    return scalar(rng)


def element_operand(rng, path):
    """A value to find among the elements of `path`'s arrays."""
    usual = [element for element in elements_at(path) if not isinstance(element, (list, dict))]
    if usual and rng.random() < 0.7:
        return rng.choice(usual)
    return scalar(rng)


def field_test(rng, path, depth):
    """What the value at `path` must be: a plain value or an object of operators."""
    if rng.random() < 0.2:
        return operand(rng, path, scalars=rng.random() < 0.7)
    tests = {}
    for _ in range(1 if rng.random() < 0.8 else 2):
        name, argument = operator(rng, path, depth)
        tests[name] = argument
    return tests


def operator(rng, path, depth):
    """One operator and its operand, mostly one that suits the values at `path`."""
    if rng.random() < 0.2:
        kind = rng.choice(ALL_KINDS)
    elif path == "version":
        kind = rng.choice(["version", "version", "version", "order", "eq", "regex"])
    elif elements_at(path):
        kind = rng.choice(ARRAY_KINDS)
    else:
        kind = rng.choice(SCALAR_KINDS)
    listed = element_operand if elements_at(path) else operand
    if kind in ("eq", "ne"):
        return "$" + kind, operand(rng, path)
    if kind == "order":
        return rng.choice(["$lt", "$lte", "$gt", "$gte"]), operand(rng, path)
    if kind == "regex":
        return rng.choice(["$regex", "$regexi"]), rng.choice(REGEXES)
    if kind in ("in", "nin", "ini", "nini"):
        return "$" + kind, [listed(rng, path) for _ in range(rng.randint(0, 3))]
    if kind in ("all", "alli"):
        wanted = [{"$gt": rng.choice([0, 1, "a"])} if rng.random() < 0.2 else listed(rng, path)
                  for _ in range(rng.randint(0, 2))]
        return "$" + kind, wanted
    if kind == "elemMatch":
        if any(isinstance(element, dict) for element in elements_at(path)) and rng.random() < 0.7:
            return "$elemMatch", rng.choice([{"name": rng.choice(["x", "y", "z"])}, {"n": {"$gte": 2}}])
        name = rng.choice(["$eq", "$gt", "$in", "$exists", "$regex"])
        argument = {"$in": [element_operand(rng, path), element_operand(rng, path)], "$exists": True,
                    "$regex": rng.choice(REGEXES)}.get(name, element_operand(rng, path))
        return "$elemMatch", {name: argument}
    if kind == "size":
        return "$size", rng.choice([0, 1, 2, 3, {"$gt": 0}, {"$lte": 1}])
    if kind == "exists":
        return "$exists", rng.choice([True, False])
    if kind == "type":
        return "$type", rng.choice(TYPES)
    if kind == "not" and depth < 3:
        name, argument = operator(rng, path, depth + 1)
        return "$not", {name: argument}
    if kind in ("inGroup", "notInGroup"):
        return "$" + kind, rng.choice(sorted(GROUPS))
    versions = VERSIONS if rng.random() < 0.85 else [2, 1.5]
    return rng.choice(["$veq", "$vne", "$vgt", "$vgte", "$vlt", "$vlte"]), rng.choice(versions)


def condition(rng, depth=0):
    """A condition object: attribute tests, sometimes combined with $and, $or, $nor and $not."""
    result = {}
    for _ in range(rng.randint(1, 2)):
        pick = rng.random()
        if depth < 2 and pick < 0.1:
            result[rng.choice(["$and", "$or", "$nor"])] = [condition(rng, depth + 1) for _ in range(rng.randint(0, 2))]
        elif depth < 2 and pick < 0.14:
            result["$not"] = condition(rng, depth + 1)
        else:
            path = rng.choice(PATHS)
            result[path] = field_test(rng, path, depth)
    return result


def parent_condition(rng, features):
    """A prerequisite on another feature (maybe a missing one, maybe a cycle)."""
    parent = rng.choice(features + ["no-such-feature"])
    test = rng.choice([{"value": True}, {"value": {"$exists": True}}, {"value": {"$exists": False}},
                       {"value": {"$gt": 1}}, {"value": "v"}, {"value": {"$in": [1, "DE", True]}}, {}])
    prerequisite = {"id": parent, "condition": test}
    if rng.random() < 0.5:
        prerequisite["gate"] = rng.random() < 0.5
    return prerequisite


# MARK: Rules and payloads

def rule_id(rng, feature, index):
    pick = rng.random()
    if pick < 0.1:
        return None
    if pick < 0.15:
        return ""
    return f"r-{feature}-{index}"


def hashing(rng, rule):
    """The hash attribute, fallback, seed and version of a rule, each present or not."""
    if rng.random() < 0.35:
        rule["hashAttribute"] = rng.choice(["id", "deviceId", "company.id", "age", "tags", "beta", "missing"])
    if rng.random() < 0.2:
        rule["fallbackAttribute"] = rng.choice(["deviceId", "company.id", "id"])
    if rng.random() < 0.5:
        rule["seed"] = rng.choice(SEEDS)
    if rng.random() < 0.7:
        rule["hashVersion"] = rng.choice([1, 2])


def filters(rng):
    result = []
    for _ in range(rng.randint(1, 2)):
        start = rng.choice([0, 0.2, 0.5])
        entry = {"seed": rng.choice(SEEDS), "ranges": [[start, start + rng.choice([0.3, 0.5])]]}
        if rng.random() < 0.5:
            entry["hashVersion"] = rng.choice([1, 2])
        if rng.random() < 0.3:
            entry["attribute"] = rng.choice(["id", "deviceId", "company.id"])
        result.append(entry)
    return result


WEIGHTS = {2: [[0.5, 0.5], [0.3, 0.7], [0.1, 0.9], [1, 0]], 3: [[0.34, 0.33, 0.33], [0.1, 0.2, 0.7]],
           4: [[0.25, 0.25, 0.25, 0.25], [0.4, 0.1, 0.1, 0.4]]}
COVERAGES = [0, 0.05, 0.1, 0.25, 0.5, 0.75, 0.999, 1, 0.3333]


def force_rule(rng, feature, index, features):
    rule = {"force": served_value(rng)}
    if rng.random() < 0.6:
        rule["condition"] = condition(rng)
    if rng.random() < 0.4:
        rule["coverage"] = rng.choice(COVERAGES)
    if rng.random() < 0.15:
        start = rng.choice([0, 0.25, 0.5])
        rule["range"] = [start, start + rng.choice([0.25, 0.5])]
    if "coverage" in rule or "range" in rule or rng.random() < 0.2:
        hashing(rng, rule)
    if rng.random() < 0.1:
        rule["filters"] = filters(rng)
    if rng.random() < 0.15:
        rule["parentConditions"] = [parent_condition(rng, features)]
    return rule


def experiment_rule(rng, feature, index, features):
    count = rng.choice([2, 2, 3, 4])
    rule = {"variations": [served_value(rng) for _ in range(count)]}
    if rng.random() < 0.7:
        rule["key"] = rng.choice([feature + "-exp", "exp-" + str(index), "", "ключ"])
    if rng.random() < 0.5:
        rule["weights"] = rng.choice(WEIGHTS[count])
    if rng.random() < 0.5:
        rule["coverage"] = rng.choice(COVERAGES)
    hashing(rng, rule)
    if rng.random() < 0.4:
        rule["condition"] = condition(rng)
    pick = rng.random()
    if pick < 0.15:
        start = rng.choice([0, 0.3, 0.5])
        rule["namespace"] = [rng.choice(["ns", "ns-ü", "pricing"]), start, start + rng.choice([0.2, 0.5])]
    elif pick < 0.3:
        rule["filters"] = filters(rng)
    if rng.random() < 0.15:
        width = 1 / count
        rule["ranges"] = [[i * width, i * width + width * rng.choice([0.5, 1])] for i in range(count)]
    if rng.random() < 0.5:
        rule["meta"] = [{"key": rng.choice(["", "control", "treatment-" + str(i), str(i)])} for i in range(count)]
        if rng.random() < 0.3:
            rule["meta"][rng.randrange(count)]["passthrough"] = True
    if rng.random() < 0.1:
        rule["parentConditions"] = [parent_condition(rng, features)]
    if rng.random() < 0.3:
        rule["name"] = "Experiment " + str(index)
        rule["phase"] = "1"
    return rule


def payload(rng):
    """A payload of a few features that may depend on each other."""
    names = [f"f{i}" for i in range(rng.randint(2, 5))]
    features = {}
    for name in names:
        feature = {}
        if rng.random() < 0.9:
            feature["defaultValue"] = value(rng)
        rules = []
        for index in range(rng.randint(0, 3)):
            make = force_rule if rng.random() < 0.55 else experiment_rule
            rule = make(rng, name, index, names)
            identifier = rule_id(rng, name, index)
            if identifier is not None:
                rule["id"] = identifier
            rules.append(rule)
        if rules or rng.random() < 0.5:
            feature["rules"] = rules
        features[name] = feature
    return {"features": features, "savedGroups": GROUPS}


# MARK: Evaluation

def evaluate(case_payload, context):
    """Every feature's result and, per feature, the places where Python and JavaScript differ."""
    # Copies: the SDK may change what it is given (destroy() empties the attributes).
    copy = json.loads(json.dumps({"payload": case_payload, "attributes": context}))
    gb = GrowthBook(attributes=copy["attributes"], features=copy["payload"]["features"],
                    saved_groups=copy["payload"]["savedGroups"])
    expected = {}
    flags = {}
    try:
        for name in case_payload["features"]:
            FLAGS.clear()
            result = gb.eval_feature(name).to_dict()
            experiment = result.get("experimentResult") or {}
            expected[name] = {
                "value": result["value"],
                "source": result["source"],
                "ruleId": result["ruleId"],
                "on": result["on"],
                "inExperiment": experiment.get("inExperiment", False),
                "variationId": experiment.get("variationId"),
                "variationKey": experiment.get("key"),
                "hashUsed": experiment.get("hashUsed", False),
                "bucket": experiment.get("bucket"),
            }
            if experiment.get("key") == "":
                FLAGS.add("empty-meta-key")
            if FLAGS:
                flags[name] = sorted(FLAGS)
    finally:
        gb.destroy()
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
        case_payload = payload(rng)
        for _ in range(min(4, arguments.cases - case)):
            context = attributes(rng)
            expected, flags = evaluate(case_payload, context)
            line = {"case": case, "payload": case_payload, "attributes": context,
                    "targetingKey": isinstance(context.get("id"), str) and rng.random() < 0.5,
                    "expected": expected, "flags": flags}
            out.write((json.dumps(line, ensure_ascii=False, allow_nan=False) + "\n").encode("utf-8"))
            case += 1


if __name__ == "__main__":
    main()
