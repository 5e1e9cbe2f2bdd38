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
package protocol PairSetRule: Rule {
    func check(_ pairs: ComparedPairFindings) -> [PairSetFinding]
}

/// What the change rules found on a bundle's compared pairs, as the engine stamped them.
package struct ComparedPairFindings: Sendable {
    /// One finding of an older -> current pair.
    package struct DirectFinding: Sendable {
        /// The older version of the pair.
        package var from: String
        package var rule: RuleDescription
        package var finding: Finding
        /// `rule-id|identity`: the same problem on every pair it appears in.
        package var key: String
        /// As configured; a note when a mapping model covers the pair.
        package var severity: Severity
        package var mappingModel: String?

        package init(
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
    package var current: String
    /// The keys of the problems found on a step (consecutive versions) that no mapping model covers.
    package var onUnmappedSteps: Set<String>
    /// Per key: the mapping models covering the steps the problem was found on.
    package var coveredBy: [String: [String]]
    /// Every finding of the older -> current pairs, in pair order.
    package var direct: [DirectFinding]
    /// Every version that migrates straight to `current`, oldest first (with findings or not): what a list of
    /// affected versions is shown as ranges of.
    package var migratingDirectly: [String]

    package init(
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
package struct PairSetFinding: Sendable {
    /// Its `severity` is the severity it has unless the configuration sets one.
    package var finding: Finding
    /// The first older version that meets it.
    package var fromVersion: String
    package var underlyingRuleId: String
    package var fix: String
    package var affectedVersions: [String]
    package var mappingModel: String?

    package init(
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

extension PairSetRule { package var kind: RuleKind { .pairSet(self) } }
