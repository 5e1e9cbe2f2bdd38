import Foundation
import Testing
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

/// Real bundles from ../shared/corpus, when this checkout has them (a user's clone does not).
@Suite struct CorpusTests {
    let temporary = TemporaryDirectories()

    struct Expectation {
        var path: String
        var current: String
        var versions: Int
        var first: String
        var last: String
    }

    let expectations: [Expectation] = [
        Expectation(
            path: "woocommerce__woocommerce-ios/Storage/Storage/Model/WooCommerce.xcdatamodeld", current: "Model 117",
            versions: 117, first: "Model", last: "Model 117"),
        Expectation(
            path: "novasamatech__nova-wallet-ios/novawallet/Common/Storage/SubstrateDataModel.xcdatamodeld",
            current: "SubstrateDataModel39", versions: 39, first: "SubstrateDataModel", last: "SubstrateDataModel39"),
        Expectation(
            path: "novasamatech__nova-wallet-ios/novawallet/Common/ViewModel/DisplayWalletViewModel.xcdatamodeld",
            current: "DisplayWalletViewModel", versions: 1, first: "DisplayWalletViewModel",
            last: "DisplayWalletViewModel"),
        Expectation(
            path: "rileytestut__Delta/Delta/Database/Model/Delta.xcdatamodeld", current: "Delta 12", versions: 12,
            first: "Delta", last: "Delta 12"),
        Expectation(
            path: "rileytestut__Delta/Delta/Database/Model/PreviousHarmony.xcdatamodeld", current: "Harmony",
            versions: 1, first: "Harmony", last: "Harmony"),
        Expectation(
            path: "moonlight-stream__moonlight-ios/Limelight/Limelight.xcdatamodeld", current: "Moonlight v1.10",
            versions: 15, first: "Limelight", last: "Moonlight v1.10"),
        Expectation(
            path: "Automattic__simplenote-ios/Simplenote/Simplenote.xcdatamodeld", current: "Simplenote 7", versions: 7,
            first: "Simplenote", last: "Simplenote 7"),
        Expectation(
            path: "JohanDegraeve__xdripswift/xDrip/Core Data/xdrip.xcdatamodeld", current: "xdrip v16", versions: 5,
            first: "xdrip v12", last: "xdrip v16"),
        Expectation(
            path: "duckduckgo__iOS/DuckDuckGo/AppRatingPrompt.xcdatamodeld", current: "AppRatingPrompt 2", versions: 2,
            first: "AppRatingPrompt", last: "AppRatingPrompt 2"),
        Expectation(
            path: "duckduckgo__iOS/Core/AppTrackingProtectionModel.xcdatamodeld", current: "AppTrackingProtectionModel",
            versions: 1, first: "AppTrackingProtectionModel", last: "AppTrackingProtectionModel"),
        Expectation(
            path: "duckduckgo__iOS/Core/BookmarksAndFolders.xcdatamodeld", current: "BookmarksAndFolders", versions: 1,
            first: "BookmarksAndFolders", last: "BookmarksAndFolders"),
        Expectation(
            path: "Aidoku__Aidoku/Shared/Aidoku.xcdatamodeld", current: "0.9", versions: 12, first: "Shared",
            last: "0.9"),
        Expectation(
            path: "IngmarStein__Kraftstoff/Fuel.xcdatamodeld", current: "Fuel", versions: 1, first: "Fuel", last: "Fuel"
        ),
        Expectation(
            path: "passepartoutvpn__passepartout/app-apple/Package/Sources/CommonLegacyV2/Profiles.xcdatamodeld",
            current: "Profiles", versions: 1, first: "Profiles", last: "Profiles"),
        Expectation(
            path: "passepartoutvpn__passepartout/app-apple/Package/Sources/CommonDataProfiles/Profiles.xcdatamodeld",
            current: "ProfilesV3", versions: 2, first: "Profiles", last: "ProfilesV3"),
    ]

    @Test(.enabled(if: corpusRoot != nil, "../shared/corpus is not present"))
    func testEveryBundleReadsWithTheRightCurrentVersionAndOrder() throws {
        let corpus = try #require(corpusRoot)
        for e in expectations {
            let bundle = BundleLoader.load(bundleURL: corpus.appendingPathComponent(e.path), displayPath: e.path)
            #expect(bundle.versions.count == e.versions, Comment(rawValue: e.path))
            #expect(bundle.currentVersion?.name == e.current, Comment(rawValue: e.path))
            #expect(bundle.versions.first?.name == e.first, Comment(rawValue: e.path))
            #expect(bundle.versions.last?.name == e.last, Comment(rawValue: e.path))
        }
    }

    @Test(.enabled(if: corpusRoot != nil, "../shared/corpus is not present"))
    func testNoUnknownXMLAndNoUnreadableVersionInTheCorpus() throws {
        let corpus = try #require(corpusRoot)
        let out = modellint(["check", "--format", "json"], in: corpus)
        #expect(out.exitCode == 0 || out.exitCode == 1, Comment(rawValue: out.standardError))
        let json = try #require(JSONSerialization.jsonObject(with: Data(out.standardOutput.utf8)) as? [String: Any])
        let diagnostics = try #require(json["diagnostics"] as? [[String: Any]])
        let rules = diagnostics.compactMap { $0["ruleId"] as? String }
        #expect(!rules.contains("unknown-xml-attribute"))
        #expect(!rules.contains("malformed-contents"))
        #expect((rules.filter { $0 == "legacy-model-format" }.count) == 1, "Simplenote's base version")
        let bundleCount = try FileManager.default.subpathsOfDirectory(atPath: corpus.path).filter {
            $0.hasSuffix(".xcdatamodeld")
        }.count
        // Every bundle folder is reported once; SwiftData schema sets (the corpus's Swift apps) are reported beside them.
        let bundles = try #require(json["bundles"] as? [[String: Any]])
        #expect(bundles.filter { ($0["kind"] as? String) != "swiftdata" }.count == bundleCount)
    }

    @Test(.enabled(if: corpusRoot != nil, "../shared/corpus is not present")) func testMoonlightAndAidokuNaturalOrder()
        throws
    {
        let corpus = try #require(corpusRoot)
        let moonlight = BundleLoader.load(
            bundleURL: corpus.appendingPathComponent(expectations[5].path), displayPath: "L")
        #expect(
            Array(moonlight.versions.map(\.name).prefix(6)) == [
                "Limelight", "Limelight 0.3.0", "Limelight 0.3.1", "Moonlight v1.0", "Moonlight v1.0-2",
                "Moonlight v1.1",
            ])
        let aidoku = BundleLoader.load(
            bundleURL: corpus.appendingPathComponent(expectations[11].path), displayPath: "A")
        #expect(
            aidoku.versions.map(\.name) == [
                "Shared", "0.5", "0.6", "0.6.7", "0.6.8", "0.6.10", "0.7", "0.7.1", "0.8", "0.8.2", "0.8.3", "0.9",
            ])
    }

    @Test(.enabled(if: corpusRoot != nil, "../shared/corpus is not present"))
    func testNovaUserDataModelNeedsVersionOrder() throws {
        let corpus = try #require(corpusRoot)
        let url = corpus.appendingPathComponent(
            "novasamatech__nova-wallet-ios/novawallet/Common/Storage/UserDataModel.xcdatamodeld")
        let natural = BundleLoader.load(bundleURL: url, displayPath: "U")
        #expect(
            Array(natural.versions.map(\.name).prefix(2)) == ["MultiassetUserDataModel", "UserDataModel"],
            "natural order is wrong here")
        // The configuration fixes it, read exactly as a user would write it.
        let directory = try temporary.make()
        let configPath = directory.appendingPathComponent(".modellint.json")
        try Data(
            "{ \"bundles\": { \"\(url.path)\": { \"versionOrder\": [\"UserDataModel\", \"MultiassetUserDataModel\"] } } }"
                .utf8
        ).write(to: configPath)
        let configuration = try Configuration.load(path: configPath.path, knownRuleIDs: RuleRegistry.ids)
        let report = Linter(configuration: configuration).lint(
            try Workspace(configuration: configuration, workingDirectory: directory.path).read(paths: [url.path]))
        let versions = try #require(report.bundles.first?.versions)
        #expect(Array(versions.prefix(3)) == ["UserDataModel", "MultiassetUserDataModel", "MultiassetUserDataModel2"])
        #expect(versions.last == "MultiassetUserDataModel20")
        #expect(report.bundles.first?.currentVersion == "MultiassetUserDataModel20")
    }

    private func diagnostics(_ relativePath: String) throws -> [[String: Any]] {
        let corpus = try #require(corpusRoot)
        let out = modellint(["check", relativePath, "--format", "json"], in: corpus)
        #expect(out.exitCode == 0 || out.exitCode == 1, Comment(rawValue: out.standardError))
        let json = try #require(JSONSerialization.jsonObject(with: Data(out.standardOutput.utf8)) as? [String: Any])
        return try #require(json["diagnostics"] as? [[String: Any]])
    }

    @Test(.enabled(if: corpusRoot != nil, "../shared/corpus is not present"))
    func testDeltaAdjacentFindingsAreNotesNamingTheirMappingModel() throws {
        let found = try diagnostics(expectations[3].path)
        let adjacent = found.filter { $0["fromVersion"] != nil && $0["ruleId"] as? String != "skip-version-upgrade" }
        #expect(adjacent.count > 10)
        for d in adjacent {
            #expect((d["severity"] as? String) == "note", "\(d)")
            let from = (d["fromVersion"] as! String).replacingOccurrences(of: " ", with: "")
            let to = (d["version"] as! String).replacingOccurrences(of: " ", with: "")
            #expect((d["mappingModel"] as? String) == "\(from)To\(to)")
        }
    }

    @Test(.enabled(if: corpusRoot != nil, "../shared/corpus is not present"))
    func testWooCommerceEntityRenameThroughElementID() throws {
        let pair = try diagnostics(expectations[0].path).filter {
            $0["fromVersion"] as? String == "Model 114" && $0["version"] as? String == "Model 115"
        }
        #expect(
            (pair.compactMap { $0["ruleId"] as? String }.sorted()) == ["hash-modifier-changed", "renaming-id-reliance"])
        let reliance = try #require(pair.first { $0["ruleId"] as? String == "renaming-id-reliance" })
        #expect((reliance["entity"] as? String) == "MetaData")
        #expect(
            (reliance["severity"] as? String) == "note",
            "Model 115 has shipped (the current version is Model 117): history")
    }

    @Test(.enabled(if: corpusRoot != nil, "../shared/corpus is not present"))
    func testWooCommerceQuantityIsANarrowingCoveredByItsMappingModel() throws {
        let pair = try diagnostics(expectations[0].path).filter {
            $0["fromVersion"] as? String == "Model 9" && $0["version"] as? String == "Model 10"
        }
        let quantity = pair.filter { $0["entity"] as? String == "OrderItem" && $0["property"] as? String == "quantity" }
        #expect((quantity.compactMap { $0["ruleId"] as? String }) == ["attribute-type-narrowing"])
        #expect((quantity.first?["severity"] as? String) == "note")
        #expect((quantity.first?["mappingModel"] as? String) == "WooCommerceModelV9toV10")
        #expect(pair.allSatisfy { $0["mappingModel"] as? String == "WooCommerceModelV9toV10" })
    }
}
