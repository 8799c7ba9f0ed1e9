//! Expectations on a response, written as JSON patterns over the response's JSON form.
//!
//! - A scalar or `null` must equal the actual value.
//! - An object without `$` keys matches an object that has every listed field matching (fields not
//!   listed are not checked).
//! - An array matches an array of the same length whose items match in order.
//! - An object of `$` operators must satisfy all of them: `$eq` (exact, no partial objects), `$ne`,
//!   `$gt`, `$ge`, `$lt`, `$le`, `$in` (one of a list), `$startsWith`, `$contains` (substring),
//!   `$len` (array or string length), `$any` / `$all` / `$none` (items of an array matching a
//!   pattern), `$sameItems` (same items in any order), `$not`.

use serde_json::Value;
use streamspec_protocol::codes::ErrorCode;

const OPERATORS: &[&str] = &[
    "$eq",
    "$ne",
    "$gt",
    "$ge",
    "$lt",
    "$le",
    "$in",
    "$startsWith",
    "$contains",
    "$len",
    "$any",
    "$all",
    "$none",
    "$sameItems",
    "$not",
];

/// Refuses unknown operators and operators mixed with plain fields, so that a typo in a scenario
/// cannot make an expectation pass.
pub fn check_pattern(pattern: &Value) -> Result<(), String> {
    match pattern {
        Value::Object(map) => {
            let operators = map.keys().filter(|key| key.starts_with('$')).count();
            if operators > 0 && operators != map.len() {
                return Err("an object mixes $ operators and fields".to_owned());
            }
            for (key, value) in map {
                if key.starts_with('$') && !OPERATORS.contains(&key.as_str()) {
                    return Err(format!("unknown operator {key}"));
                }
                check_pattern(value)?;
            }
            Ok(())
        }
        Value::Array(items) => items.iter().try_for_each(check_pattern),
        _ => Ok(()),
    }
}

/// What is wrong with `operand` of `operator` whatever the answer: a comparison needs a number,
/// `$startsWith` and `$contains` a text, `$len` a number or a pattern of one, `$in` and
/// `$sameItems` a list. Such a pattern fails on every target, so it is the scenario's error.
pub fn operand_error(operator: &str, operand: &Value) -> Option<String> {
    let kind = match operand {
        Value::Null | Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a text",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    };
    let needs = match operator {
        "$gt" | "$ge" | "$lt" | "$le" if !operand.is_number() => {
            format!("a number (e.g. {{\"{operator}\": 0}}, or a ${{name}} that holds one)")
        }
        "$startsWith" | "$contains" if !operand.is_string() => {
            format!(
                "a text, in quotes (e.g. {{\"{operator}\": \"{}\"}})",
                operand.to_string().trim_matches('"')
            )
        }
        "$len" if !operand.is_number() && !is_operator_object(operand) => {
            "a number, or a pattern of one (e.g. {\"$len\": {\"$ge\": 1}})".to_owned()
        }
        "$in" | "$sameItems" if !operand.is_array() => {
            return Some(format!(
                "{operator} takes a list of patterns, and {operand} is none"
            ))
        }
        _ => return None,
    };
    Some(match operand {
        Value::Null => format!("{operator} needs {needs}, and the operand is null"),
        _ => format!("{operator} needs {needs}, and {operand} is {kind}"),
    })
}

/// Refuses an operand [`operand_error`] refuses anywhere in `pattern`, to tell a pattern that
/// became unusable when its `${...}` references were resolved from a mismatch of the target.
pub fn check_operands(pattern: &Value) -> Result<(), String> {
    match pattern {
        Value::Object(map) => {
            map.iter()
                .try_for_each(|(key, item)| match operand_error(key, item) {
                    Some(error) if is_operator_object(pattern) => Err(error),
                    _ => check_operands(item),
                })
        }
        Value::Array(items) => items.iter().try_for_each(check_operands),
        _ => Ok(()),
    }
}

/// Matches `actual` against `pattern`; on a mismatch, says where and what.
pub fn matches(pattern: &Value, actual: &Value) -> Result<(), String> {
    match_at("", pattern, actual)
}

/// Whether `pattern` is an object of `$` operators rather than of fields.
pub(crate) fn is_operator_object(pattern: &Value) -> bool {
    matches!(pattern, Value::Object(map) if !map.is_empty() && map.keys().all(|key| key.starts_with('$')))
}

/// Opens the hint of a plain array whose items match in another order.
const IN_ANOTHER_ORDER: &str = "the items match in another order";

fn mismatch(path: &str, expected: &dyn std::fmt::Display, actual: &Value) -> String {
    let at = if path.is_empty() { "response" } else { path };
    format!("{at}: expected {expected}, found {}", named(path, actual))
}

/// `value` as a mismatch shows it: an error code with Kafka's name (`35 UNSUPPORTED_VERSION`),
/// so that nobody has to look it up, anything else as JSON.
fn named(path: &str, value: &Value) -> String {
    match value.as_i64().and_then(|code| i16::try_from(code).ok()) {
        Some(code) if path.ends_with(".errorCode") => ErrorCode(code).to_string(),
        _ => value.to_string(),
    }
}

fn match_at(path: &str, pattern: &Value, actual: &Value) -> Result<(), String> {
    if is_operator_object(pattern) {
        let Value::Object(operators) = pattern else {
            unreachable!()
        };
        for (operator, operand) in operators {
            apply(path, operator, operand, actual)?;
        }
        return Ok(());
    }
    match (pattern, actual) {
        (Value::Object(fields), Value::Object(actual_fields)) => {
            for (name, field_pattern) in fields {
                let child = format!("{path}.{name}");
                let value = actual_fields
                    .get(name)
                    .ok_or_else(|| format!("{child}: no such field"))?;
                match_at(&child, field_pattern, value)?;
            }
            Ok(())
        }
        (Value::Array(items), Value::Array(actual_items)) => {
            if items.len() != actual_items.len() {
                return Err(mismatch(
                    path,
                    &format!("{} items {pattern}", items.len()),
                    actual,
                ));
            }
            for (index, (item, actual_item)) in items.iter().zip(actual_items).enumerate() {
                match_at(&format!("{path}[{index}]"), item, actual_item).map_err(|error| {
                    // Order is what a plain array fixes; say so when it is the only difference.
                    if same_items(items, actual_items) && !error.contains(IN_ANOTHER_ORDER) {
                        format!("{error} ({IN_ANOTHER_ORDER}: where the order is not fixed, as of a describe's members, write {{\"$sameItems\": [...]}} at {})", if path.is_empty() { "the response" } else { path })
                    } else {
                        error
                    }
                })?;
            }
            Ok(())
        }
        _ if numbers_equal(pattern, actual) || pattern == actual => Ok(()),
        _ => Err(mismatch(path, &named(path, pattern), actual)),
    }
}

/// Whether `items` match the `patterns` in some order, one item each.
fn same_items(patterns: &[Value], items: &[Value]) -> bool {
    let mut unmatched: Vec<&Value> = items.iter().collect();
    patterns.iter().all(|pattern| {
        match unmatched
            .iter()
            .position(|item| match_at("", pattern, item).is_ok())
        {
            Some(position) => {
                unmatched.remove(position);
                true
            }
            None => false,
        }
    }) && unmatched.is_empty()
}

fn numbers_equal(a: &Value, b: &Value) -> bool {
    matches!((a.as_f64(), b.as_f64()), (Some(x), Some(y)) if x == y)
}

fn number(path: &str, operator: &str, value: &Value) -> Result<f64, String> {
    value
        .as_f64()
        .ok_or_else(|| format!("{path}: {operator} needs a number, found {value}"))
}

fn apply(path: &str, operator: &str, operand: &Value, actual: &Value) -> Result<(), String> {
    let describe = |what: String| mismatch(path, &what, actual);
    let holds = match operator {
        "$eq" => numbers_equal(operand, actual) || operand == actual,
        "$ne" => !(numbers_equal(operand, actual) || operand == actual),
        "$gt" | "$ge" | "$lt" | "$le" => {
            let (bound, value) = (
                number(path, operator, operand)?,
                number(path, operator, actual)?,
            );
            match operator {
                "$gt" => value > bound,
                "$ge" => value >= bound,
                "$lt" => value < bound,
                _ => value <= bound,
            }
        }
        "$in" => operand.as_array().is_some_and(|options| {
            options
                .iter()
                .any(|option| match_at(path, option, actual).is_ok())
        }),
        "$startsWith" => {
            matches!((operand, actual), (Value::String(prefix), Value::String(text)) if text.starts_with(prefix.as_str()))
        }
        "$contains" => {
            matches!((operand, actual), (Value::String(part), Value::String(text)) if text.contains(part.as_str()))
        }
        "$len" => {
            let length = match actual {
                Value::Array(items) => items.len(),
                Value::String(text) => text.chars().count(),
                _ => return Err(describe(format!("something with a length of {operand}"))),
            };
            return match_at(&format!("{path}.length"), operand, &Value::from(length));
        }
        "$any" | "$all" | "$none" => {
            let Value::Array(items) = actual else {
                return Err(describe(format!("an array ({operator} {operand})")));
            };
            let matching = items
                .iter()
                .filter(|item| match_at(path, operand, item).is_ok())
                .count();
            match operator {
                "$any" => matching > 0,
                "$all" => matching == items.len(),
                _ => matching == 0,
            }
        }
        "$sameItems" => match (operand, actual) {
            (Value::Array(expected), Value::Array(items)) => same_items(expected, items),
            _ => false,
        },
        "$not" => match_at(path, operand, actual).is_err(),
        other => return Err(format!("{path}: unknown operator {other}")),
    };
    if holds {
        Ok(())
    } else {
        Err(describe(format!("{operator} {operand}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn partial_objects_and_exact_arrays() {
        let actual = json!({"errorCode": 0, "memberEpoch": 2, "status": [{"statusCode": 1, "statusDetail": "x"}]});
        assert_eq!(matches(&json!({"errorCode": 0}), &actual), Ok(()));
        assert_eq!(
            matches(&json!({"memberEpoch": 3}), &actual),
            Err(".memberEpoch: expected 3, found 2".to_owned())
        );
        assert_eq!(
            matches(&json!({"status": []}), &actual),
            Err(
                ".status: expected 0 items [], found [{\"statusCode\":1,\"statusDetail\":\"x\"}]"
                    .to_owned()
            )
        );
        assert_eq!(
            matches(&json!({"status": [{"statusCode": 1}]}), &actual),
            Ok(())
        );
        assert_eq!(
            matches(&json!({"nope": 1}), &actual),
            Err(".nope: no such field".to_owned())
        );
    }

    #[test]
    fn error_codes_read_with_their_names() {
        let actual = json!({"errorCode": 35, "groups": [{"errorCode": 69}]});
        assert_eq!(
            matches(&json!({"errorCode": 0}), &actual),
            Err(".errorCode: expected 0 NONE, found 35 UNSUPPORTED_VERSION".to_owned())
        );
        assert_eq!(
            matches(
                &json!({"groups": [{"errorCode": {"$in": [0, 16]}}]}),
                &actual
            ),
            Err(
                ".groups[0].errorCode: expected $in [0,16], found 69 GROUP_ID_NOT_FOUND".to_owned()
            )
        );
    }

    #[test]
    fn operators() {
        let actual = json!({"epoch": 5, "detail": "Source topics in are missing.", "tasks": [{"p": [1, 0]}, {"p": []}]});
        for pattern in [
            json!({"epoch": {"$gt": 4, "$le": 5}}),
            json!({"epoch": {"$in": [1, 5]}}),
            json!({"epoch": {"$ne": 4}}),
            json!({"detail": {"$startsWith": "Source topics", "$contains": "missing"}}),
            json!({"tasks": {"$len": 2, "$any": {"p": []}}}),
            json!({"tasks": [{"p": {"$sameItems": [0, 1]}}, {"p": {"$len": 0}}]}),
            json!({"tasks": {"$none": {"p": [7]}}}),
            json!({"epoch": {"$not": 4}}),
        ] {
            assert_eq!(matches(&pattern, &actual), Ok(()), "{pattern}");
        }
        assert_eq!(
            matches(&json!({"epoch": {"$lt": 5}}), &actual),
            Err(".epoch: expected $lt 5, found 5".to_owned())
        );
        assert!(matches(&json!({"tasks": {"$all": {"p": {"$len": 2}}}}), &actual).is_err());
        assert!(matches(
            &json!({"tasks": [{"p": {"$sameItems": [0]}}, {"p": []}]}),
            &actual
        )
        .is_err());
    }

    #[test]
    fn an_array_in_another_order_hints_at_same_items() {
        let actual = json!({"groups": [{"members": [{"memberId": "b"}, {"memberId": "a"}]}]});
        assert_eq!(
            matches(
                &json!({"groups": [{"members": [{"memberId": "a"}, {"memberId": "b"}]}]}),
                &actual
            ),
            Err(".groups[0].members[0].memberId: expected \"a\", found \"b\" (the items match in another order: where the order is not fixed, as of a describe's members, write {\"$sameItems\": [...]} at .groups[0].members)".to_owned())
        );
        // No hint where the items differ whatever the order.
        assert_eq!(
            matches(
                &json!({"groups": [{"members": [{"memberId": "a"}, {"memberId": "c"}]}]}),
                &actual
            ),
            Err(".groups[0].members[0].memberId: expected \"a\", found \"b\"".to_owned())
        );
    }

    #[test]
    fn patterns_with_typos_are_refused() {
        assert_eq!(
            check_pattern(&json!({"a": {"$gte": 1}})),
            Err("unknown operator $gte".to_owned())
        );
        assert_eq!(
            check_pattern(&json!({"a": {"$gt": 1, "b": 2}})),
            Err("an object mixes $ operators and fields".to_owned())
        );
    }

    #[test]
    fn operands_no_answer_could_match_are_found_at_any_depth() {
        assert_eq!(
            check_operands(&json!({"a": [{"b": {"$not": {"$contains": 1}}}]})),
            Err("$contains needs a text, in quotes (e.g. {\"$contains\": \"1\"}), and 1 is a number".to_owned())
        );
        // A field named like an operator's operand is no operand.
        assert_eq!(check_operands(&json!({"$len": 1, "a": {"$gt": 2}})), Ok(()));
    }
}
