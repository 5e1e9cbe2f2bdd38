import Foundation
import XCTest
import ModelLintSupport
import ModelLintModel
import ModelLintDiff
import ModelLintHistory
import ModelLintCompiled
import ModelLintStores
import ModelLintProjects
import ModelLintRules
import ModelLintEngine
import ModelLintReporting
import ModelLintCommands
import ModelLintGather

final class ConfigurationTests: XCTestCase {
    private func configError(_ text: String, file: String = ".modellint.json") throws -> CommandOutput {
        let directory = try makeTemporaryDirectory(self)
        try writeBundle(in: directory, versions: [("Near 1", "<entity name=\"Thing\"/>")], current: "Near 1")
        try Data(text.utf8).write(to: directory.appendingPathComponent(file))
        return modellint(["check"], in: directory)
    }

    /// docs/configuration.schema.json describes what the reader accepts: the same keys at every level, every rule
    /// id and the four levels; a configuration naming it in `$schema` is read as one without.
    func testTheConfigurationSchemaListsWhatTheReaderAccepts() throws {
        let bytes = try Array(Data(contentsOf: repositoryRoot.appendingPathComponent("docs/configuration.schema.json")))
        let (schema, _) = try JSONParser.parse(bytes, options: .init(json5: false))
        func keys(_ value: JSONValue?) -> [String] { (value?["properties"]?.objectValue ?? []).map(\.0).sorted() }
        XCTAssertEqual(keys(schema), (Configuration.topLevelKeys + ["$schema"]).sorted())
        XCTAssertEqual(keys(schema["$defs"]?["bundle"]), Configuration.bundleKeys.sorted())
        XCTAssertEqual(keys(schema["$defs"]?["retirement"]), Configuration.retiredKeys.sorted())
        XCTAssertEqual(keys(schema["$defs"]?["rename"]), Configuration.renamedKeys.sorted())
        let ruleIDs = schema["properties"]?["rules"]?["propertyNames"]?["enum"]?.arrayValue?.compactMap(\.stringValue)
        XCTAssertEqual(ruleIDs, RuleRegistry.ids.sorted(), "a rule added or renamed: list its id in the schema")
        XCTAssertEqual(
            schema["$defs"]?["level"]?["enum"]?.arrayValue?.compactMap(\.stringValue),
            ["off", "note", "warning", "error"])
        let out = try configError(
            "{ \"$schema\": \"docs/configuration.schema.json\", \"rules\": { \"placeholder-entity\": \"off\" } }")
        XCTAssertEqual(out.exitCode, 0, out.standardError)
    }

    func testConfigurationErrorsNameTheKeyAndExitTwo() throws {
        let cases: [(String, String)] = [
            ("{ \"rules\": { \"no-such-rule\": \"off\" } }", "rules.no-such-rule: unknown rule id"),
            (
                "{ \"rules\": { \"missing-inverse\": \"loud\" } }",
                "rules.missing-inverse: must be one of off, note, warning, error"
            ),
            ("{ \"colour\": true }", "colour: unknown key"),
            ("{ \"migration\": \"sideways\" }", "migration: must be \"direct\" or \"progressive\""),
            (
                "{ \"bundles\": { \"Gone.xcdatamodeld\": {} } }",
                "bundles.Gone.xcdatamodeld: no bundle at Gone.xcdatamodeld"
            ),
            (
                "{ \"bundles\": { \"Near.xcdatamodeld\": { \"versionOrdr\": [] } } }",
                "bundles.Near.xcdatamodeld.versionOrdr: unknown key"
            ),
            (
                "{ \"bundles\": { \"Near.xcdatamodeld\": { \"retired\": [ { \"entity\": \"Thing\" } ] } } }",
                "bundles.Near.xcdatamodeld.retired[0].property: is required"
            ),
            ("{ \"exclude\": [ 3 ] }", "exclude[0]: must be a string"),
            ("{ \"$schema\": 3 }", "$schema: must be the schema's location"),
            ("{ not json", "not valid JSON"),
            ("[]", "the configuration must be a JSON object"),
            (
                String(repeating: "[", count: 1000) + String(repeating: "]", count: 1000),
                "nested more than 64 levels deep"
            ),
        ]
        for (text, expected) in cases {
            let out = try configError(text)
            XCTAssertEqual(out.exitCode, 2, text)
            XCTAssertTrue(out.standardError.contains(expected), "\(text): \(out.standardError)")
            XCTAssertTrue(out.standardError.hasPrefix("modellint: configuration error: "), out.standardError)
        }
    }

    func testJSON5CommentsAndTrailingCommas() throws {
        let out = try configError(
            """
            {
              // how this app migrates
              "migration": "progressive",
              "rules": { "missing-inverse": "note", },
            }
            """)
        XCTAssertEqual(out.exitCode, 0, out.standardError)
    }

    func testExplicitConfigAndWalkingUp() throws {
        let directory = try makeTemporaryDirectory(self)
        try writeBundle(
            in: directory,
            versions: [
                (
                    "Near 1",
                    "<entity name=\"Owner\"><relationship name=\"things\" optional=\"YES\" toMany=\"YES\" deletionRule=\"Nullify\" destinationEntity=\"Owner\"/></entity>"
                )
            ], current: "Near 1")
        try Data("{ \"rules\": { \"missing-inverse\": \"error\" } }".utf8).write(
            to: directory.appendingPathComponent(".modellint.json"))
        let nested = directory.appendingPathComponent("Near.xcdatamodeld/Near 1.xcdatamodel")
        XCTAssertEqual(modellint(["check"], in: nested).exitCode, 1, "found walking up")
        try Data("{}".utf8).write(to: directory.appendingPathComponent("other.json"))
        XCTAssertEqual(modellint(["check", "--config", "other.json"], in: directory).exitCode, 0)
        let missing = modellint(["check", "--config", "absent.json"], in: directory)
        XCTAssertEqual(missing.exitCode, 2)
        XCTAssertEqual(missing.standardError, "modellint: configuration error: absent.json: no such file\n")
    }

    func testExcludeGlobs() throws {
        let directory = try makeTemporaryDirectory(self)
        try writeBundle(
            in: directory.appendingPathComponent("App"), versions: [("Near 1", "<entity name=\"Thing\"/>")],
            current: "Near 1")
        try writeBundle(
            in: directory.appendingPathComponent("Vendor/Lib"), versions: [("Near 1", "<entity name=\"Thing\"/>")],
            current: "Near 1")
        try Data("{ \"exclude\": [\"Vendor/**\"] }".utf8).write(to: directory.appendingPathComponent(".modellint.json"))
        XCTAssertEqual(
            modellint(["check"], in: directory).standardOutput,
            "0 errors, 0 warnings, 0 notes in 1 bundle (1 version)\n")
        XCTAssertTrue(Glob.matches(pattern: "Vendor/**", path: "Vendor/Lib/Near.xcdatamodeld"))
        XCTAssertTrue(Glob.matches(pattern: "**/Pods", path: "a/b/Pods"))
        XCTAssertTrue(Glob.matches(pattern: "Vendor", path: "Vendor/Lib"))
        XCTAssertFalse(Glob.matches(pattern: "Vend", path: "Vendor/Lib"))
        XCTAssertFalse(Glob.matches(pattern: "*.xcdatamodeld", path: "a/B.xcdatamodeld"))
        XCTAssertTrue(Glob.matches(pattern: "a/*.xcdatamodeld", path: "a/B.xcdatamodeld"))
    }

    func testVersionOrderFromConfiguration() throws {
        let directory = try makeTemporaryDirectory(self)
        try writeBundle(
            in: directory, name: "User",
            versions: [
                ("UserDataModel", "<entity name=\"A\"/>"), ("MultiassetUserDataModel", "<entity name=\"A\"/>"),
                ("MultiassetUserDataModel2", "<entity name=\"A\"/>"),
            ], current: "MultiassetUserDataModel2")
        let json = { (out: CommandOutput) -> [String] in
            let object = try? JSONSerialization.jsonObject(with: Data(out.standardOutput.utf8)) as? [String: Any]
            return ((object?["bundles"] as? [[String: Any]])?.first?["versions"] as? [String]) ?? []
        }
        // Two name stems: the current version's stem comes last (docs/cli.md "Which findings count": version order).
        XCTAssertEqual(
            json(modellint(["check", "--format", "json"], in: directory)),
            ["UserDataModel", "MultiassetUserDataModel", "MultiassetUserDataModel2"])
        try Data(
            "{ \"bundles\": { \"User.xcdatamodeld\": { \"versionOrder\": [\"MultiassetUserDataModel\", \"UserDataModel\"] } } }"
                .utf8
        )
        .write(to: directory.appendingPathComponent(".modellint.json"))
        XCTAssertEqual(
            json(modellint(["check", "--format", "json"], in: directory)),
            ["MultiassetUserDataModel", "UserDataModel", "MultiassetUserDataModel2"], "the configuration wins")
    }
}
