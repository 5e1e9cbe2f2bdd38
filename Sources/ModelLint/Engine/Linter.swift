import Foundation
import ModelLintSupport
import ModelLintModel
import ModelLintDiff
import ModelLintHistory
import ModelLintProjects
import ModelLintRules

/// The pipeline: bundle -> rules (bundle, single-version, then every compared pair through the diff
/// engine) -> diagnostics, with severities resolved from the catalog, the configuration, where a
/// version sits relative to the current one, and the mapping models that cover a pair.
public struct Linter: Sendable {
    public var configuration: Configuration
    public var rules: [any Rule]
    /// `--migration` on the command line wins over the configuration.
    public var migration: MigrationMode
    /// Whether the command line or the configuration said how the app migrates.
    public var migrationIsExplicit: Bool

    public init(configuration: Configuration, rules: [any Rule] = RuleRegistry.all, migration: MigrationMode? = nil) {
        self.configuration = configuration
        self.rules = rules
        self.migration = migration ?? configuration.migration
        migrationIsExplicit = migration != nil || configuration.migrationConfigured
    }

    /// Lints what a workspace read: every bundle, the projects that reference them, the lock file, the references
    /// in code and the golden stores.
    public func lint(_ input: LintInput) -> LintReport {
        var diagnostics: [Diagnostic] = []
        for item in input.bundles {
            diagnostics += lint(
                item.bundle, settings: item.settings, mappingModels: item.mappingModels, histories: item.histories)
            for (project, bundlePath) in item.projects {
                diagnostics += ProjectVerifier(configuration: configuration).verify(
                    project, bundle: item.bundle, bundlePath: bundlePath)
            }
        }
        let loaded = input.bundles.map(\.bundle)
        if let lock = input.lock, !input.bundles.isEmpty || lock.judgedWithoutBundles {
            diagnostics += configuration.diagnostics(
                LockEntryOrphanedRule.description,
                LockEntryOrphanedRule().check(lock.file, lockPath: lock.path, bundleKeysOnDisk: lock.bundleKeysOnDisk),
                bundle: lock.path, version: nil)
        }
        diagnostics += SourceReferenceVerifier(configuration: configuration).verify(
            input.sourceReferences, bundles: loaded)
        diagnostics += GoldenStores.findings(
            for: input.bundles, stores: input.goldenStores, configuration: configuration, migration: migration)
        var report = LintReport(
            bundles: loaded.map {
                BundleSummary(path: $0.path, currentVersion: $0.currentVersion?.name, versions: $0.versions.map(\.name))
            },
            diagnostics: diagnostics)
        report.unreadablePaths = input.unreadablePaths
        report.outsidePaths = input.outsidePaths
        return report
    }

    /// The configured severity of a rule for a finding (nil: the rule is off).
    package func severity(of rule: RuleDescription, finding: Finding) -> Severity? {
        configuration.severity(of: rule, finding: finding)
    }

    public func lint(
        _ bundle: ModelBundle, settings: BundleSettings? = nil, mappingModels: [MappingModel] = [],
        histories: [ShippedHistory] = []
    ) -> [Diagnostic] {
        var context = RuleContext(
            cloudKitOverride: settings?.cloudKit, retired: settings?.retired ?? [], migration: migration)
        var diagnostics: [Diagnostic] = []

        func diagnostic(_ rule: RuleDescription, _ finding: Finding, _ severity: Severity, version: String?)
            -> Diagnostic
        {
            Diagnostic(rule, finding, severity: severity, bundle: bundle.path, version: version)
        }
        func report(_ rule: RuleDescription, _ findings: [Finding], version: String?) {
            diagnostics += configuration.diagnostics(rule, findings, bundle: bundle.path, version: version)
        }

        for rule in rules.compactMap(\.asBundleRule) {
            // About the bundle as a whole: reported against the version treated as current.
            report(rule.description, rule.check(bundle), version: bundle.currentVersion?.name)
        }

        var readable = bundle.readableVersions
        if let oldest = settings?.oldestMigratedVersion,
            let start = readable.firstIndex(where: { $0.name.isExactly(oldest) })
        {
            // Stores of earlier versions are never migrated (the app abandoned them): they are neither compared
            // nor judged, as if the bundle began there.
            readable = Array(readable[start...])
        }
        // The configuration's retirements win over the same ones declared in the model's userInfo.
        for declared in Retirement.declared(in: readable)
        where !context.retired.contains(where: { $0.entity == declared.entity && $0.property == declared.property }) {
            context.retired.append(declared)
        }
        // With no usable current version, the last readable one is treated as current (rules.md).
        let currentName = bundle.currentVersion?.model != nil ? bundle.currentVersion?.name : readable.last?.name
        let currentPosition = readable.firstIndex { $0.name == currentName } ?? max(readable.count - 1, 0)

        let versionRules = rules.compactMap(\.asVersionRule)
        let findings = versionFindings(readable.map(\.model), rules: versionRules, context: context)
        for (position, version) in readable.enumerated() {
            // A shipped version can no longer be fixed, only learned from; staged versions keep full severity.
            let downgrade = position < currentPosition
            for (rule, found) in zip(versionRules, findings[position]) {
                for finding in found {
                    guard let severity = severity(of: rule.description, finding: finding) else { continue }
                    diagnostics.append(
                        diagnostic(rule.description, finding, downgrade ? .note : severity, version: version.name))
                }
            }
        }

        // Shipped (rules.md "History is information"): what a lock file, --released or --against records; with none
        // of those, every version before the current one.
        let shipped: Set<ExactName> =
            histories.isEmpty
            ? Set(readable[..<currentPosition].map { ExactName($0.name) })
            : Set(histories.flatMap { $0.versions.map { ExactName($0.name) } })
        diagnostics += lintChanges(
            readable, currentPosition: currentPosition, context: context, bundle: bundle, mappingModels: mappingModels,
            shipped: shipped)
        if !migrationIsExplicit {
            let steps = zip(readable, readable.dropFirst()).map { ($0.name, $1.name) }
            report(
                ProgressiveMigrationLikelyRule.description,
                ProgressiveMigrationLikelyRule().check(bundle, steps: steps, mappingModels: mappingModels),
                version: bundle.currentVersion?.name)
        }
        for rule in rules.compactMap(\.asRetirementRule) {
            report(rule.description, rule.check(readable, current: currentPosition, context: context), version: nil)
        }

        // In-model suppressions apply to everything found about an element, in its version and later ones.
        let suppressions = Suppressions(versions: readable)
        diagnostics.removeAll(where: suppressions.suppresses)
        let knownRuleIDs = Set(rules.map(\.id))
        for rule in rules.compactMap(\.asSuppressionRule) {
            report(rule.description, rule.check(suppressions.names, knownRuleIDs: knownRuleIDs), version: nil)
        }

        diagnostics = RepeatedFindings.collapse(diagnostics, versionOrder: readable.map(\.name))

        // Shipped history is never downgraded; the same problem seen from two records is reported once.
        var seen: Set<String> = []
        for history in histories {
            let comparisons = ShippedVersionComparison.compare(history, with: bundle)
            for rule in rules.compactMap(\.asHistoryRule) {
                for finding in rule.check(comparisons, bundle: bundle) {
                    guard seen.insert("\(rule.id)|\(finding.version ?? "")").inserted,
                        let severity = severity(of: rule.description, finding: finding)
                    else { continue }
                    diagnostics.append(diagnostic(rule.description, finding, severity, version: nil))
                }
            }
        }
        return diagnostics
    }

    /// What one single-version rule found in one version: about the model as a whole (everything, for a
    /// rule that is not an entity rule), and per entity (nil: the entity repeats one judged earlier).
    private struct VersionRuleFindings: Sendable {
        var modelWide: [Finding]
        var perEntity: [[Finding]?] = []
    }

    /// Per version, per rule: what the single-version rules find. Versions are independent: judged on all
    /// cores. Entity rules judge each distinct neighborhood once; repeats get its findings moved to them.
    package func versionFindings(_ models: [Model], rules: [any VersionRule], context: RuleContext) -> [[[Finding]]] {
        let repeated = RepeatedEntities(models)
        let fresh = concurrentMap(Array(models.indices)) { v -> [VersionRuleFindings] in
            let model = models[v]
            return rules.map { rule in
                guard let rule = rule.asEntityRule else {
                    return VersionRuleFindings(modelWide: rule.check(model, context: context))
                }
                return VersionRuleFindings(
                    modelWide: rule.checkModel(model, context: context),
                    // Indices, not entities: no entity is copied per step.
                    perEntity: model.entities.indices.map { e in
                        repeated.origins[v][e] == nil ? rule.check(model.entities[e], in: model, context: context) : nil
                    })
            }
        }
        // Which judged entities anything was found about: most repeats have nothing to move.
        let judgedWithFindings = models.indices.map { v in
            var any = [Bool](repeating: false, count: models[v].entities.count)
            for judged in fresh[v] {
                for (e, found) in judged.perEntity.enumerated() where found?.isEmpty == false { any[e] = true }
            }
            return any
        }
        return concurrentMap(Array(models.indices)) { v -> [[Finding]] in
            let model = models[v]
            let origins = repeated.origins[v]
            return rules.indices.map { r -> [Finding] in
                let judged = fresh[v][r]
                guard let rule = rules[r].asEntityRule else { return judged.modelWide }
                var found = judged.modelWide
                for e in model.entities.indices {
                    if let own = judged.perEntity[e] {
                        found += own
                    } else if let origin = origins[e], judgedWithFindings[origin.group][origin.item],
                        let original = fresh[origin.group][r].perEntity[origin.item], !original.isEmpty
                    {
                        let originModel = models[origin.group]
                        let entity = model.entities[e]
                        found +=
                            RepeatedEntities.move(
                                original, from: originModel.entities[origin.item], in: originModel, to: entity,
                                in: model)
                            // A finding outside the neighborhood: judged afresh.
                            ?? rule.check(entity, in: model, context: context)
                    }
                }
                return found
            }
        }
    }

    private struct PairFindings: Sendable {
        var from: String
        var to: String
        var isAdjacent: Bool
        var findings: [(rule: RuleDescription, found: ChangeFinding)]
    }

    /// A rule judging compared pairs: a whole diff at a time, or one matched entity pair at a time.
    private enum PairJudge {
        case diff(any ChangeRule)
        case entityPairs(any EntityPairRule)

        var description: RuleDescription {
            switch self {
            case .diff(let rule): return rule.description
            case .entityPairs(let rule): return rule.description
            }
        }
    }

    /// What the change rules find on each compared pair, in rule order. On the direct pairs (older -> current),
    /// a matched entity pair that an earlier direct pair already had (same older lineage, same newer entity)
    /// gets that pair's findings from the entity pair rules: only the first direct pair a problem appears on is
    /// ever shown, the later ones only add their version to it, and they find the same.
    private func changeFindings(_ readable: [VersionRef], pairs: [(Int, Int, Bool)], context: RuleContext)
        -> [PairFindings]
    {
        let judges: [PairJudge] = rules.compactMap { rule in
            rule.asEntityPairRule.map(PairJudge.entityPairs) ?? rule.asChangeRule.map(PairJudge.diff)
        }
        let pairCache = EntityPairCache()
        let diffs = concurrentMap(pairs) { from, to, adjacent in
            ModelDiff(from: readable[from], to: readable[to], isAdjacent: adjacent, cache: pairCache)
        }
        // The newer side is the current version in every direct pair: its entities are told apart by name.
        struct Key: Hashable {
            var oldLineage: Int
            var newEntity: Int
        }
        let origins = EarlierOccurrence.find(
            diffs.map { diff -> [Key?] in
                let old = diff.from.model
                let new = diff.to.model
                guard !diff.isAdjacent, old.entityIndexByName.count == old.entities.count else {
                    return diff.matchedEntities.map { _ in nil }
                }
                return diff.matchedEntities.map { pair in
                    Key(oldLineage: old.keys.lineage[pair.oldIndex], newEntity: new.firstIndexOfName[pair.newIndex])
                }
            })
        // Per pair, per rule: a diff rule's findings; an entity pair rule's per matched entity pair (none for a
        // repeat, which takes its origin's below).
        let judged = concurrentMap(Array(diffs.indices)) { p -> [[[ChangeFinding]]] in
            let diff = diffs[p]
            let versions = diff.versions
            return judges.map { judge -> [[ChangeFinding]] in
                switch judge {
                case .diff(let rule):
                    guard diff.isAdjacent || !type(of: rule).adjacentOnly else { return [] }
                    return [rule.check(diff, context: context)]
                case .entityPairs(let rule):
                    return diff.matchedEntities.enumerated().map { e, pair in
                        origins[p][e] == nil ? rule.check(pair, of: versions, context: context) : []
                    }
                }
            }
        }
        return concurrentMap(Array(diffs.indices)) { p in
            let diff = diffs[p]
            var findings: [(RuleDescription, ChangeFinding)] = []
            for (r, judge) in judges.enumerated() {
                var found = judged[p][r]
                if case .entityPairs = judge {
                    for (e, origin) in origins[p].enumerated() {
                        if let origin { found[e] = judged[origin.group][r][origin.item] }
                    }
                }
                findings += found.joined().map { (judge.description, $0) }
            }
            return PairFindings(from: diff.from.name, to: diff.to.name, isAdjacent: diff.isAdjacent, findings: findings)
        }
    }

    private func lintChanges(
        _ readable: [VersionRef], currentPosition: Int, context: RuleContext, bundle: ModelBundle,
        mappingModels: [MappingModel],
        shipped: Set<ExactName>
    ) -> [Diagnostic] {
        guard readable.count > 1 else { return [] }
        var pairs: [(Int, Int, Bool)] = (0..<(readable.count - 1)).map { ($0, $0 + 1, true) }
        if migration == .direct && currentPosition >= 2 {
            pairs += (0..<(currentPosition - 1)).map { ($0, currentPosition, false) }
        }
        let results = changeFindings(readable, pairs: pairs, context: context)
        func mapping(_ from: String, _ to: String) -> MappingModel? {
            mappingModels.first { $0.source == from && $0.destination == to }
        }
        func key(_ rule: RuleDescription, _ found: ChangeFinding) -> String { rule.id + "|" + found.identity }

        var diagnostics: [Diagnostic] = []
        var adjacentKeys: Set<String> = []
        var coveredBy: [String: [String]] = [:]
        for pair in results where pair.isAdjacent {
            let covering = mapping(pair.from, pair.to)
            // A finding another of the same pair replaces is not shown (its problem still counts as found here).
            let superseded = Set(pair.findings.flatMap { $0.found.supersedes.map { "\($0.rule)|\($0.identity)" } })
            for (rule, found) in pair.findings {
                let finding = found.finding
                // A mapping model covers only its exact pair: a device skipping that step is not covered,
                // so a problem only ever seen on covered steps still counts for direct pairs.
                let k = key(rule, found)
                if let covering {
                    if coveredBy[k]?.contains(covering.name) != true { coveredBy[k, default: []].append(covering.name) }
                } else {
                    adjacentKeys.insert(k)
                }
                guard !superseded.contains(k), let severity = severity(of: rule, finding: finding) else { continue }
                // A step whose newer version shipped is history: the devices that took it have met it already.
                let history = shipped.contains(ExactName(pair.to))
                var d = Diagnostic(
                    rule, finding, severity: covering == nil && !history ? severity : .note, bundle: bundle.path,
                    version: pair.to, fromVersion: pair.from)
                if let covering {
                    d.message += " (covered by the mapping model \(covering.name))"
                    d.mappingModel = covering.name
                }
                diagnostics.append(d)
            }
        }

        // What only the older -> current pairs find, judged over every pair's findings.
        var direct: [ComparedPairFindings.DirectFinding] = []
        for pair in results where !pair.isAdjacent {
            let covering = mapping(pair.from, pair.to)
            for (rule, found) in pair.findings {
                guard let severity = severity(of: rule, finding: found.finding) else { continue }
                direct.append(
                    ComparedPairFindings.DirectFinding(
                        from: pair.from, rule: rule, finding: found.finding, key: key(rule, found),
                        severity: covering == nil ? severity : .note,
                        mappingModel: covering?.name))
            }
        }
        let current = readable[currentPosition].name
        let compared = ComparedPairFindings(
            current: current, onUnmappedSteps: adjacentKeys, coveredBy: coveredBy, direct: direct)
        for rule in rules.compactMap(\.asPairSetRule) {
            for found in rule.check(compared) {
                guard let severity = severity(of: rule.description, finding: found.finding) else { continue }
                var d = Diagnostic(
                    rule.description, found.finding, severity: severity, bundle: bundle.path, version: current,
                    fromVersion: found.fromVersion)
                d.underlyingRuleId = found.underlyingRuleId
                d.fix = found.fix
                d.affectedVersions = found.affectedVersions
                d.mappingModel = found.mappingModel
                diagnostics.append(d)
            }
        }
        return diagnostics
    }
}

extension Configuration {
    /// A rule's findings as reported, each at its configured severity; none when the rule is off. `version`: for
    /// findings that name none themselves.
    package func diagnostics(_ rule: RuleDescription, _ findings: [Finding], bundle: String, version: String?)
        -> [Diagnostic]
    {
        findings.compactMap { finding in
            severity(of: rule, finding: finding).map {
                Diagnostic(rule, finding, severity: $0, bundle: bundle, version: version)
            }
        }
    }
}

extension Diagnostic {
    /// A rule's finding as reported: the rule's id and fix, the finding's place and subject.
    package init(
        _ rule: RuleDescription, _ finding: Finding, severity: Severity, bundle: String, version: String?,
        fromVersion: String? = nil
    ) {
        self.init(
            ruleId: rule.id, severity: severity, message: ReportText.boundedMessage(finding.message), fix: rule.fix,
            bundle: bundle,
            file: finding.location.file, line: finding.location.line, column: finding.location.column,
            version: finding.version ?? version, fromVersion: fromVersion, entity: finding.entity,
            property: finding.property)
        identity = finding.identity
    }
}
