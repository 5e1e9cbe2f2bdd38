import Foundation
import XCTest
import ModelLintCommands
import ModelLintGather

/// SwiftData read as the compiler reads it: a `@Model` in a one-branch `#if`, `[T]()` initializers, `TimeInterval`,
/// evaluated defaults. Each shape is compared with its plain spelling (the oracle: the same model written the way
/// the reader already knew), and the corpus's stores SwiftData wrote hold the hashes.
final class SwiftDataCompilerReadingTests: XCTestCase {
    private func hashes(_ source: String, file: String = "Models.swift") throws -> CommandOutput {
        let folder = try makeTemporaryDirectory(self)
        try Data(source.utf8).write(to: folder.appendingPathComponent(file))
        return modellint(["hashes", ".", "--format", "json"], in: folder)
    }

    func testShapesTheCompilerAcceptsHashAsTheirPlainSpelling() throws {
        let plain = try hashes(
            """
            import SwiftData
            @Model final class Coin { var value: Int = 0; init() {} }
            @Model final class Wallet {
                var coins: [Coin] = []
                var blob: Data = Data()
                var since: Double = 0
                var width: Double = 0
                init() {}
            }
            """)
        XCTAssertEqual(plain.exitCode, 0)
        XCTAssertFalse(plain.standardOutput.contains("unknown"), plain.standardOutput)
        let written = try hashes(
            """
            import SwiftData
            #if canImport(SwiftData) && os(iOS)
            @Model final class Coin { var value: Int = 0; init() {} }
            #endif
            @Model final class Wallet {
                var coins = [Coin]()
                var blob: Data = Data()
                var since: TimeInterval = 0
                var width: CGFloat = 0
                init() {}
            }
            """)
        XCTAssertEqual(written.standardOutput, plain.standardOutput)
        // A name declared differently in two branches cannot be known.
        let twoBranches = try hashes(
            """
            import SwiftData
            #if os(iOS)
            @Model final class Coin { var value: Int = 0; init() {} }
            #else
            @Model final class Coin { var value: String = ""; init() {} }
            #endif
            @Model final class Wallet { var name: String = ""; init() {} }
            """)
        XCTAssertFalse(twoBranches.standardOutput.contains("\"Coin\""), twoBranches.standardOutput)
    }

    /// A decoy declaration of a schema's name inside `#if NEVER` in another file cannot hide the real one (both
    /// compiled would be a redeclaration): the plan keeps both schemas and the finding between them.
    func testADecoyInAnIfBranchDoesNotHideTheRealDeclaration() throws {
        let folder = try makeTemporaryDirectory(self)
        try Data(
            """
            import SwiftData
            enum V1: VersionedSchema {
                static var versionIdentifier = Schema.Version(1, 0, 0)
                static var models: [any PersistentModel.Type] { [Note.self] }
                @Model final class Note { var title: String = ""; init() {} }
            }
            enum V2: VersionedSchema {
                static var versionIdentifier = Schema.Version(2, 0, 0)
                static var models: [any PersistentModel.Type] { [Note.self] }
                @Model final class Note { var title: String = ""; var streak: Int; init() { streak = 0 } }
            }
            enum Plan: SchemaMigrationPlan {
                static var schemas: [any VersionedSchema.Type] { [V1.self, V2.self] }
                static var stages: [MigrationStage] { [.lightweight(fromVersion: V1.self, toVersion: V2.self)] }
            }
            """.utf8
        ).write(to: folder.appendingPathComponent("Schemas.swift"))
        try Data("import SwiftData\n#if NEVER\nenum V2: VersionedSchema {}\n#endif\n".utf8).write(
            to: folder.appendingPathComponent("Decoy.swift"))
        let out = modellint(["check", "--format", "json"], in: folder)
        XCTAssertEqual(out.exitCode, 1)
        XCTAssertEqual(
            summary(jsonDiagnostics(out)), ["required-attribute-without-default error V1>V2 Note.streak @10"])
        // Two conditional declarations cannot be told apart: still unknown (no schema resolved, no hash claimed).
        try Data("import SwiftData\n#if os(iOS)\nenum V2: VersionedSchema {}\n#endif\n".utf8).write(
            to: folder.appendingPathComponent("Decoy.swift"))
        let schemas = folder.appendingPathComponent("Schemas.swift")
        let text = try String(contentsOf: schemas, encoding: .utf8)
        try Data(
            text.replacingOccurrences(
                of: "enum V2: VersionedSchema {\n", with: "#if !os(iOS)\nenum V2: VersionedSchema {\n"
            )
            .replacingOccurrences(
                of: "var streak: Int; init() { streak = 0 } }\n}\n",
                with: "var streak: Int; init() { streak = 0 } }\n}\n#endif\n"
            ).utf8
        ).write(to: schemas)
        let ambiguous = modellint(["check", "--format", "json"], in: folder)
        XCTAssertTrue(
            jsonDiagnostics(ambiguous).allSatisfy { ($0["ruleId"] as? String) != "required-attribute-without-default" })
    }

    /// Any initializer is a default to SwiftData: a new non-optional property with `= Data()`, `= .distantPast`
    /// or `= []` is no required-attribute-without-default; one with no initializer still is.
    func testAnyInitializerIsADefault() throws {
        let folder = try makeTemporaryDirectory(self)
        try Data(
            """
            import SwiftData
            enum V1: VersionedSchema {
                static var versionIdentifier = Schema.Version(1, 0, 0)
                static var models: [any PersistentModel.Type] { [Note.self] }
                @Model final class Note { var title: String = ""; init() {} }
            }
            enum V2: VersionedSchema {
                static var versionIdentifier = Schema.Version(2, 0, 0)
                static var models: [any PersistentModel.Type] { [Note.self] }
                @Model final class Note {
                    var title: String = ""
                    var blob: Data = Data()
                    var seen: Date = .distantPast
                    var counts: [String: Int] = [:]
                    var streak: Int
                    init() { streak = 0 }
                }
            }
            enum Plan: SchemaMigrationPlan {
                static var schemas: [any VersionedSchema.Type] { [V1.self, V2.self] }
                static var stages: [MigrationStage] { [.lightweight(fromVersion: V1.self, toVersion: V2.self)] }
            }
            """.utf8
        ).write(to: folder.appendingPathComponent("Schemas.swift"))
        let diagnostics = jsonDiagnostics(modellint(["check", "--format", "json"], in: folder))
        XCTAssertEqual(
            diagnostics.filter { ($0["ruleId"] as? String) == "required-attribute-without-default" }.map {
                "\($0["entity"]!).\($0["property"]!)"
            }, ["Note.streak"])
    }

    /// Previews and in-memory containers are not the app's container: PreviewContainers builds five from older
    /// schemas (a `#Preview`, a `PreviewProvider`, a `preview` property, a `makePreviewContainer()` and an in-memory
    /// configuration named in the file) and none is judged; the app's own container, built from an older schema,
    /// still is.
    func testPreviewsAndInMemoryContainersAreNotTheAppsContainer() throws {
        let fixtures = repositoryRoot.appendingPathComponent("Fixtures/SwiftData")
        let previews = jsonDiagnostics(
            modellint(["check", "PreviewContainers", "--format", "json", "--no-cache"], in: fixtures))
        XCTAssertEqual(previews.map { "\($0["ruleId"]!)" }, [])
        let folder = try makeTemporaryDirectory(self).appendingPathComponent("App")
        try FileManager.default.copyItem(at: fixtures.appendingPathComponent("PreviewContainers"), to: folder)
        let app = folder.appendingPathComponent("RecipesApp.swift")
        let source = try String(contentsOf: app, encoding: .utf8)
        XCTAssertTrue(source.contains("ModelContainer(for: RecipesV3.Recipe.self, migrationPlan"))
        try Data(
            source.replacingOccurrences(
                of: "ModelContainer(for: RecipesV3.Recipe.self, migrationPlan",
                with: "ModelContainer(for: RecipesV2.Recipe.self, migrationPlan"
            ).utf8
        ).write(to: app)
        let diagnostics = jsonDiagnostics(modellint(["check", "--format", "json", "--no-cache"], in: folder))
        XCTAssertEqual(
            diagnostics.map { "\($0["ruleId"]!) \($0["file"]!):\($0["line"]!)" },
            ["swiftdata-container-schema-not-latest RecipesApp.swift:8"])
    }

    /// The store SwiftData wrote for CartKit's three `#if`-wrapped classes: its `Z_METADATA` (read with Python's
    /// sqlite3, `immutable=1`, and plistlib, not by modellint) holds these hashes, checksum and digest.
    func testCartKitsSourceHashesToTheStoreSwiftDataWrote() throws {
        let corpus = try requireCorpus()
        let app = corpus.appendingPathComponent("Karim-ezzedine__CartKit")
        let text = modellint(["hashes", "Sources"], in: app).standardOutput
        for (name, value) in [
            ("versionChecksum", "2wsb3KxvOg2fCKAI7XTcqex2LnE5kpf6CjcDP/Srhao="),
            (
                "NSStoreModelVersionHashesDigest",
                "+mEQ1Z09tPcI+pjf5VpjZZLuQplYnsdB9Han6VX11CU8ubw76XzNAK7aKtF7pa0LUH2NO6/ntXjEJO35h15POQ=="
            ),
            ("CartItemModel", "+LsPuwkCTWKueVQ7wDlABSGUbAcxKQVkz1wq3hrjSJ8="),
            ("CartItemModifierModel", "LX2czhnKQgRzwVZomaR3+9xokM+gTW6f7GhrIBQCgXo="),
            ("CartModel", "Opf+CabYyBfnkrB+8c9UmQVX1Qan26SBEVf/2HRp5ic="),
        ] {
            let line = text.split(separator: "\n").first { $0.hasPrefix("  " + name + " ") }
            XCTAssertEqual(line?.split(separator: " ").last.map(String.init), value, name)
        }
        let store = "Tests/CartKitStorageSwiftDataTests/LegacySwiftData/CartKitSwiftData_v1.sqlite"
        let described = modellint(["store", store, "Sources"], in: app).standardOutput
        XCTAssertTrue(described.contains("\n  written by: current\n"), described)
        // With one class's type unreadable, nothing is claimed about it, nor a writer named on its account.
        let copy = try makeTemporaryDirectory(self).appendingPathComponent("CartKit")
        try FileManager.default.copyItem(at: app, to: copy)
        let cart = copy.appendingPathComponent("Sources/CartKitStorageSwiftData/Models/CartModel.swift")
        let source = try String(contentsOf: cart, encoding: .utf8)
        XCTAssertTrue(source.contains(": Date"))
        try Data(source.replacingOccurrences(of: ": Date", with: ": UndeclaredStamp").utf8).write(to: cart)
        let unknown = modellint(["store", store, "Sources"], in: copy).standardOutput
        XCTAssertTrue(
            unknown.contains(
                "\n  not compared: current's CartModel cannot be read from the source, so no hash of it is claimed\n"),
            unknown)
        XCTAssertFalse(unknown.contains("the hashes are equal"), unknown)
        XCTAssertFalse(unknown.contains("written by: current"), unknown)
    }

    /// FreezeRay's two stores, each written by one versioned schema: `store` names that schema.
    func testFreezeRaysStoresAreNamedByTheSchemaThatWroteThem() throws {
        let corpus = try requireCorpus()
        let app = corpus.appendingPathComponent("TrinsicVentures__FreezeRay/FreezeRayTestApp")
        for (store, schema) in [
            ("FreezeRay/Fixtures/1.0.0/App-1_0_0.sqlite", "AppSchemaV1"),
            ("FreezeRay/Fixtures/2.0.0/App-2_0_0.sqlite", "AppSchemaV2"),
        ] {
            let out = modellint(["store", store, "FreezeRayTestApp"], in: app).standardOutput
            XCTAssertTrue(out.contains("\n  written by: \(schema)\n"), out)
        }
    }
}
