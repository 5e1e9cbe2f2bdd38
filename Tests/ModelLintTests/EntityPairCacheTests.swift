import Foundation
import XCTest
@testable import ModelLint

/// Older versions compared with one newer version repeat most entity pairs; a repeat is moved from the
/// cache. Every diff must be exactly what working each pair out afresh gives.
final class EntityPairCacheTests: XCTestCase {
    /// Everything a diff holds, as text to compare.
    private func fingerprint(_ diff: ModelDiff) -> String {
        func property(_ p: Property) -> String { "\(p.kindName) \(p.name)@\(p.location)" }
        func pairs(_ list: [PropertyPair]) -> String {
            list.map { "\(property($0.old))>\(property($0.new)) \($0.oldOwner)>\($0.newOwner) \($0.facets)" }.joined(separator: "; ")
        }
        let matched = diff.matchedEntities.map { pair in
            "\(pair.old.name)@\(pair.old.location)>\(pair.new.name)@\(pair.new.location) \(pair.facets) [\(pairs(pair.matchedProperties))] "
                + "+\(pair.addedProperties.map(property)) -\(pair.removedProperties.map(property)) "
                + "t[\(pairs(pair.becameTransient))] k[\(pairs(pair.kindChanged))]"
        }
        return (matched + ["+\(diff.addedEntities.map(\.name))", "-\(diff.removedEntities.map(\.name))"]).joined(separator: "\n")
    }

    func testEveryDirectPairMatchesWorkingItOutAfresh() throws {
        var bundles: [URL] = []
        var roots = [repositoryRoot.appendingPathComponent("Fixtures")]
        if let corpusRoot { roots.append(corpusRoot) }
        for root in roots {
            let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
            while let url = walker?.nextObject() as? URL {
                guard url.pathExtension == "xcdatamodeld" else { continue }
                bundles.append(url)
                walker?.skipDescendants()
            }
        }
        XCTAssertEqual(bundles.count, corpusRoot == nil ? 14 : 30)
        var moved = 0
        for bundle in bundles {
            let loaded = BundleLoader.load(bundleURL: bundle, displayPath: bundle.lastPathComponent)
            let versions = loaded.versions.compactMap { v in v.model.map { VersionRef(name: v.name, contentsPath: v.contentsPath, model: $0) } }
            guard let current = versions.last else { continue }
            let cache = EntityPairCache()
            // Newest first, as a device furthest behind is compared last: earlier pairs fill the cache.
            for older in versions.dropLast().reversed() {
                let cached = ModelDiff(from: older, to: current, isAdjacent: false, cache: cache)
                let afresh = ModelDiff(from: older, to: current, isAdjacent: false)
                XCTAssertEqual(fingerprint(cached), fingerprint(afresh), "\(bundle.lastPathComponent): \(older.name) -> \(current.name)")
            }
            moved += cache.hits
        }
        XCTAssertGreaterThan(moved, corpusRoot == nil ? 0 : 1_000, "pairs moved from the cache")
    }
}
