import ModelLintSupport
import ModelLintModel
import ModelLintDiff
import ModelLintHistory
import ModelLintCompiled
import ModelLintStores
import ModelLintProjects
import ModelLintSwiftData

/// Judges one reference to the model in the app's code or project generator (already scanned) against the
/// bundles of its repository.
package protocol SourceReferenceRule: Rule {
    func check(_ reference: SourceReference, bundles: [SourceReferenceContext]) -> [Finding]
}

/// What a reference is judged against: a bundle's name, versions, checksums and current version.
package struct SourceReferenceContext: Sendable {
    package var bundlePath: String
    package var bundleName: String
    package var versionNames: Set<String>
    /// versionChecksum -> version name.
    package var checksums: [String: String]
    package var currentVersion: String?

    package init(bundle: ModelBundle) {
        bundlePath = bundle.path
        bundleName = bundle.name
        versionNames = Set(bundle.versions.map(\.name))
        var checksums: [String: String] = [:]
        for version in bundle.versions {
            if let m = version.model { checksums[m.versionHashes.versionChecksum] = version.name }
        }
        self.checksums = checksums
        currentVersion = bundle.declaredCurrentVersion
    }
}

extension SourceReferenceRule { package var kind: RuleKind { .sourceReference(self) } }
