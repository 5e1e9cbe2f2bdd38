import ModelLintSupport
import ModelLintModel
import ModelLintDiff
import ModelLintHistory
import ModelLintProjects
import ModelLintRules
import ModelLintGather

/// A rule's finding as the judge pass leaves it: no severity policy applied yet, only what it is about.
package struct RawFinding: Sendable {
    package var rule: RuleDescription
    package var finding: Finding
    package var subject: Subject

    package init(_ rule: RuleDescription, _ finding: Finding, _ subject: Subject) {
        self.rule = rule
        self.finding = finding
        self.subject = subject
    }

    /// What a finding is about, which decides how the run's facts change its severity.
    package enum Subject: Sendable {
        /// The bundle or the run as a whole; reported with `version` when the finding names none.
        case whole(version: String?)
        /// A single-version rule's finding in the version at this position of the line.
        case version(position: Int)
        /// A change rule's finding on a step (consecutive versions); `superseded`: another finding of the same
        /// step replaces it (its problem still counts as found there).
        case step(from: String, to: String, superseded: Bool)
        /// A pair-set rule's finding: about the current version, with the problem underneath it.
        case skippedVersions(PairSetFinding, current: String)
        /// A shipped version's record: never downgraded, reported once per rule and version.
        case shipped
    }
}

/// What the judge pass found about one bundle, in report order.
package struct BundleJudgement: Sendable {
    /// Everything in-model suppressions apply to.
    package var findings: [RawFinding] = []
    /// About the `modellint:disable` entries themselves: after the suppressions are applied.
    package var suppressionFindings: [RawFinding] = []
    /// Shipped history: after repeats are collapsed, never collapsed itself.
    package var shipped: [RawFinding] = []
}

/// The facts of a run that turn findings into diagnostics: the configuration, the bundle's line of versions,
/// what has shipped, the mapping models, the in-model suppressions.
package struct ResolutionFacts: Sendable {
    package var configuration: Configuration
    package var bundlePath: String
    package var line: VersionLine
    /// Versions whose stores exist: a step to one of them is history.
    package var shipped: Set<ExactName>
    package var mappingModels: [MappingModel]
    /// The mapping models that claim the bundle but embed models equal to none of its versions.
    package var unmatchedMappingModels: [UnmatchedMappingModel] = []
    /// The app's code that migrates stores step by step.
    package var stepMigrators: [SourceReference] = []
    /// The app's code that destroys the bundle's store: a migration that fails costs the data, silently.
    package var storeDestroyer: SourceReference?
    package var suppressions: Suppressions
    /// What the bundle was read from: a fix is said in the words of its source (`RuleDescription.fix(for:)`).
    package var source: ModelBundle.Source = .xcdatamodeld

    package func severity(of rule: RuleDescription, finding: Finding) -> Severity? {
        configuration.severity(of: rule, finding: finding)
    }

    /// The mapping model Core Data picks to migrate a store of `from` to `to`, if any: the one whose paths name the
    /// pair first, else one whose recorded hashes the two versions contain.
    package func mappingModel(from: String, to: String) -> MappingModel? {
        mappingModels.first { $0.source == from && $0.destination == to }
            ?? mappingModels.first { $0.covers(from: from, to: to) }
    }

    /// The second pass: a pure function from the judge pass's findings to diagnostics. Severities come from the
    /// configuration; a shipped version's own findings and a shipped step's are history (notes); a step a mapping
    /// model covers is a note naming it; suppressions silence; one problem over consecutive versions is one finding.
    package func resolve(_ judgement: BundleJudgement) -> [Diagnostic] {
        var diagnostics = judgement.findings.compactMap(resolve)
        diagnostics.removeAll(where: suppressions.suppresses)
        diagnostics += judgement.suppressionFindings.compactMap(resolve)
        diagnostics = RepeatedFindings.collapse(diagnostics, versionOrder: line.names)
        // A version's finding that a shipped version already had is history too: the app shipped with it.
        for i in diagnostics.indices where diagnostics[i].fromVersion == nil {
            if let versions = diagnostics[i].versions, versions.contains(where: { shipped.contains(ExactName($0)) }) {
                diagnostics[i].severity = .note
            }
        }
        // The same shipped problem seen from two records (the lock file and --against) is reported once.
        var seen: Set<String> = []
        for raw in judgement.shipped where seen.insert("\(raw.rule.id)|\(raw.finding.version ?? "")").inserted {
            if let diagnostic = resolve(raw) { diagnostics.append(diagnostic) }
        }
        return diagnostics
    }

    /// One finding as reported, or nil when its rule is off; what a store that fails to open costs in this app,
    /// when its code shows it.
    package func resolve(_ raw: RawFinding) -> Diagnostic? {
        guard var diagnostic = resolveSeverity(raw) else { return nil }
        if raw.finding.failsToOpenStore, let destroyer = storeDestroyer {
            let place = destroyer.location.line.map { "\(destroyer.location.file):\($0)" } ?? destroyer.location.file
            diagnostic.message +=
                "; this app destroys the store when it does not open (destroyPersistentStore at \(place)), so instead every row is lost, silently"
        }
        return diagnostic
    }

    private func resolveSeverity(_ raw: RawFinding) -> Diagnostic? {
        guard let severity = severity(of: raw.rule, finding: raw.finding) else { return nil }
        switch raw.subject {
        case .whole(let version):
            return Diagnostic(
                raw.rule, raw.finding, severity: severity, bundle: bundlePath, version: version, source: source)
        case .shipped:
            return Diagnostic(
                raw.rule, raw.finding, severity: severity, bundle: bundlePath, version: nil, source: source)
        case .version(let position):
            // A shipped version can no longer be fixed, only learned from; staged versions keep full severity.
            let history = position < line.currentPosition
            return Diagnostic(
                raw.rule, raw.finding, severity: history ? .note : severity, bundle: bundlePath,
                version: line.versions[position].name, source: source)
        case .step(let from, let to, let superseded):
            guard !superseded else { return nil }
            // A step whose newer version shipped is history: the devices that took it have met it already.
            let covering = mappingModel(from: from, to: to)
            let history = shipped.contains(ExactName(to))
            var d = Diagnostic(
                raw.rule, raw.finding, severity: covering == nil && !history ? severity : .note, bundle: bundlePath,
                version: to, fromVersion: from, source: source)
            if let covering {
                d.message += " (covered by \(covering.covering))"
                d.mappingModel = covering.name
            }
            return d
        case .skippedVersions(let found, let current):
            var d = Diagnostic(
                raw.rule, raw.finding, severity: severity, bundle: bundlePath, version: current,
                fromVersion: found.fromVersion)
            d.underlyingRuleId = found.underlyingRuleId
            d.fix = found.fix
            d.affectedVersions = found.affectedVersions
            d.mappingModel = found.mappingModel
            return d
        }
    }
}

extension RuleContext {
    /// What rules may know beyond the model: the bundle's settings, and the retirements its versions declare (the
    /// configuration's win over the same ones declared in a model's userInfo).
    package init(settings: BundleSettings?, versions: [VersionRef], migration: MigrationMode) {
        self.init(cloudKitOverride: settings?.cloudKit, retired: settings?.retired ?? [], migration: migration)
        renamed = settings?.renamed ?? []
        for declared in Retirement.declared(in: versions)
        where !retired.contains(where: { $0.entity == declared.entity && $0.property == declared.property }) {
            retired.append(declared)
        }
    }
}

extension ResolutionFacts {
    /// The facts of findings about one artifact as a whole (a build, a project, a store, a lock file, code): only
    /// the configuration decides their severity.
    package init(configuration: Configuration, bundlePath: String) {
        self.init(
            configuration: configuration, bundlePath: bundlePath, line: VersionLine(versions: []), shipped: [],
            mappingModels: [], suppressions: Suppressions(versions: []))
    }

    /// A rule's findings about the whole, each at its configured severity (none when the rule is off); `version`
    /// for findings that name none themselves.
    package func resolve(_ rule: RuleDescription, _ findings: [Finding], version: String? = nil) -> [Diagnostic] {
        findings.compactMap { resolve(RawFinding(rule, $0, .whole(version: version))) }
    }
}

extension Diagnostic {
    /// A rule's finding as reported: the rule's id and fix (in the words of the bundle's source), the finding's
    /// place and subject.
    package init(
        _ rule: RuleDescription, _ finding: Finding, severity: Severity, bundle: String, version: String?,
        fromVersion: String? = nil, source: ModelBundle.Source = .xcdatamodeld
    ) {
        self.init(
            ruleId: rule.id, severity: severity, message: ReportText.boundedMessage(finding.message),
            fix: finding.fix ?? (source.isSwiftData ? finding.swiftDataFix.map(ReportText.boundedMessage) : nil)
                ?? rule.fix(for: source),
            bundle: bundle,
            file: finding.location.file, line: finding.location.line, column: finding.location.column,
            version: finding.version ?? version, fromVersion: fromVersion, entity: finding.entity,
            property: finding.property)
        identity = finding.identity
        groups = finding.groups
    }
}
