import ModelLintModel

/// One reported problem, as every reporter sees it.
package struct Diagnostic: Sendable, Equatable {
    package var ruleId: String
    package var severity: Severity
    package var message: String
    package var fix: String
    /// The bundle's display path.
    package var bundle: String
    package var file: String
    package var line: Int?
    package var column: Int?
    /// The version the finding is about (for a change: the newer one).
    package var version: String?
    /// For a change: the older version of the pair.
    package var fromVersion: String?
    package var entity: String?
    package var property: String?
    package var mappingModel: String?
    /// For a problem only devices that skip versions meet (`skip-version-upgrade`): the rule whose problem it is.
    package var underlyingRuleId: String?
    package var affectedVersions: [String]?
    /// For a finding collapsed over consecutive versions: every version it was found in, in version order.
    package var versions: [String]?
    /// What the finding is about, by identifiers rather than names where the rule knows them (a change finding's
    /// entity and property renaming identifiers); see `stableKey`.
    package var identity: String?
    /// The rule id of a finding about the same bundle that the text report lists this one under (its `groups`).
    package var groupedUnder: String?
    /// The rule ids whose findings about the same bundle this one heads (its finding's `groups`).
    package var groups: [String] = []

    /// Each finding that `groups` names lists under its head, when it is not under one already: for findings of
    /// one bundle judged apart (the bundle's own and its projects'), once they are together.
    package static func groupUnderHeads(_ diagnostics: inout [Diagnostic]) {
        for head in diagnostics where !head.groups.isEmpty {
            for i in diagnostics.indices
            where diagnostics[i].groupedUnder == nil && head.groups.contains(diagnostics[i].ruleId) {
                diagnostics[i].groupedUnder = head.ruleId
            }
        }
    }

    package init(
        ruleId: String, severity: Severity, message: String, fix: String, bundle: String, file: String,
        line: Int? = nil, column: Int? = nil, version: String? = nil, fromVersion: String? = nil,
        entity: String? = nil, property: String? = nil
    ) {
        self.ruleId = ruleId
        self.severity = severity
        self.message = message
        self.fix = fix
        self.bundle = bundle
        self.file = file
        self.line = line
        self.column = column
        self.version = version
        self.fromVersion = fromVersion
        self.entity = entity
        self.property = property
    }

    /// cli.md: sorted by bundle, then version order (`v1.10` after `v1.9`, not between `v1.1` and `v1.5`), then
    /// file, line, column, rule id, so output is stable from run to run. A finding about no version comes first.
    package static func sortedForOutput(_ diagnostics: [Diagnostic], bundles: [BundleSummary]) -> [Diagnostic] {
        var rank: [String: [String: Int]] = [:]
        for bundle in bundles {
            var ranks: [String: Int] = [:]
            for (i, name) in bundle.versions.enumerated() where ranks[name] == nil { ranks[name] = i }
            rank[bundle.path] = ranks
        }
        func position(_ d: Diagnostic) -> Int { d.version.flatMap { rank[d.bundle]?[$0] } ?? -1 }
        return sortedForOutput(diagnostics).enumerated().sorted { a, b in
            if a.element.bundle != b.element.bundle { return a.element.bundle < b.element.bundle }
            let (x, y) = (position(a.element), position(b.element))
            return x != y ? x < y : a.offset < b.offset
        }.map(\.element)
    }

    /// Sorted by file, line, column, rule id.
    package static func sortedForOutput(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        diagnostics.sorted { a, b in
            if a.file != b.file { return a.file < b.file }
            if (a.line ?? 0) != (b.line ?? 0) { return (a.line ?? 0) < (b.line ?? 0) }
            if (a.column ?? 0) != (b.column ?? 0) { return (a.column ?? 0) < (b.column ?? 0) }
            if a.ruleId != b.ruleId { return a.ruleId < b.ruleId }
            return a.message < b.message
        }
    }
}

extension Diagnostic {
    /// The finding's identity across runs (`--only-new`, baselines, SARIF fingerprints): rule, bundle, the
    /// elements it is about, and the older versions involved — never its message, line, or the current version's
    /// name, so a new version, moved lines or reworded messages keep an old finding old. A rule about one version
    /// is keyed without the version (it is the same problem in the copy `new-version` makes); a bundle, history or
    /// retirement finding about a named version keeps it. `bundle`: the bundle's path as both sides name it.
    /// Rules whose findings advise on the bundle's configuration (how it migrates, its version order).
    static let adviceRules: Set<String> = [
        ProgressiveMigrationLikelyRule.description.id, VersionOrderInferredRule.description.id,
        VersionOrderAmbiguousRule.description.id,
    ]

    package func stableKey(bundle: String) -> String {
        let category = RuleRegistry.description(for: ruleId)?.category
        let subject = identity ?? "\(entity ?? "")/\(property ?? "")"
        let older: String
        if Self.adviceRules.contains(ruleId) {
            // Advice about the bundle's configuration is the same advice while what it says is (its identity), not
            // a new finding each time a version is added.
            older = ""
        } else if let affected = affectedVersions {
            older = affected.joined(separator: ",")
        } else if let fromVersion {
            older = fromVersion
        } else if category == .singleVersion || category == .cloudKit {
            older = ""
        } else {
            older = version ?? ""
        }
        return [ruleId, bundle, subject, older].joined(separator: "\u{1F}")
    }
}

package struct BundleSummary: Sendable, Equatable {
    package var path: String
    package var currentVersion: String?
    package var versions: [String]
    /// "swiftdata" for a SwiftData schema set; nil for a `.xcdatamodeld` bundle.
    package var kind: String?

    /// A bundle as a report names it: its path, current version and versions.
    package init(_ bundle: ModelBundle) {
        self.init(path: bundle.path, currentVersion: bundle.currentVersion?.name, versions: bundle.versions.map(\.name))
        if case .swiftData = bundle.source { kind = "swiftdata" }
    }

    package init(path: String, currentVersion: String? = nil, versions: [String]) {
        self.path = path
        self.currentVersion = currentVersion
        self.versions = versions
    }
}

/// What a `check` run produced, before any reporter formats it.
package struct LintReport: Sendable {
    package var bundles: [BundleSummary]
    package var diagnostics: [Diagnostic]
    /// Paths the search skipped because their names are not valid UTF-8.
    package var unreadablePaths: [String] = []
    /// Files not read because they resolve outside the tree they were found in.
    package var outsidePaths: [String] = []
    /// Swift files not read for SwiftData schemas because of their size.
    package var tooLargeSwiftFiles: [String] = []

    package var errorCount: Int { diagnostics.filter { $0.severity == .error }.count }
    package var warningCount: Int { diagnostics.filter { $0.severity == .warning }.count }
    package var noteCount: Int { diagnostics.filter { $0.severity == .note }.count }
    package var versionCount: Int { bundles.reduce(0) { $0 + $1.versions.count } }

    package init(bundles: [BundleSummary], diagnostics: [Diagnostic]) {
        self.bundles = bundles
        self.diagnostics = Diagnostic.sortedForOutput(diagnostics, bundles: bundles)
    }
}
