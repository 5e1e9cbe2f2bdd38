import ModelLintSupport
import ModelLintModel
import ModelLintDiff

/// What counts as shipped for one bundle, and where that knowledge came from (rules.md "Shipped history").
public struct ShippedHistory: Sendable {
    public enum Source: Sendable, Equatable {
        /// `modellint.lock` at this path.
        case lockFile(String)
        /// `--released REF`: every version present at REF.
        case released(String)
        /// `--against REF`: the versions that at REF come before REF's current one.
        case against(String)

        public var label: String {
            switch self {
            case .lockFile(let path): return path
            case .released(let ref): return "release \(ref)"
            case .against(let ref): return ref
            }
        }
    }

    public struct Version: Sendable {
        public var name: String
        public var digest: VersionDigest
        /// The model as it shipped, when read from git (lock files keep digests only).
        public var model: Model?

        package init(name: String, digest: VersionDigest, model: Model? = nil) {
            self.name = name
            self.digest = digest
            self.model = model
        }
    }

    public var source: Source
    public var versions: [Version]

    package init(source: Source, versions: [Version]) {
        self.source = source
        self.versions = versions
    }
}

/// One shipped version compared with the work tree: the typed change history rules judge.
public struct ShippedVersionComparison: Sendable {
    public enum Status: Sendable, Equatable { case unchanged, deleted, unreadable, schemaChanged, contentChanged }
    public var name: String
    public var source: ShippedHistory.Source
    public var status: Status
    /// What changed, in words: `Thing.payload: transformer` (from git) or entity names (from a lock file).
    public var changes: [String]
    public var location: SourceLocation

    /// Compares every shipped version with the bundle as it is now.
    public static func compare(_ history: ShippedHistory, with bundle: ModelBundle) -> [ShippedVersionComparison] {
        history.versions.map { shipped in
            guard let now = bundle.versions.first(where: { $0.name.isExactly(shipped.name) }) else {
                return ShippedVersionComparison(
                    name: shipped.name, source: history.source, status: .deleted, changes: [],
                    location: SourceLocation(file: bundle.path + "/" + shipped.name + ".xcdatamodel"))
            }
            guard let model = now.model else {
                return ShippedVersionComparison(
                    name: shipped.name, source: history.source, status: .unreadable, changes: [],
                    location: SourceLocation(file: now.contentsPath))
            }
            // Core Data's view first: the entity hashes (or, for a format-1 record, its schema digest); then content.
            let verdict = shipped.digest.compare(with: model)
            let status: Status =
                verdict.schemaChanged ? .schemaChanged : verdict.contentChanged ? .contentChanged : .unchanged
            var changes: [String] = []
            if status != .unchanged {
                if let old = shipped.model {
                    // With the shipped model at hand (git), what changed and why, entity by entity.
                    let entries = describe(
                        ModelDiff(
                            from: VersionRef(name: shipped.name, contentsPath: "", model: old),
                            to: VersionRef(name: shipped.name, contentsPath: now.contentsPath, model: model),
                            isAdjacent: true))
                    if status == .schemaChanged {
                        let hashChanged = Set(verdict.changedEntities)
                        changes = entries.filter { hashChanged.contains($0.entity) }.map(\.text)
                        let described = Set(entries.map(\.entity))
                        changes += verdict.changedEntities.filter { !described.contains($0) }.map {
                            "\($0): version hash changed"
                        }
                    } else {
                        changes = entries.map(\.text)
                    }
                }
                if changes.isEmpty {
                    changes = verdict.changedEntities.map {
                        status == .schemaChanged && !shipped.digest.isLegacy
                            ? "\($0): version hash changed" : "entity \($0)"
                    }
                }
            }
            return ShippedVersionComparison(
                name: shipped.name, source: history.source, status: status, changes: changes, location: model.location)
        }
    }

    /// Each change, with the entity it is about (the newer name; a removed entity's own).
    package static func describe(_ diff: ModelDiff) -> [(entity: String, text: String)] {
        var out: [(String, String)] = []
        out += diff.addedEntities.map { ($0.name, "\($0.name) added") }
        out += diff.removedEntities.map { ($0.name, "\($0.name) removed") }
        for pair in diff.matchedEntities {
            let name = pair.new.name
            out += pair.facets.map { (name, "\(name): \(label($0.rawValue))") }
            out += pair.addedProperties.map { (name, "\(name).\($0.name) added") }
            out += pair.removedProperties.map { (name, "\(name).\($0.name) removed") }
            out += pair.becameTransient.map { (name, "\(name).\($0.new.name) made transient") }
            out += pair.kindChanged.map { (name, "\(name).\($0.new.name) changed kind") }
            for property in pair.matchedProperties where !property.facets.isEmpty {
                out.append(
                    (
                        name,
                        "\(name).\(property.new.name): "
                            + property.facets.map { label($0.rawValue) }.joined(separator: ", ")
                    ))
            }
        }
        return out
    }

    /// `defaultValue` -> `default value`.
    package static func label(_ facet: String) -> String {
        var out = ""
        for ch in facet {
            if ch.isUppercase { out += " " + ch.lowercased() } else { out.append(ch) }
        }
        return out
    }
    package init(
        name: String, source: ShippedHistory.Source, status: Status, changes: [String], location: SourceLocation
    ) {
        self.name = name
        self.source = source
        self.status = status
        self.changes = changes
        self.location = location
    }
}
