import ModelLintSupport

/// What reading one `*.xcdatamodel` folder produced.
package enum VersionContent: Sendable {
    case model(Model)
    /// Empty, not well-formed, not a Core Data model, or refused (DTD): why, and where.
    case malformed(reason: String, location: SourceLocation)
    /// A version folder with neither `contents` nor the legacy binary files.
    case missing
    /// The pre-Xcode-4 binary format (`elements`/`layout`), which cannot be read.
    case legacy
}

package struct ModelVersion: Sendable {
    /// The folder name without `.xcdatamodel`: `Near 20`.
    package var name: String
    /// The version folder's path as displayed.
    package var folderPath: String
    /// The `contents` file's path as displayed.
    package var contentsPath: String
    package var content: VersionContent

    package var model: Model? {
        if case .model(let m) = content { return m }
        return nil
    }
    package init(name: String, folderPath: String, contentsPath: String, content: VersionContent) {
        self.name = name
        self.folderPath = folderPath
        self.contentsPath = contentsPath
        self.content = content
    }
}

/// A `.xcdatamodeld` bundle: versions in version order and the current-version pointer.
package struct ModelBundle: Sendable {
    /// The bundle's path as displayed.
    package var path: String
    /// Versions in version order (natural order, or the configuration's `versionOrder`).
    package var versions: [ModelVersion]
    /// The version `.xccurrentversion` names (folder name without extension), if the file names one.
    package var declaredCurrentVersion: String?
    package var currentVersionFile: CurrentVersionFile
    /// Why nothing the repository builds ships this bundle, when the run found it by searching and can tell
    /// (`bundle-not-shipped`); nil: it ships, or it was named, or the evidence does not decide.
    package var unshippedReason: String?
    /// How the version order was decided when the names have several stems (nil: natural order, or configured).
    package var orderVerdict: VersionOrderEvidence.Verdict?
    /// Read at a revision: the versions that are the work tree's own, taken from its read because git says they are
    /// byte for byte the same (`GitRepository.WorkTreeRead`). Empty for a bundle read from disk.
    package var workTreeVersions: Set<ExactName> = []

    /// The bundle with its versions ordered by evidence (mapping models, the current version's stem last, what
    /// `.xccurrentversion` named and when git first added each version), when the names have several stems and no
    /// order is configured.
    package func orderedByEvidence(
        mappingPairs: [(source: String, destination: String)], history: () -> VersionOrderEvidence.GitHistory?
    ) -> ModelBundle {
        let names = versions.map(\.name)
        guard Set(VersionOrderEvidence.stems(names).values).count > 1 else { return self }
        let (order, verdict) = VersionOrderEvidence.order(
            names, current: declaredCurrentVersion, mappingPairs: mappingPairs, history: history())
        var copy = self
        var byName: [ExactName: ModelVersion] = [:]
        for version in versions { byName[ExactName(version.name)] = version }
        copy.versions = order.map { byName[ExactName($0)]! }
        copy.orderVerdict = verdict
        return copy
    }

    /// What the versions were read from.
    package var source: Source = .xcdatamodeld

    /// The bundle as a command names it: `Name.xcdatamodeld`, or a SwiftData plan's (or module's) name.
    package var shownName: String { source.isSwiftData ? name : name + ".xcdatamodeld" }

    package enum Source: Sendable, Equatable {
        /// A `.xcdatamodeld` folder.
        case xcdatamodeld
        /// SwiftData schemas in Swift files: the plan's (or module's) name. Versions are schema types, migrated
        /// stage by stage. `versioned` is false for an app whose `@Model` classes are its one version: editing it
        /// in place is how such an app evolves.
        case swiftData(name: String, versioned: Bool)

        /// Whether the versions are SwiftData schemas: a finding's advice is then said in Swift.
        package var isSwiftData: Bool {
            if case .swiftData = self { return true }
            return false
        }
    }

    /// Version folders whose names are not valid UTF-8 (shown with `\x..` escapes): not read.
    package var unreadableVersionNames: [String] = []

    /// Versions whose names differ only by letter case or Unicode normalization: two folders on a disk that
    /// tells them apart, one folder (and a broken checkout) on a default macOS or Windows disk.
    package var confusableVersionNames: [(String, String)] {
        var pairs: [(String, String)] = []
        var byFolded: [String: String] = [:]
        for version in versions {
            // `String ==` and hashing treat canonically equivalent spellings as one, so folded keys meet.
            let folded = version.name.lowercased()
            if let first = byFolded[folded] {
                pairs.append((first, version.name))
            } else {
                byFolded[folded] = version.name
            }
        }
        return pairs
    }

    package enum CurrentVersionFile: Sendable, Equatable {
        case present
        case absent
        /// Present but without `_XCCurrentVersionName` (an empty `<dict/>`): treated as absent.
        case empty
        /// Present but not a readable property list.
        case unreadable(String)
    }

    package var name: String {
        if case .swiftData(let name, _) = source { return name }
        let last = path.split(separator: "/").last.map(String.init) ?? path
        return last.hasSuffix(".xcdatamodeld") ? String(last.dropLast(".xcdatamodeld".count)) : last
    }

    package var currentVersionFilePath: String { path + "/.xccurrentversion" }

    /// The version treated as current: the declared one when it exists, otherwise the last one
    /// in version order (with no usable current version, the last version is treated as current).
    package var currentVersionIndex: Int? {
        if let declared = declaredCurrentVersion, let i = versions.firstIndex(where: { $0.name.isExactly(declared) }) {
            return i
        }
        return versions.isEmpty ? nil : versions.count - 1
    }

    package var currentVersion: ModelVersion? { currentVersionIndex.map { versions[$0] } }

    /// How a finding about an unusable pointer says which version stands in for the current one.
    package var fallbackCurrentNote: String {
        versions.last.map { "; modellint treats \($0.name), the last in version order, as current" } ?? ""
    }
    package init(
        path: String, versions: [ModelVersion], declaredCurrentVersion: String? = nil,
        currentVersionFile: CurrentVersionFile, orderVerdict: VersionOrderEvidence.Verdict? = nil,
        unreadableVersionNames: [String] = []
    ) {
        self.path = path
        self.versions = versions
        self.declaredCurrentVersion = declaredCurrentVersion
        self.currentVersionFile = currentVersionFile
        self.orderVerdict = orderVerdict
        self.unreadableVersionNames = unreadableVersionNames
    }
}

/// One side of a compared pair: a readable version.
extension ModelBundle {
    /// The versions that read as models, in version order: what every rule kind compares.
    package var readableVersions: [VersionRef] {
        versions.compactMap { version in
            version.model.map { VersionRef(name: version.name, contentsPath: version.contentsPath, model: $0) }
        }
    }
}

package struct VersionRef: Sendable {
    package var name: String
    package var contentsPath: String
    /// The model in a box: a version is copied into every compared pair and diff, and a `Model` value counts a
    /// reference for each of its arrays and indexes (some thirty), on the cores that share the version.
    @usableFromInline var modelBox: ModelBox

    package var model: Model {
        _read { yield modelBox.model }
        set { modelBox = ModelBox(newValue) }
    }

    package init(name: String, contentsPath: String, model: Model) {
        self.name = name
        self.contentsPath = contentsPath
        self.modelBox = ModelBox(model)
    }

    @usableFromInline final class ModelBox: Sendable {
        @usableFromInline let model: Model
        @usableFromInline init(_ model: Model) { self.model = model }
    }
}
