import XCTest
import ModelLintProjects

/// A CocoaPods spec read as text: the file patterns of `resources`, `resource_bundles` and `source_files` wherever
/// they are assigned, literals only, and which bundle paths they name.
final class PodspecTests: XCTestCase {
    private func ruby(_ text: String) -> Podspec { Podspec.readRuby(Array(text.utf8)) }

    func testTheFixturesSpecListsItsSourcesAndItsResourceBundle() throws {
        let text = try String(
            contentsOf: repositoryRoot.appendingPathComponent("Fixtures/PodLibrary/VaultKit.podspec"), encoding: .utf8)
        XCTAssertEqual(
            ruby(text),
            Podspec(patterns: ["VaultKit/Classes/**/*.{h,m}", "VaultKit/Assets/*.xcdatamodeld"], isComplete: true))
    }

    func testLiteralValuesInEveryShapeAndNothingFromCommentsStringsOrComparisons() {
        let spec = ruby(
            """
            Pod::Spec.new do |s|
              # s.resources = 'Commented/Out.xcdatamodeld'
              s.summary = "not s.resources = 'x' # nor this"
              s.ios.resources = %w[Core/Model.xcdatamodeld Core/*.png]
              s.subspec 'Sync' do |sync|
                sync.resource_bundles = {
                  'Sync' => [
                    'Sync/Assets/*.xcdatamodeld',
                    "Sync/Assets/*.xcmappingmodel", # trailing comma next
                  ],
                  Extra: 'Sync/Extra'
                }
              end
              s.source_files = 'A/*.{h,m}',
                'B/*.swift'
              if s.resources == nil then end
              s.resource = 'Single/Thing.bundle'; s.license = 'MIT'
            end
            """)
        XCTAssertEqual(
            spec.patterns,
            [
                "Core/Model.xcdatamodeld", "Core/*.png", "Sync/Assets/*.xcdatamodeld", "Sync/Assets/*.xcmappingmodel",
                "Sync/Extra", "A/*.{h,m}", "B/*.swift", "Single/Thing.bundle",
            ])
        XCTAssertTrue(spec.isComplete)
    }

    /// A value computed in Ruby is not read: the spec is incomplete, and the attributes after it are still read.
    func testComputedValuesMakeTheSpecIncomplete() {
        let interpolated = ruby("s.resources = \"#{s.name}/Model.xcdatamodeld\"\ns.source_files = 'A/*.m'\n")
        XCTAssertEqual(interpolated, Podspec(patterns: ["A/*.m"], isComplete: false))
        let called = ruby("s.resource_bundles = { 'K' => Dir.glob('K/**/*') }\ns.resources = 'R/M.xcdatamodeld'\n")
        XCTAssertEqual(called, Podspec(patterns: ["R/M.xcdatamodeld"], isComplete: false))
        XCTAssertEqual(ruby("s.resources = RESOURCES\n"), Podspec(patterns: [], isComplete: false))
        XCTAssertEqual(ruby("s.name = 'X'\n"), Podspec(patterns: [], isComplete: true))
    }

    func testTheJSONFormAtAnyDepth() {
        let json = """
            {"name": "VaultKit", "resource_bundles": {"VaultKit": ["VaultKit/Assets/*.xcdatamodeld"]},
             "subspecs": [{"name": "Core", "resources": "Core/Model.xcdatamodeld"}],
             "ios": {"source_files": ["Core/**/*.{h,m}"]}}
            """
        XCTAssertEqual(
            Podspec.readJSON(Array(json.utf8)),
            Podspec(
                patterns: ["VaultKit/Assets/*.xcdatamodeld", "Core/Model.xcdatamodeld", "Core/**/*.{h,m}"],
                isComplete: true))
        XCTAssertEqual(
            Podspec.readJSON(Array(#"{"resources": 3, "source_files": "A/*.m"}"#.utf8)),
            Podspec(patterns: ["A/*.m"], isComplete: false))
        XCTAssertNil(Podspec.readJSON(Array("{".utf8)))
    }

    func testWhichPatternsNameABundle() {
        func ships(_ pattern: String) -> Bool {
            Podspec(patterns: [pattern], isComplete: true).ships(
                "VaultKit/Assets/Vault.xcdatamodeld", versionFolders: ["Vault.xcdatamodel"])
        }
        XCTAssertTrue(ships("VaultKit/Assets/*.xcdatamodeld"))
        XCTAssertTrue(ships("./VaultKit/Assets/Vault.xcdatamodeld"))
        XCTAssertTrue(ships("VaultKit/**/*.{png,xcdatamodeld}"))
        XCTAssertTrue(ships("VaultKit/Assets"), "a folder ships what is in it")
        XCTAssertTrue(ships("VaultKit/Assets/Vault.xcdatamodeld/*.xcdatamodel"), "its versions")
        XCTAssertFalse(ships("VaultKit/Classes/**/*.{h,m}"))
        XCTAssertFalse(ships("VaultKit/Assets/*.xcassets"))
        XCTAssertFalse(ships("Vault.xcdatamodeld"), "relative to the spec's folder")
    }

    /// Alternatives are spelled out, nested ones too; past 256 the pattern stays as written.
    func testAlternativesAreBounded() {
        XCTAssertEqual(Podspec.alternatives("A/*.{h,{m,mm}}"), ["A/*.h", "A/*.m", "A/*.mm"])
        let hostile = String(repeating: "{a,b}", count: 9)
        XCTAssertEqual(Podspec.alternatives(hostile), [hostile])
        XCTAssertEqual(Podspec.alternatives(String(repeating: "{a,b}", count: 8)).count, 256)
    }
}
