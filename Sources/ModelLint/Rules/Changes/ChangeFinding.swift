import ModelLintModel
import ModelLintDiff

/// What a change rule found: a finding that always carries its identity — the renaming identifiers of the element
/// it is about, or the pair of versions itself — which is how the same problem is recognised on every pair it
/// appears in (skip-version-upgrade, baselines, `--only-new`). The only ways to make one are below.
package struct ChangeFinding: Sendable, Equatable {
    package private(set) var finding: Finding

    private init(_ finding: Finding) { self.finding = finding }

    /// What makes two findings the same problem across pairs (always set: both constructors set it).
    package var identity: String { finding.identity ?? "" }

    /// A finding about an element of a compared pair.
    package static func change(
        _ message: String, entity: Entity, property: Property? = nil, at location: SourceLocation? = nil,
        severity: Severity? = nil, aspect: String? = nil, failsToOpenStore: Bool = false
    ) -> ChangeFinding {
        var finding = Finding(
            message, at: location ?? property?.location ?? entity.location, entity: entity.name,
            property: property?.name,
            severity: severity)
        finding.failsToOpenStore = failsToOpenStore
        finding.identity = entity.renamingIdentifier + "/" + (property?.renamingIdentifier ?? "")
        // Which of several problems about one element (two constraints of one entity): part of the identity.
        if let aspect { finding.identity! += "/" + aspect }
        return ChangeFinding(finding)
    }

    /// A finding about the newer version of the pair as a whole.
    package static func aboutVersions(_ message: String, at location: SourceLocation) -> ChangeFinding {
        var finding = Finding(message, at: location)
        finding.identity = "version"
        return ChangeFinding(finding)
    }

    /// The fix said in Swift for this case, when the bundle is a SwiftData schema set.
    package var swiftDataFix: String? {
        get { finding.swiftDataFix }
        set { finding.swiftDataFix = newValue }
    }

    /// Findings of the same pair this one replaces (docs/cli.md "Which findings count").
    package var supersedes: [(rule: String, identity: String)] {
        get { finding.supersedes }
        set { finding.supersedes = newValue }
    }
}

extension ModelDiff {
    /// For removals, whose location is in the older file: name the newer file too.
}

extension PropertyPair {
    /// `Entity.property` with the newer names, noting a rename.
    package var label: String {
        old.name == new.name ? "\(newOwner).\(new.name)" : "\(newOwner).\(new.name) (was \(old.name))"
    }
}
