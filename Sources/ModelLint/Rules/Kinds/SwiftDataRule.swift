import ModelLintSupport
import ModelLintModel
import ModelLintDiff
import ModelLintHistory
import ModelLintCompiled
import ModelLintStores
import ModelLintProjects
import ModelLintSwiftData

/// Judges a SwiftData schema set as read from the app's Swift files (already scanned and built): the plan, its
/// stages, its schemas' models and the containers.
package protocol SwiftDataRule: Rule {
    func check(_ set: SwiftSchemaSet, context: SwiftDataContext) -> [Finding]
}

/// What a SwiftData rule may know beyond the Swift files: the schemas as they shipped.
package struct SwiftDataContext: Sendable {
    package struct Shipped: Sendable {
        /// The schema's model as it shipped, when read from git (a lock file keeps digests only).
        package var model: Model?
        package var digest: VersionDigest
        package var source: ShippedHistory.Source
    }

    /// Per schema name: what shipped, from the first record that has it (lock file, `--released`, `--against`).
    package var shipped: [String: Shipped]
    package init(histories: [ShippedHistory] = []) {
        var shipped: [String: Shipped] = [:]
        for history in histories {
            for version in history.versions where shipped[version.name] == nil {
                shipped[version.name] = Shipped(model: version.model, digest: version.digest, source: history.source)
            }
        }
        self.shipped = shipped
    }
}

extension SwiftDataRule { package var kind: RuleKind { .swiftData(self) } }
