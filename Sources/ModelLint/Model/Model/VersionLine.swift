import ModelLintSupport

/// A bundle's readable versions as they are judged: in order, from the oldest one the app still migrates, and the
/// one treated as current. With no usable current version (none declared, or it cannot be read), the last
/// readable one is current: the one place that is decided.
package struct VersionLine: Sendable {
    package var versions: [VersionRef]
    /// Where the current version is in `versions` (0 when there are none).
    package var currentPosition: Int

    package var current: VersionRef? { versions.isEmpty ? nil : versions[currentPosition] }
    package var names: [String] { versions.map(\.name) }

    /// `oldestMigrated`: stores of earlier versions are never migrated (the app abandoned them), so the line
    /// begins there, as if the bundle did; a name the bundle lacks changes nothing (the configuration refuses it).
    package init(_ bundle: ModelBundle, oldestMigrated: String? = nil) {
        var readable = bundle.readableVersions
        if let oldestMigrated, let start = readable.firstIndex(where: { $0.name.isExactly(oldestMigrated) }) {
            readable = Array(readable[start...])
        }
        let currentName = bundle.currentVersion?.model != nil ? bundle.currentVersion?.name : readable.last?.name
        self.init(versions: readable, currentPosition: readable.firstIndex { $0.name == currentName })
    }

    /// `currentPosition` nil: the last version is current.
    package init(versions: [VersionRef], currentPosition: Int? = nil) {
        self.versions = versions
        self.currentPosition = currentPosition ?? max(versions.count - 1, 0)
    }

    /// The versions before the current one: what has shipped when nothing else records it.
    package var beforeCurrent: ArraySlice<VersionRef> { versions[..<currentPosition] }
}
