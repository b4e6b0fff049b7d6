import ConfigCatFormat
import ConfigDomain
import Foundation
import Testing

/// Which comparators trim white space around the attribute and around the comparison value:
/// ConfigCat's shared SDK test data (`test/data/comparison_attribute_trimming.json` and
/// `comparison_value_trimming.json` in configcat/js-unified-sdk, MIT licence, Copyright (c) ConfigCat),
/// each setting's one targeting rule as the data has it, and the answers its SDK tests expect. Only
/// semantic versions, numbers and dates are trimmed (the comparison value: only versions).
@Suite("ConfigCat trimming (shared test data)")
struct TrimmingTests {
    typealias Row = (key: String, attribute: String, comparator: Int, value: String, served: String, otherwise: String)

    /// The settings of `comparison_attribute_trimming.json` (salt below); the user's values have spaces around them.
    static let attributeRows: [Row] = [
        ("arraycontainsanyof", "Country", 34, #""l": ["USA"]"#, "34 trim", "no trim"),
        (
            "arraycontainsanyofhashed", "Country", 26,
            #""l": ["09d5761537a8136eb7fc45a53917b51cb9dcd2bb9b62ffa24ace0e8a7600a3c7"]"#,
            "26 trim", "no trim"
        ),
        ("arraynotcontainsanyof", "Country", 35, #""l": ["USA"]"#, "no trim", "35 trim"),
        (
            "arraynotcontainsanyofhashed", "Country", 27,
            #""l": ["99d06b6b3669b906803c285267f76fe4e2ccc194b00801ab07f2fd49939b6960"]"#,
            "no trim", "27 trim"
        ),
        ("containsanyof", "Identifier", 2, #""l": [" 12345 "]"#, "no trim", "2 trim"),
        ("dateafter", "Date", 19, #""d": 1705251600"#, "19 trim", "no trim"),
        ("datebefore", "Date", 18, #""d": 1705255200"#, "18 trim", "no trim"),
        ("endswithanyof", "Identifier", 32, #""l": ["12345"]"#, "32 trim", "no trim"),
        (
            "endswithanyofhashed", "Identifier", 24,
            #""l": ["5_7eb158c29b48b62cec860dffc459171edbfeef458bcc8e8bb62956d823eef3df"]"#,
            "24 trim", "no trim"
        ),
        ("equals", "Identifier", 28, #""s": "12345""#, "28 trim", "no trim"),
        (
            "equalshashed", "Identifier", 20,
            #""s": "ea0d05859bb737105eea40bc605f6afd542c8f50f8497cd21ace38e731d7eef0""#,
            "20 trim", "no trim"
        ),
        ("isnotoneof", "Identifier", 1, #""l": ["12345"]"#, "no trim", "1 trim"),
        ("isnotoneofhashed", "Identifier", 1, #""l": ["12345"]"#, "no trim", "17 trim"),
        ("isoneof", "Identifier", 0, #""l": ["12345"]"#, "0 trim", "no trim"),
        (
            "isoneofhashed", "Identifier", 16,
            #""l": ["1765b470044971bbc19e7bed10112199c5da9c626455f86be109fef96e747911"]"#,
            "16 trim", "no trim"
        ),
        ("notcontainsanyof", "Identifier", 3, #""l": [" 12345 "]"#, "3 trim", "no trim"),
        ("notendswithanyof", "Identifier", 33, #""l": ["12345"]"#, "no trim", "33 trim"),
        (
            "notendswithanyofhashed", "Identifier", 25,
            #""l": ["5_2a338d3beb8ebe2e711d198420d04e2627e39501c2fcc7d5b3b8d93540691097"]"#,
            "no trim", "25 trim"
        ),
        ("notequals", "Identifier", 29, #""s": "12345""#, "no trim", "29 trim"),
        (
            "notequalshashed", "Identifier", 21,
            #""s": "650fe0e8e86030b5f73ccd77e6532f307adf82506048a22f02d95386206ecea1""#,
            "no trim", "21 trim"
        ),
        ("notstartwithanyof", "Identifier", 31, #""l": ["12345"]"#, "no trim", "31 trim"),
        (
            "notstartwithanyofhashed", "Identifier", 23,
            #""l": ["5_586ab2ec61946cb1457d4af170d88e7f14e655d9debf352b4ab6bf5bf77df3f7"]"#,
            "no trim", "23 trim"
        ),
        ("numberequals", "Number", 10, #""d": 3"#, "10 trim", "no trim"),
        ("numbergreater", "Number", 14, #""d": 2"#, "14 trim", "no trim"),
        ("numbergreaterequals", "Number", 15, #""d": 2"#, "15 trim", "no trim"),
        ("numberless", "Number", 12, #""d": 4"#, "12 trim", "no trim"),
        ("numberlessequals", "Number", 13, #""d": 4"#, "13 trim", "no trim"),
        ("numbernotequals", "Number", 11, #""d": 6"#, "11 trim", "no trim"),
        ("semvergreater", "Version", 8, #""s": "0.1.1""#, "8 trim", "no trim"),
        ("semvergreaterequals", "Version", 9, #""s": "0.1.1""#, "9 trim", "no trim"),
        ("semverisnotoneof", "Version", 5, #""l": ["1.0.1"]"#, "5 trim", "no trim"),
        ("semverisoneof", "Version", 4, #""l": ["1.0.0"]"#, "4 trim", "no trim"),
        ("semverless", "Version", 6, #""s": "1.0.1""#, "6 trim", "no trim"),
        ("semverlessequals", "Version", 7, #""s": "1.0.1""#, "7 trim", "no trim"),
        ("startwithanyof", "Identifier", 30, #""l": ["12345"]"#, "30 trim", "no trim"),
        (
            "startwithanyofhashed", "Identifier", 22,
            #""l": ["5_67a323069ee45fef4ccd8365007d4713f7a3bc87764943b1139e8e50d1aee8fd"]"#,
            "22 trim", "no trim"
        ),
    ]

    /// The settings of `comparison_value_trimming.json` (salt below); the comparison values have spaces around them.
    static let valueRows: [Row] = [
        ("arraycontainsanyof", "Country", 34, #""l": [" USA "]"#, "34 trim", "no trim"),
        (
            "arraycontainsanyofhashed", "Country", 26,
            #""l": [" 028fdb841bf3b2cc27fce407da08f87acd3a58a08c67d819cdb9351857b14237 "]"#,
            "26 trim", "no trim"
        ),
        ("arraynotcontainsanyof", "Country", 35, #""l": [" USA "]"#, "no trim", "35 trim"),
        (
            "arraynotcontainsanyofhashed", "Country", 27,
            #""l": [" 60b747c290642863f9a6c68773ed309a9fb02c6c1ae65c77037046918f4c1d3c "]"#,
            "no trim", "27 trim"
        ),
        ("containsanyof", "Identifier", 2, #""l": [" 12345 "]"#, "2 trim", "no trim"),
        ("endswithanyof", "Identifier", 32, #""l": [" 12345 "]"#, "32 trim", "no trim"),
        (
            "endswithanyofhashed", "Identifier", 24,
            #""l": [" 5_a6ce5e2838d4e0c27cd705c90f39e60d79056062983c39951668cf947ec406c2 "]"#,
            "24 trim", "no trim"
        ),
        ("equals", "Identifier", 28, #""s": " 12345 ""#, "28 trim", "no trim"),
        (
            "equalshashed", "Identifier", 20,
            #""s": " a2868640b1fe24c98e50b168756d83fd03779dd4349d6ddab5d7d6ef8dad13bd ""#,
            "20 trim", "no trim"
        ),
        ("isnotoneof", "Identifier", 1, #""l": [" 12345 "]"#, "no trim", "1 trim"),
        ("isnotoneofhashed", "Identifier", 1, #""l": [" 12345 "]"#, "no trim", "17 trim"),
        ("isoneof", "Identifier", 0, #""l": [" 12345 "]"#, "0 trim", "no trim"),
        (
            "isoneofhashed", "Identifier", 16,
            #""l": [" 55ce90920d20fc0bf8078471062a85f82cc5ea2226012a901a5045775bace0f4 "]"#,
            "16 trim", "no trim"
        ),
        ("notcontainsanyof", "Identifier", 3, #""l": [" 12345 "]"#, "no trim", "3 trim"),
        ("notendswithanyof", "Identifier", 33, #""l": [" 12345 "]"#, "no trim", "33 trim"),
        (
            "notendswithanyofhashed", "Identifier", 25,
            #""l": [" 5_c517fc957907e30b6a790540a20172a3a5d3a7458a85e340a7b1a1ac982be278 "]"#,
            "no trim", "25 trim"
        ),
        ("notequals", "Identifier", 29, #""s": " 12345 ""#, "no trim", "29 trim"),
        (
            "notequalshashed", "Identifier", 21,
            #""s": " 31ceae14b865b0842e93fdc3a42a7e45780ccc41772ca9355db50e09d81e13ef ""#,
            "no trim", "21 trim"
        ),
        ("notstartwithanyof", "Identifier", 31, #""l": [" 12345 "]"#, "no trim", "31 trim"),
        (
            "notstartwithanyofhashed", "Identifier", 23,
            #""l": [" 5_3643bbdd1bce4021fe4dbd55e6cc2f4902e4f50e592597d1a2d0e944fb7dfb42 "]"#,
            "no trim", "23 trim"
        ),
        ("semvergreater", "Version", 8, #""s": " 0.1.1 ""#, "8 trim", "no trim"),
        ("semvergreaterequals", "Version", 9, #""s": " 0.1.1 ""#, "9 trim", "no trim"),
        ("semverisnotoneof", "Version", 5, #""l": [" 1.0.1 "]"#, "5 trim", "no trim"),
        ("semverisoneof", "Version", 4, #""l": [" 1.0.0 "]"#, "4 trim", "no trim"),
        ("semverless", "Version", 6, #""s": " 1.0.1 ""#, "6 trim", "no trim"),
        ("semverlessequals", "Version", 7, #""s": " 1.0.1 ""#, "7 trim", "no trim"),
        ("startwithanyof", "Identifier", 30, #""l": [" 12345 "]"#, "30 trim", "no trim"),
        (
            "startwithanyofhashed", "Identifier", 22,
            #""l": [" 5_3e052709552ca9d5bd6c459cb7ab0389f3210f6aafc3d006a2481635e9614a7c "]"#,
            "22 trim", "no trim"
        ),
    ]

    /// A config of the one setting `row`, with the data file's salt.
    static func config(_ row: Row, salt: String) -> String {
        """
        {"p": {"u": "https://test-cdn-eu.configcat.com", "r": 0, "s": "\(salt)"},
         "f": {"\(row.key)": {"t": 1, "v": {"s": "\(row.otherwise)"},
                 "r": [{"c": [{"u": {"a": "\(row.attribute)", "c": \(row.comparator), \(row.value)}}],
                        "s": {"v": {"s": "\(row.served)"}}}]}}}
        """
    }

    /// The answer the SDK tests expect: the "… trim" value for a comparator that trims, else "no trim".
    static func expected(_ row: Row, trimmed: Bool) -> String {
        trimmed ? [row.served, row.otherwise].first { $0 != "no trim" } ?? "" : "no trim"
    }

    @Test("the attribute is trimmed for versions, numbers and dates only", arguments: attributeRows.indices)
    func attributeTrimming(index: Int) throws {
        let row = Self.attributeRows[index]
        let payload = try Fixture.decode(Self.config(row, salt: "VjBfGYcmyHzLBv5EINgSBbX6/rYevYGWQhF3Zk5t8i4="))
        let user = EvaluationContext(
            targetingKey: " 12345 ",
            attributes: ["country": #"[" USA "]"#, "Version": " 1.0.0 ", "Number": " 3 ", "Date": " 1705253400 "])
        let trims = ["semver", "number", "date"].contains { row.key.hasPrefix($0) }
        #expect(payload.evaluate(row.key, in: user).value == .string(Self.expected(row, trimmed: trims)), "\(row.key)")
    }

    @Test("the comparison value is trimmed for versions only", arguments: valueRows.indices)
    func valueTrimming(index: Int) throws {
        let row = Self.valueRows[index]
        let payload = try Fixture.decode(Self.config(row, salt: "zsVN1DQ9Oa2FjFc96MvPfMM5Vs+KKV00NyybJZipyf4="))
        let user = EvaluationContext(
            targetingKey: "12345",
            attributes: ["country": #"["USA"]"#, "Version": "1.0.0", "Number": "3", "Date": "1705253400"])
        let trims = row.key.hasPrefix("semver")
        #expect(payload.evaluate(row.key, in: user).value == .string(Self.expected(row, trimmed: trims)), "\(row.key)")
    }
}
