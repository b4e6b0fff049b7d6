"""ConfigCat's Python SDK as an oracle for the library's ConfigCat format.

    python3 configcat_oracle.py --seed 7 --cases 5000

Generates random configs and User Objects with random.Random(seed) (configcat_cases.py), writes each
config to a local file, and evaluates every setting for each user with configcat-client, the way an
app does: one client from configcatclient.get(...) with manual polling, offline, and flag overrides
from that file (LocalFileFlagOverrides, OverrideBehaviour.LocalOnly), then get_value_details(key,
None, user). It needs no network. It prints one JSON object per config and one per config-user pair:

    {"payload": {...}, "id": 0}
    {"case": 0, "payloadId": 0, "targetingKey": "u1", "attributes": {...},
     "expected": {"<key>": {"value": ..., "variationId": "f0-1", "match": "r[0].p[1]", "reason": "SPLIT",
                            "errorCode": null, "error": null}},
     "flags": {"<key>": ["attribute-text", ...]}}

`targetingKey` is absent when the context has none. The User Object is made from the context as the
library maps it: the targeting key is the Identifier, the attributes `email` and `country` Email and
Country, the others custom attributes; no targeting key and no attributes is no User Object. `match`
locates the matched targeting rule and percentage option in the setting (`r[1]`, `r[1].p[0]`, `p[2]`);
`reason` and `errorCode` are the OpenFeature words the library's FORMAT.md maps ConfigCat's answer
to; `error` is the reason inside ConfigCat's error message. A setting the payload lacks
(`no-such-flag`) is evaluated too.

Where the Python SDK departs from ConfigCat's reference SDK (JavaScript, whose shared test data the
SDKs are tested against) the library follows the reference, and this script flags the setting by
watching the SDK's own functions (it never changes what they answer):

- attribute-text: Python wrote a non-string attribute as other text than the reference (`True`,
  `1e+16`, `1.5e-05`, Python's list and dict syntax, integers beyond 2^53).
- number-syntax: Python's float() read a number or date attribute otherwise than the reference's
  number syntax (`1_000`, `inf`, `nan`, `0 `, digits of other scripts, a Boolean as 0 or 1).
- number-type-error: Python's float() failed on a list or object attribute with a TypeError, which
  fails the whole evaluation; the reference skips the targeting rule.
- percentage-gap: the user's bucket fell after the last percentage option (percentages below 100):
  Python serves the next rule or the setting's value; the reference fails the evaluation.
- semver-comparison-value: a blank or invalid version in a comparison value: Python fails the
  condition with an error (skipping the rule, even inside IS NOT IN SEGMENT) and skips blank list
  items; the reference makes the condition false.
- semver-empty-list: IS ONE OF / IS NOT ONE OF (semver) with no comparison version but blank ones:
  Python never reads the user's version, so an attribute that is no version still matches or not;
  the reference skips the rule for it.
- empty-hashed-suffix: a confidential ENDS WITH comparison value of 0 bytes (`0_<hash>`): Python
  hashes the whole text (its slice `[-0:]`), the reference the empty suffix.
- setting-type-first: a setting whose type `t` is invalid: the reference fails at once with
  "Setting type is invalid."; Python evaluates first and may fail with another message (a circular
  dependency).
- identifier-attribute: percentage options on the attribute Identifier for a user without
  identifier: Python finds no attribute and skips them; the reference hashes "" as without one.
- eager-served-value: Python reads a targeting rule's served value before its conditions and fails
  on one not of the setting's type; the reference only when it serves that value.
"""

import argparse
import json
import logging
import math
import os
import random
import sys
import tempfile

import configcatclient
from configcatclient import ConfigCatOptions, PollingMode
from configcatclient import rolloutevaluator
from configcatclient.localfiledatasource import LocalFileFlagOverrides
from configcatclient.overridedatasource import OverrideBehaviour
from configcatclient.rolloutevaluator import RolloutEvaluator
from configcatclient.user import User

import configcat_cases as cases

logging.getLogger("configcat").setLevel(logging.CRITICAL)

# MARK: Watching the SDK where the library follows the reference SDK

FLAGS = set()
Evaluator = RolloutEvaluator

original_to_string = Evaluator._user_attribute_value_to_string
original_to_float = Evaluator._convert_numeric_to_float
original_percentage = Evaluator._evaluate_percentage_options
original_user_condition = Evaluator._evaluate_user_condition
original_get_value = rolloutevaluator.get_value


def watched_to_string(self, value):
    text = original_to_string(self, value)
    if value is not None and text != cases.attribute_text(value):
        FLAGS.add("attribute-text")
    return text


def watched_to_float(self, value):
    try:
        number = original_to_float(self, value)
    except TypeError:
        FLAGS.add("number-type-error")
        raise
    except ValueError:
        number = None
    reference = cases.js_parse_number(value)
    same = (number is None and reference is None) or (
        number is not None and reference is not None and (number == reference or (math.isnan(number) and math.isnan(reference))))
    if not same:
        FLAGS.add("number-syntax")
    if number is None:
        raise ValueError()
    return number


def watched_percentage(self, options, context, attribute, default_variation_id, log_builder):
    result = original_percentage(self, options, context, attribute, default_variation_id, log_builder)
    present = context.user is not None and (attribute is None or context.user.get_attribute(attribute) is not None)
    if options and present and not result[0]:
        FLAGS.add("percentage-gap")
    if options and context.user is not None and attribute == "Identifier" and context.user.get_attribute(attribute) is None:
        FLAGS.add("identifier-attribute")
    return result


def valid_version(text):
    try:
        rolloutevaluator.semver.VersionInfo.parse(text)
        return True
    except ValueError:
        return False


def watched_user_condition(self, condition, context, context_salt, salt, log_builder):
    comparator = condition.get("c")
    user = context.user
    value = user.get_attribute(condition.get("a")) if user is not None else None
    if comparator in range(4, 10) and value is not None and value != "":
        valid = isinstance(value, str) and valid_version(value.strip())
        items = condition.get("l") if comparator in (4, 5) else [condition.get("s")]
        items = [item for item in items or [] if isinstance(item, str)]
        if comparator in (4, 5) and not valid and not any(item.strip() for item in items):
            FLAGS.add("semver-empty-list")
        # IS (NOT) ONE OF skips empty items in both; a relation (< … >=) with an empty version errs in Python.
        if valid and any((item != "" or comparator >= 6) and not valid_version(item.strip()) for item in items):
            FLAGS.add("semver-comparison-value")
    if comparator in (24, 25) and value is not None and value != "":
        if any(isinstance(item, str) and item.split("_", 1)[0].strip() in ("0", "+0", "-0") for item in condition.get("l") or []):
            FLAGS.add("empty-hashed-suffix")
    return original_user_condition(self, condition, context, context_salt, salt, log_builder)


def watched_get_value(dictionary, setting_type):
    try:
        return original_get_value(dictionary, setting_type)
    except ValueError:
        if not any(member in dictionary for member in ("t", "p", "f")):
            FLAGS.add("eager-served-value")
        raise


Evaluator._user_attribute_value_to_string = watched_to_string
Evaluator._convert_numeric_to_float = watched_to_float
Evaluator._evaluate_percentage_options = watched_percentage
Evaluator._evaluate_user_condition = watched_user_condition
rolloutevaluator.get_value = watched_get_value

# MARK: Evaluation


def make_user(targeting_key, attributes):
    if targeting_key is None and not attributes:
        return None
    custom = {name: value for name, value in attributes.items() if name not in ("email", "country")}
    return User(targeting_key, email=attributes.get("email"), country=attributes.get("country"), custom=custom)


def locate(setting, rule, option):
    """`r[1]`, `r[1].p[0]` or `p[2]`: where the matched rule and option are in the SDK's own config."""
    if rule is None and option is None:
        return None
    path = ""
    if rule is not None:
        index = next(i for i, candidate in enumerate(setting.get("r", [])) if candidate is rule)
        path = f"r[{index}]"
        options = rule.get("p", [])
    else:
        options = setting.get("p", [])
    if option is not None:
        index = next(i for i, candidate in enumerate(options) if candidate is option)
        path += (".p" if path else "p") + f"[{index}]"
    return path


def answer(client, config, key, user):
    details = client.get_value_details(key, None, user)
    setting = config.get("f", {}).get(key)
    result = {"value": details.value, "variationId": details.variation_id, "match": None, "reason": None,
              "errorCode": None, "error": None}
    if details.error is not None:
        result.update(value=None, variationId=None, reason="ERROR")
        if setting is None:
            result["errorCode"] = "FLAG_NOT_FOUND"
        else:
            result["errorCode"] = "PARSE_ERROR"
            prefix = f"Failed to evaluate setting '{key}'. ("
            suffix = "). Returning the `default_value` parameter that you specified in your application: 'None'. "
            message = details.error
            if message.startswith(prefix) and message.endswith(suffix):
                result["error"] = message[len(prefix):-len(suffix)]
            if setting.get("t", 0) not in (0, 1, 2, 3) and result["error"] != "Unsupported setting type":
                FLAGS.add("setting-type-first")
        return result
    result["match"] = locate(setting, details.matched_targeting_rule, details.matched_percentage_option)
    if details.matched_percentage_option is not None:
        result["reason"] = "SPLIT"
    elif details.matched_targeting_rule is not None:
        result["reason"] = "TARGETING_MATCH"
    else:
        result["reason"] = "STATIC" if not setting.get("r") and not setting.get("p") else "DEFAULT"
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--cases", type=int, required=True)
    arguments = parser.parse_args()
    rng = random.Random(arguments.seed)
    # The config file is rewritten for every config: in memory where the system has a tmpfs (rewriting a file on
    # disk costs milliseconds each time), else in the temporary folder.
    memory = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None
    folder = tempfile.mkdtemp(prefix="configcat-oracle-", dir=memory)
    path = os.path.join(folder, "config_v6.json")
    with open(path, "w", encoding="utf-8") as file:
        file.write("{}")
    options = ConfigCatOptions(polling_mode=PollingMode.manual_poll(), offline=True,
                               flag_overrides=LocalFileFlagOverrides(path, OverrideBehaviour.LocalOnly))
    client = configcatclient.get("configcat-sdk-1/oracle-differential-00/" + "0" * 22, options)
    out = sys.stdout.buffer
    case = 0
    payload = 0
    try:
        while case < arguments.cases:
            document = cases.config(rng)
            text = json.dumps(document, ensure_ascii=False)
            with open(path, "w", encoding="utf-8") as file:
                file.write(text)
            # The data source reloads the file when its modification time changes: give each config its own.
            stamp = (1_600_000_000 + payload) * 1_000_000_000
            os.utime(path, ns=(stamp, stamp))
            client.force_refresh()
            config = client._override_data_source.get_overrides()
            keys = list(document.get("f", document.get("flags", {}))) + ["no-such-flag"]
            out.write((json.dumps({"payload": document, "id": payload}, ensure_ascii=False) + "\n").encode("utf-8"))
            for _ in range(min(4, arguments.cases - case)):
                targeting_key, attributes = cases.user(rng)
                user = make_user(targeting_key, attributes)
                expected = {}
                flags = {}
                for key in keys:
                    FLAGS.clear()
                    expected[key] = answer(client, config, key, user)
                    if FLAGS:
                        flags[key] = sorted(FLAGS)
                line = {"case": case, "payloadId": payload, "attributes": attributes, "expected": expected, "flags": flags}
                if targeting_key is not None:
                    line["targetingKey"] = targeting_key
                out.write((json.dumps(line, ensure_ascii=False, allow_nan=False) + "\n").encode("utf-8"))
                case += 1
            payload += 1
    finally:
        client.close()
        os.remove(path)
        os.rmdir(folder)


if __name__ == "__main__":
    main()
