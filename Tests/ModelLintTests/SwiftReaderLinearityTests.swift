import XCTest
import ModelLintSwiftData

/// The Swift reader's work grows linearly with its input, whatever the input holds. Each case is a shape that once
/// cost quadratic, cubic or exponential time (a list built from lists, unclosed generics, `#if`s and calls, `.self`
/// chains, many stage constants or extensions), read at N and at 2N: the work (tokens visited, declarations and
/// lists built, counted by the scanner and the reader) may at most double, with a little slack for what every file
/// costs once. Counted work, not time: the test cannot flake on a busy machine.
final class SwiftReaderLinearityTests: XCTestCase {
    static let header = "import SwiftData\n@Model final class Item { var name: String = \"\"\n init() {} }\n"

    static func work(_ source: String) -> (steps: Int, sets: [SwiftSchemaSet]) {
        let file = SwiftSourceFile(path: "App.swift", bytes: Array(source.utf8))
        let (sets, steps) = SwiftDataReader.schemaSetsCountingSteps([file], moduleName: "App")
        return (file.readingSteps + steps, sets)
    }

    func assertLinear(
        _ shape: String, _ make: (Int) -> String, n: Int, file: StaticString = #filePath, line: UInt = #line
    ) {
        let small = Self.work(make(n)).steps
        let large = Self.work(make(2 * n)).steps
        XCTAssertGreaterThan(small, n, "\(shape): the work counts the input", file: file, line: line)
        XCTAssertLessThanOrEqual(
            Double(large), 2.2 * Double(small), "\(shape): \(small) steps at N = \(n), \(large) at 2N", file: file,
            line: line)
    }

    /// `V2.models = V1.models + V1.models`, k deep: the list has one type, however often it is repeated.
    func testListsBuiltFromListsAreReadOncePerSchema() {
        func source(_ k: Int) -> String {
            var s = Self.header
            s += "enum S0: VersionedSchema { static var versionIdentifier = Schema.Version(1, 0, 0)\n"
            s += " static var models: [any PersistentModel.Type] { [Item.self] } }\n"
            for i in 1..<k {
                s += "enum S\(i): VersionedSchema { static var versionIdentifier = Schema.Version(\(i + 1), 0, 0)\n"
                s += " static var models: [any PersistentModel.Type] { S\(i - 1).models + S\(i - 1).models } }\n"
            }
            return s
        }
        assertLinear("models doubling", source, n: 8)
        let deepest = Self.work(source(12)).sets.flatMap(\.schemas).first { $0.name == "S11" }
        XCTAssertEqual(deepest?.models.map(\.entityName), ["Item"])
    }

    func testUnclosedGenericClausesAreReadOnce() {
        assertLinear("func f<<<…", { Self.header + "func f" + String(repeating: "<", count: $0) + "\n" }, n: 2_000)
    }

    func testUnclosedConditionsThenDeclarations() {
        assertLinear(
            "#if … then declarations",
            { n in
                Self.header + String(repeating: "#if A\n", count: n) + (0..<n).map { "struct T\($0) {}\n" }.joined()
            }, n: 1_000)
        assertLinear(
            "repeated #else",
            { n in
                Self.header + "#if A\n" + String(repeating: "#else\n", count: n)
                    + (0..<n).map { "struct T\($0) {}\n" }.joined()
            }, n: 1_000)
    }

    func testSelfChainsInAContainer() {
        assertLinear(
            "Item.self.self…",
            { Self.header + "let c = try ModelContainer(for: Item" + String(repeating: ".self", count: $0) + ")\n" },
            n: 2_000)
    }

    func testUnclosedSchemaCalls() {
        assertLinear(
            "Schema(versionedSchema lines",
            { Self.header + String(repeating: "let s = Schema(versionedSchema\n", count: $0) }, n: 2_000)
        assertLinear(
            "Schema(versionedSchema on one line",
            { Self.header + String(repeating: "Schema(versionedSchema ", count: $0) }, n: 2_000)
    }

    func testAPlanNamingManyStageConstants() {
        func source(_ n: Int, inPlan: Bool) -> String {
            var s =
                Self.header + "enum P: SchemaMigrationPlan {\n static var schemas: [any VersionedSchema.Type] { [] }\n"
            s += " static var stages: [MigrationStage] { [" + (0..<n).map { "s\($0)" }.joined(separator: ", ") + "] }\n"
            let constants = (0..<n).map {
                "\(inPlan ? " static " : "")let s\($0) = MigrationStage.lightweight(fromVersion: A.self, toVersion: B.self)\n"
            }.joined()
            return inPlan ? s + constants + "}\n" : s + "}\n" + constants
        }
        assertLinear("stage constants in the plan", { source($0, inPlan: true) }, n: 500)
        assertLinear("stage constants at file scope", { source($0, inPlan: false) }, n: 500)
    }

    func testManyExtensionsOfASchema() {
        assertLinear(
            "one-line extensions",
            { n in
                Self.header + "enum V1: VersionedSchema { static var versionIdentifier = Schema.Version(1, 0, 0)\n"
                    + " static var models: [any PersistentModel.Type] { [Item.self] } }\n"
                    + (0..<n).map { "extension V1 { static let c\($0) = 1 }\n" }.joined()
            }, n: 1_000)
    }
}
