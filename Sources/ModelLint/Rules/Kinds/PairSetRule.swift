import ModelLintSupport
import ModelLintModel
import ModelLintDiff
import ModelLintHistory
import ModelLintCompiled
import ModelLintStores
import ModelLintProjects
import ModelLintSwiftData

/// Judges what the change rules found on every compared pair of a bundle together: a problem seen only on older ->
/// current pairs is one a device meets only when it skips versions.
public protocol PairSetRule: Rule {
    func check(_ pairs: ComparedPairFindings) -> [PairSetFinding]
}

/// What the change rules found on a bundle's compared pairs, as the engine stamped them.
public struct ComparedPairFindings: Sendable {
    /// One finding of an older -> current pair.
    public struct DirectFinding: Sendable {
        /// The older version of the pair.
        public var from: String
        public var rule: RuleDescription
        public var finding: Finding
        /// `rule-id|identity`: the same problem on every pair it appears in.
        public var key: String
        /// As configured; a note when a mapping model covers the pair.
        public var severity: Severity
        public var mappingModel: String?

        public init(
            from: String, rule: RuleDescription, finding: Finding, key: String, severity: Severity,
            mappingModel: String?
        ) {
            self.from = from
            self.rule = rule
            self.finding = finding
            self.key = key
            self.severity = severity
            self.mappingModel = mappingModel
        }
    }

    /// The version every direct pair migrates to.
    public var current: String
    /// The keys of the problems found on a step (consecutive versions) that no mapping model covers.
    public var onUnmappedSteps: Set<String>
    /// Per key: the mapping models covering the steps the problem was found on.
    public var coveredBy: [String: [String]]
    /// Every finding of the older -> current pairs, in pair order.
    public var direct: [DirectFinding]
    /// Every version that migrates straight to `current`, oldest first (with findings or not): what a list of
    /// affected versions is shown as ranges of.
    public var migratingDirectly: [String]

    public init(
        current: String, onUnmappedSteps: Set<String>, coveredBy: [String: [String]], direct: [DirectFinding],
        migratingDirectly: [String] = []
    ) {
        self.current = current
        self.onUnmappedSteps = onUnmappedSteps
        self.coveredBy = coveredBy
        self.direct = direct
        self.migratingDirectly = migratingDirectly
    }
}

/// What a pair-set rule found: a finding about the current version, the problem underneath it and who meets it.
public struct PairSetFinding: Sendable {
    /// Its `severity` is the severity it has unless the configuration sets one.
    public var finding: Finding
    /// The first older version that meets it.
    public var fromVersion: String
    public var underlyingRuleId: String
    public var fix: String
    public var affectedVersions: [String]
    public var mappingModel: String?

    public init(
        finding: Finding, fromVersion: String, underlyingRuleId: String, fix: String, affectedVersions: [String],
        mappingModel: String?
    ) {
        self.finding = finding
        self.fromVersion = fromVersion
        self.underlyingRuleId = underlyingRuleId
        self.fix = fix
        self.affectedVersions = affectedVersions
        self.mappingModel = mappingModel
    }
}

extension PairSetRule { public var kind: RuleKind { .pairSet(self) } }
