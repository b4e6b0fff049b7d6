"""Random ConfigCat configs and User Objects for configcat_oracle.py, and JavaScript's text of values.

Configs are config JSON v6 (settings of the four types with targeting rules, percentage options,
segments and prerequisite flags, circular ones included) or, now and then, the simple local-override
form. Users have identifiers (non-ASCII and empty among them), Email, Country and custom attributes
of every kind: numbers, versions and dates spelled oddly, string arrays as lists and as JSON text, and
values of the wrong type. Every choice comes from the random.Random given.
"""

import hashlib
import json
import math
import re

# MARK: JavaScript's text of values (ConfigCat's reference SDK is JavaScript; its shared test data fixes these)


def js_number(x):
    """ECMAScript's Number::toString of a float."""
    if x != x:
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    if x == 0:
        return "0"
    if x < 0:
        return "-" + js_number(-x)
    mantissa, _, exponent = repr(x).partition("e")
    whole, _, fraction = mantissa.partition(".")
    every = whole + fraction
    padded = every.lstrip("0")
    digits = padded.rstrip("0")
    k = len(digits)
    n = len(whole) - (len(every) - len(padded)) + (int(exponent) if exponent else 0)
    if k <= n <= 21:
        return digits + "0" * (n - k)
    if 0 < n <= 21:
        return digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return "0." + "0" * -n + digits
    rest = ("." + digits[1:]) if k > 1 else ""
    return digits[0] + rest + "e" + ("+" if n > 0 else "-") + str(abs(n - 1))


def js_string(value):
    """JavaScript's String(value) for a JSON value."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value) if abs(value) <= 2 ** 53 else js_number(float(value))
    if isinstance(value, float):
        return js_number(value)
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return ",".join("" if item is None else js_string(item) for item in value)
    return "[object Object]"


def attribute_text(value):
    """The text ConfigCat's reference SDK compares and hashes for an attribute value."""
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return js_string(value)


JS_SPACE = "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"


DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?\Z")


def js_parse_number(value):
    """The number ConfigCat's reference SDK reads from an attribute (None when it reads none): a number
    as it is; a string with its first comma as a decimal point, in JavaScript's decimal syntax, where
    nothing but a digit, a point or an exponent may follow a leading 0; or "NaN"."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, float)):
        return float(value)
    if not isinstance(value, str):
        return None
    text = value.replace(",", ".", 1)
    trimmed = text.strip(JS_SPACE)
    leading_zero = trimmed[:1] == "0" and (trimmed[1:2] not in "0123456789.eE" if len(trimmed) > 1 else not text.endswith("0"))
    if trimmed and not leading_zero:
        if trimmed in ("Infinity", "+Infinity"):
            return math.inf
        if trimmed == "-Infinity":
            return -math.inf
        if DECIMAL.match(trimmed):
            return float(trimmed)
    return math.nan if value.strip(JS_SPACE) == "NaN" else None


# MARK: Users

IDENTIFIERS = ["u1", "u2", "user-42", "12345", "alice@example.com", "séed-ü", "🙂", "東京", "e\u0301", "é", "", "0", " 12345 "]
EMAILS = ["a@example.com", "b@configcat.com", "x@test.org", "", "Ünï@côde.de", "nobody", 42, True]
COUNTRIES = ["DE", "US", "Hungary", "hu", "", "ü", 49, ["DE"]]
CUSTOM = {
    "Version": ["1.2.3", "1.0.0-rc.1", " 1.2.3 ", "v1.2.3", "1.2", "2.0.0+build.5", "1.2.3-beta.2", "1.2.3-beta.10", "10.0.0",
                "0.9.9", "1.0.0", 2, 1.5, True, "", "01.2.3", "1.2.3-01"],
    "Number": [0, 17, 18, 30, 65.5, 2.1, "30", " 3 ", "2,1", "2.1", "abc", True, False, "1_000", "inf", "Infinity",
               " -Infinity ", "NaN", "nan", "1e3", "0x10", "0 ", " 0", "05", ".5", "5.", "", 2.5e-7, 1e16, 1e21, -0.0,
               9007199254740993, [1], {"a": 1}, "+Infinity", "١٢", "1,000,5", "-.5e1"],
    "Date": [1680307199.999, 1680307200, 1682899200.001, "1680307200.001", " 1705253400 ", "2023-04-01", True, 1e10, "1e9",
             -1, "NaN", 1705253400, ["1"]],
    "Roles": [["read", "write"], [], ["Read"], ["a", 5], '["x","read"]', '["x", "Read"]', "x, read", "[]", "[1,2]", "read",
              5, {"a": "b"}, ["é", "e\u0301"], ['+<>%"\'\\/\t\r\n'], [["a"]], [None, "a"]],
    "Plan": ["free", "pro", "Pro", "enterprise", "", 1, 2.5, "ü", "pro ", None],
    "Flag": [True, False, "true", "True", 1, 0],
    "Score": [0.1, 0.30000000000000004, 1e-7, 1.5e-5, 1.2345678901234568e+20, 1e100, -2.5, 100, 3, 1e16],
}


def user(rng):
    """A targeting key (or None) and attributes; both absent means no User Object."""
    if rng.random() < 0.08:
        return None, {}
    targeting_key = rng.choice(IDENTIFIERS) if rng.random() < 0.85 else None
    attributes = {}
    if rng.random() < 0.7:
        attributes["email"] = rng.choice(EMAILS)
    if rng.random() < 0.6:
        attributes["country"] = rng.choice(COUNTRIES)
    for name, values in CUSTOM.items():
        if rng.random() < 0.55:
            attributes[name] = rng.choice(values)
    if rng.random() < 0.05:
        attributes[rng.choice(["Email", "Identifier", "Country"])] = "shadowed@example.com"
    return targeting_key, attributes


# MARK: Configs

ATTRIBUTES = ["Identifier", "Email", "Country", "Version", "Number", "Date", "Roles", "Plan", "Flag", "Score", "Missing", "email"]
TEXTS = sorted({attribute_text(v) for values in [IDENTIFIERS, EMAILS, COUNTRIES] + list(CUSTOM.values()) for v in values
                if v is not None} | {"@example.com", "configcat", "a", "x", "read", "Read", "DE", "1", "e", "é"})
VERSIONS = ["1.2.3", "1.0.0", "1.0.0-rc.1", " 2.0.0 ", "1.2.3-beta.2", "10.0.0", "0.9.9", "2.0.0+build.1"]
ODD_VERSIONS = ["", " ", "1.2", "bad", "v1.2.3"]
NUMBERS = [0, 1, 2.1, 3, 17, 18, 30, 65.5, -1, 1e16, 1000, 0.5, 5]
DATES = [1680307200, 1682899200, 1705253400.5, 1e9, 0]
SALTS = ["salt", "", "s\u00e1lt-\u00fc", "🧂", "x" * 40]


def sha256(data, salt, context_salt):
    return hashlib.sha256(data + salt.encode() + context_salt.encode()).hexdigest()


def string_items(value):
    """The strings of an array value, or of the JSON array a string holds; none for anything else."""
    if isinstance(value, str):
        try:
            value = json.loads(value)
        except ValueError:
            return []
    return [item for item in value if isinstance(item, str)] if isinstance(value, list) else []


def values_of(attribute):
    """The values users may have for an attribute."""
    return {"Identifier": IDENTIFIERS, "Email": EMAILS, "Country": COUNTRIES}.get(attribute, CUSTOM.get(attribute, []))


def comparison(rng, comparator, attribute, salt, context_salt):
    """The comparison value member (s, d or l) for a comparator, often one of the attribute's own values."""
    own = [attribute_text(value) for value in values_of(attribute) if value is not None]
    if comparator in (26, 27, 34, 35):
        # Array comparisons compare the items: the strings in the attribute's arrays (and in its JSON text).
        own = sorted({item for value in values_of(attribute) for item in string_items(value)}) or own

    def text():
        return rng.choice(own) if own and rng.random() < 0.7 else rng.choice(TEXTS)

    def texts():
        return [text() for _ in range(rng.randint(0, 3))]

    if comparator in (0, 1, 2, 3, 30, 31, 32, 33, 34, 35):
        values = texts()
        if comparator in (2, 3, 30, 31, 32, 33) and values and rng.random() < 0.5:
            whole = values[0]
            values[0] = whole[: rng.randint(0, len(whole))] if comparator in (2, 3, 30, 31) else whole[rng.randint(0, len(whole)):]
        return {"l": values}
    if comparator in (28, 29):
        return {"s": text()}
    if comparator in (4, 5):
        pool = VERSIONS + (ODD_VERSIONS if rng.random() < 0.15 else [])
        return {"l": [rng.choice(pool) for _ in range(rng.randint(0, 3))]}
    if comparator in (6, 7, 8, 9):
        return {"s": rng.choice(VERSIONS + (ODD_VERSIONS if rng.random() < 0.1 else []))}
    if comparator in range(10, 16):
        return {"d": rng.choice(NUMBERS)}
    if comparator in (18, 19):
        return {"d": rng.choice(DATES)}
    if comparator in (16, 17, 26, 27):
        return {"l": [sha256(text().encode(), salt, context_salt) if rng.random() < 0.8 else "0" * 64
                      for _ in range(rng.randint(0, 3))]}
    if comparator in (20, 21):
        return {"s": sha256(text().encode(), salt, context_salt)}
    items = []
    for _ in range(rng.randint(0, 3)):
        data = text().encode()
        length = rng.randint(0, len(data))
        part = data[:length] if comparator in (22, 23) else data[len(data) - length:]
        items.append(f"{length}_{sha256(part, salt, context_salt)}")
    return {"l": items}


# The attributes whose values suit a comparator (the others are read too, less often: wrong kinds, missing ones).
SUITED = {**{c: ["Version"] for c in range(4, 10)}, **{c: ["Number", "Score"] for c in range(10, 16)},
          18: ["Date"], 19: ["Date"], **{c: ["Roles"] for c in (26, 27, 34, 35)}}


def user_condition(rng, salt, context_salt):
    comparator = rng.randrange(36)
    suited = SUITED.get(comparator)
    attribute = rng.choice(suited) if suited and rng.random() < 0.7 else rng.choice(ATTRIBUTES)
    condition = {"a": attribute, "c": comparator}
    condition.update(comparison(rng, comparator, condition["a"], salt, context_salt))
    return condition


TYPES = {0: "b", 1: "s", 2: "i", 3: "d"}
VALUES = {0: [True, False], 1: ["", "x", "blue", "é", "e\u0301"], 2: [0, 1, -7, 42], 3: [0.5, 1.0, 2, -1.25, 1e16]}


def setting_value(rng, setting_type):
    """A value object of the setting's type; now and then one of another type."""
    if rng.random() < 0.01:
        other = rng.choice([t for t in TYPES if t != setting_type])
        return {TYPES[other]: rng.choice(VALUES[other])}
    return {TYPES[setting_type]: rng.choice(VALUES[setting_type])}


def served(rng, setting_type, ids):
    value = {"v": setting_value(rng, setting_type)}
    if rng.random() < 0.9:
        value["i"] = rng.choice(ids)
    return value


def percentage_options(rng, setting_type, ids):
    count = rng.randint(1, 4)
    cuts = sorted(rng.randint(0, 100) for _ in range(count - 1))
    shares = [b - a for a, b in zip([0] + cuts, cuts + [100])]
    pick = rng.random()
    if pick < 0.08:
        shares[-1] = max(0, shares[-1] - rng.randint(1, 30))
    elif pick < 0.12:
        shares[0] += rng.randint(1, 30)
    return [dict(served(rng, setting_type, ids), p=share) for share in shares]


def condition(rng, key, keys, types, segments, salt):
    pick = rng.random()
    if pick < 0.6 or (pick < 0.8 and not segments):
        return {"u": user_condition(rng, salt, key)}
    if pick < 0.8:
        return {"s": {"s": rng.randrange(len(segments)), "c": rng.choice([0, 1])}}
    later = keys[keys.index(key) + 1:]
    pick = rng.random()
    prerequisite = rng.choice(later) if later and pick < 0.85 else rng.choice(keys) if pick < 0.98 else "missing-flag"
    prerequisite_type = types.get(prerequisite, 0)
    value = setting_value(rng, prerequisite_type) if rng.random() < 0.97 else {"b": True} if prerequisite_type else {"s": "x"}
    return {"p": {"f": prerequisite, "c": rng.choice([0, 1]), "v": value}}


def setting(rng, key, keys, types, segments, salt):
    setting_type = types[key]
    ids = [f"{key}-{n}" for n in range(6)]
    document = {"t": setting_type}
    document.update(served(rng, setting_type, ids))
    if rng.random() < 0.3:
        document["a"] = rng.choice(["Email", "Country", "Roles", "Number", "Missing", "Identifier", "Flag", "Score", "Plan"])
    rules = []
    for _ in range(rng.choice([0, 0, 1, 2, 3])):
        rule = {"c": [condition(rng, key, keys, types, segments, salt) for _ in range(rng.choice([1, 1, 1, 2, 3]))]}
        if rng.random() < 0.7:
            rule["s"] = served(rng, setting_type, ids)
        else:
            rule["p"] = percentage_options(rng, setting_type, ids)
        rules.append(rule)
    if rules:
        document["r"] = rules
    if rng.random() < 0.35:
        document["p"] = percentage_options(rng, setting_type, ids)
    if rng.random() < 0.01:
        document["t"] = 7
    return document


KEYS = ["f0", "f1", "f2", "f3", "flag-é", "東京-flag"]
SEGMENT_NAMES = ["Beta users", "Ünïcode", "s", "Staff"]
SIMPLE_VALUES = [True, False, "x", "", "é", 0, 7, -3, 1.5, 2.0, None, [1], {"a": 1}]


def config(rng):
    if rng.random() < 0.06:
        return {"flags": {key: rng.choice(SIMPLE_VALUES) for key in rng.sample(KEYS, rng.randint(1, 4))}}
    salt = rng.choice(SALTS)
    keys = rng.sample(KEYS, rng.randint(2, 5))
    types = {key: rng.randrange(4) for key in keys}
    segments = [{"n": name, "r": [user_condition(rng, salt, name) for _ in range(rng.randint(1, 3))]}
                for name in rng.sample(SEGMENT_NAMES, rng.randint(0, 3))]
    document = {"p": {"u": "https://cdn-global.configcat.com", "r": 0, "s": salt}}
    if segments:
        document["s"] = segments
    document["f"] = {key: setting(rng, key, keys, types, segments, salt) for key in keys}
    return document
