/// One reported problem, as every reporter sees it.
public struct Diagnostic: Sendable, Equatable {
    public var ruleId: String
    public var severity: Severity
    public var message: String
    public var fix: String
    /// The bundle's display path.
    public var bundle: String
    public var file: String
    public var line: Int?
    public var column: Int?
    /// The version the finding is about (for a change: the newer one).
    public var version: String?
    /// For a change: the older version of the pair.
    public var fromVersion: String?
    public var entity: String?
    public var property: String?
    public var mappingModel: String?
    public var underlyingRuleId: String?
    public var affectedVersions: [String]?
    /// For a finding collapsed over consecutive versions: every version it was found in, in version order.
    public var versions: [String]?

    public init(
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

    /// cli.md: sorted by file, line, column, rule id, so output is stable from run to run.
    public static func sortedForOutput(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        diagnostics.sorted { a, b in
            if a.file != b.file { return a.file < b.file }
            if (a.line ?? 0) != (b.line ?? 0) { return (a.line ?? 0) < (b.line ?? 0) }
            if (a.column ?? 0) != (b.column ?? 0) { return (a.column ?? 0) < (b.column ?? 0) }
            if a.ruleId != b.ruleId { return a.ruleId < b.ruleId }
            return a.message < b.message
        }
    }
}

public struct BundleSummary: Sendable, Equatable {
    public var path: String
    public var currentVersion: String?
    public var versions: [String]
}

/// What a `check` run produced, before any reporter formats it.
public struct LintReport: Sendable {
    public var bundles: [BundleSummary]
    public var diagnostics: [Diagnostic]
    /// Paths the search skipped because their names are not valid UTF-8.
    public var unreadablePaths: [String] = []

    public var errorCount: Int { diagnostics.filter { $0.severity == .error }.count }
    public var warningCount: Int { diagnostics.filter { $0.severity == .warning }.count }
    public var noteCount: Int { diagnostics.filter { $0.severity == .note }.count }
    public var versionCount: Int { bundles.reduce(0) { $0 + $1.versions.count } }

    public init(bundles: [BundleSummary], diagnostics: [Diagnostic]) {
        self.bundles = bundles
        self.diagnostics = Diagnostic.sortedForOutput(diagnostics)
    }
}
