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
    }

    public var source: Source
    public var versions: [Version]
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
            guard let now = bundle.versions.first(where: { $0.name == shipped.name }) else {
                return ShippedVersionComparison(name: shipped.name, source: history.source, status: .deleted, changes: [],
                                                location: SourceLocation(file: bundle.path + "/" + shipped.name + ".xcdatamodel"))
            }
            guard let model = now.model else {
                return ShippedVersionComparison(name: shipped.name, source: history.source, status: .unreadable, changes: [],
                                                location: SourceLocation(file: now.contentsPath))
            }
            let digest = VersionDigest(model: model)
            let status: Status = digest.schema != shipped.digest.schema ? .schemaChanged
                : digest.content != shipped.digest.content ? .contentChanged : .unchanged
            var changes: [String] = []
            if status != .unchanged {
                if let old = shipped.model {
                    changes = describe(ModelDiff(
                        from: VersionRef(name: shipped.name, contentsPath: "", model: old),
                        to: VersionRef(name: shipped.name, contentsPath: now.contentsPath, model: model), isAdjacent: true))
                }
                if changes.isEmpty {
                    changes = digest.changedEntities(comparedTo: shipped.digest).map { "entity \($0)" }
                }
            }
            return ShippedVersionComparison(name: shipped.name, source: history.source, status: status, changes: changes, location: model.location)
        }
    }

    static func describe(_ diff: ModelDiff) -> [String] {
        var out: [String] = []
        out += diff.addedEntities.map { "\($0.name) added" }
        out += diff.removedEntities.map { "\($0.name) removed" }
        for pair in diff.matchedEntities {
            out += pair.facets.map { "\(pair.new.name): \(label($0.rawValue))" }
            out += pair.addedProperties.map { "\(pair.new.name).\($0.name) added" }
            out += pair.removedProperties.map { "\(pair.new.name).\($0.name) removed" }
            out += pair.becameTransient.map { "\(pair.new.name).\($0.new.name) made transient" }
            out += pair.kindChanged.map { "\(pair.new.name).\($0.new.name) changed kind" }
            for property in pair.matchedProperties where !property.facets.isEmpty {
                out.append("\(pair.new.name).\(property.new.name): " + property.facets.map { label($0.rawValue) }.joined(separator: ", "))
            }
        }
        return out
    }

    /// `defaultValue` -> `default value`.
    static func label(_ facet: String) -> String {
        var out = ""
        for ch in facet {
            if ch.isUppercase { out += " " + ch.lowercased() } else { out.append(ch) }
        }
        return out
    }
}

/// Judges shipped versions compared with the work tree; never reads git or the lock file itself.
public protocol HistoryRule: Rule {
    func check(_ comparisons: [ShippedVersionComparison], bundle: ModelBundle) -> [Finding]
}
