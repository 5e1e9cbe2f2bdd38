import ModelLintSupport
import ModelLintModel
import ModelLintDiff
import ModelLintHistory
import ModelLintProjects
import ModelLintSwiftData
import ModelLintRules
import ModelLintGather

/// The pipeline's rule stage in two passes: `Judge` hands every rule kind its subjects, then
/// `ResolutionFacts.resolve` turns the findings into diagnostics with the run's facts (configuration, shipped
/// versions, mapping models, suppressions). `check`, `store` (through `migrationFindings`) and golden stores
/// share both passes.
package struct Linter: Sendable {
    package var configuration: Configuration
    package var rules: RuleSet
    /// `--migration` on the command line wins over the configuration.
    package var migration: MigrationMode
    /// Whether the command line or the configuration said how the app migrates.
    package var migrationIsExplicit: Bool
    /// Whether `--migration` said it: then no bundle's configuration overrides it.
    package var migrationFromCommandLine: Bool
    /// The value transformer classes the app's code declares (from the run's code references).
    package var appTransformers = AppTransformers()
    /// `--only-new`: which side of the exchange between the work tree's run and REF's this run is on.
    package var judgements: JudgementExchange.Side?

    package init(configuration: Configuration, rules: [any Rule] = RuleRegistry.all, migration: MigrationMode? = nil) {
        self.configuration = configuration
        self.rules = RuleSet(rules)
        self.migration = migration ?? configuration.migration
        migrationIsExplicit = migration != nil || configuration.migrationConfigured
        migrationFromCommandLine = migration != nil
    }

    /// The linter for one bundle: how its stores migrate, decided by the first that says it — `--migration`, the
    /// bundle's `migration` in the configuration, the configuration's `migration`, the app's code (a step-by-step
    /// migrator that migrates this bundle: only its steps run), else direct. Code evidence leaves
    /// `migrationIsExplicit` false, so `progressive-migration-likely` still says what decided.
    package func forBundle(settings: BundleSettings?, stepMigrators: [SourceReference]) -> Linter {
        var linter = self
        if !migrationFromCommandLine, let mode = settings?.migration {
            linter.migration = mode
            linter.migrationIsExplicit = true
        } else if !migrationIsExplicit, !stepMigrators.isEmpty {
            linter.migration = .progressive
        }
        return linter
    }

    private var judge: Judge {
        Judge(rules: rules, migration: migration, migrationIsExplicit: migrationIsExplicit, exchange: judgements)
    }

    /// Lints what a workspace read: every bundle, the projects that reference them, the lock file, the references
    /// in code and the golden stores.
    package func lint(_ input: LintInput) -> LintReport {
        // Whatever the run offered, a run waiting at the other side stops waiting when it ends.
        defer { if case .offering(let exchange) = judgements { exchange.close() } }
        var linter = self
        linter.appTransformers = AppTransformers(input.sourceReferences)
        return linter.lintRead(input)
    }

    private func lintRead(_ input: LintInput) -> LintReport {
        var diagnostics: [Diagnostic] = []
        let migrationCode = MigrationCode(input.sourceReferences)
        var styles: [MigrationMode] = []
        for item in input.bundles {
            if let set = item.swiftData {
                styles.append(.progressive)
                diagnostics += lint(set, settings: item.settings, histories: item.histories)
                continue
            }
            let migrators = migrationCode.migrating(item.bundle)
            let linter = forBundle(settings: item.settings, stepMigrators: migrators)
            styles.append(linter.migration)
            var bundleDiagnostics = linter.lint(
                item.bundle, settings: item.settings, mappingModels: item.mappingModels,
                unmatchedMappingModels: item.unmatchedMappingModels, histories: item.histories,
                stepMigrators: migrators, storeDestroyers: migrationCode.destroying(item.bundle))
            for (project, bundlePath) in item.projects {
                bundleDiagnostics += ProjectVerifier(configuration: configuration, rules: rules.project)
                    .verify(project, bundle: item.bundle, bundlePath: bundlePath)
            }
            // A project's finding that a bundle's finding explains (a deleted shipped version it still lists).
            Diagnostic.groupUnderHeads(&bundleDiagnostics)
            diagnostics += bundleDiagnostics
        }
        let loaded = input.bundles.map(\.bundle)
        if let lock = input.lock, !input.bundles.isEmpty || lock.judgedWithoutBundles {
            let facts = ResolutionFacts(configuration: configuration, bundlePath: lock.path)
            for rule in rules.lockFile {
                diagnostics += facts.resolve(
                    rule.description,
                    rule.check(lock.file, lockPath: lock.path, bundleKeysOnDisk: lock.bundleKeysOnDisk))
            }
        }
        if !input.configurationChanges.isEmpty {
            // At the level the revision set: the change under judgement cannot turn off the rule that judges it.
            var atRevision = configuration
            for rule in rules.configurationChange {
                atRevision.rules[rule.id] = input.revisionRuleLevels[rule.id].flatMap(RuleLevel.init)
            }
            let facts = ResolutionFacts(configuration: atRevision, bundlePath: input.configurationChanges[0].file)
            for rule in rules.configurationChange {
                diagnostics += facts.resolve(rule.description, rule.check(input.configurationChanges))
            }
        }
        diagnostics += SourceReferenceVerifier(configuration: configuration, rules: rules.sourceReference)
            .verify(input.sourceReferences, bundles: loaded)
        // The app's model classes against the bundles: once per run, reported with the first bundle.
        let bundles = input.bundles.filter { $0.swiftData == nil }.map(\.bundle)
        if let first = bundles.first {
            let classes = ModelClasses(
                sets: input.bundles.compactMap(\.swiftData), managedObjectClasses: input.managedObjectClasses,
                bundles: bundles)
            let facts = ResolutionFacts(configuration: configuration, bundlePath: first.path)
            for rule in rules.classParity { diagnostics += facts.resolve(rule.description, rule.check(classes)) }
        }
        diagnostics += GoldenStores.findings(
            for: input.bundles, stores: input.goldenStores, configuration: configuration, migration: styles,
            rules: rules)
        var report = LintReport(
            bundles: loaded.map(BundleSummary.init),
            diagnostics: diagnostics)
        report.unreadablePaths = input.unreadablePaths
        report.outsidePaths = input.outsidePaths
        report.tooLargeSwiftFiles = input.tooLargeSwiftFiles
        return report
    }

    package func lint(
        _ bundle: ModelBundle, settings: BundleSettings? = nil, mappingModels: [MappingModel] = [],
        unmatchedMappingModels: [UnmatchedMappingModel] = [], histories: [ShippedHistory] = [],
        stepMigrators: [SourceReference] = [], storeDestroyers: [SourceReference] = []
    ) -> [Diagnostic] {
        let line = VersionLine(bundle, oldestMigrated: settings?.oldestMigratedVersion)
        let shipped = Self.shipped(line, histories: histories)
        var facts = ResolutionFacts(
            configuration: configuration, bundlePath: bundle.path, line: line, shipped: shipped,
            mappingModels: mappingModels, suppressions: Suppressions(versions: line.versions))
        facts.unmatchedMappingModels = unmatchedMappingModels
        facts.stepMigrators = stepMigrators
        facts.storeDestroyer = storeDestroyers.first
        facts.source = bundle.source
        let judgement = judge.judge(
            bundle, facts: facts, context: context(line, settings: settings, source: bundle.source),
            histories: histories)
        var diagnostics = facts.resolve(judgement)
        // A bundle nothing builds has no stores to protect: what else it has is information.
        if bundle.unshippedReason != nil, !configuration.includeUnshipped {
            for i in diagnostics.indices { diagnostics[i].severity = .note }
        }
        // A finding that groups others (its `groups`) heads them in the text report, when it was reported.
        Diagnostic.groupUnderHeads(&diagnostics)
        SameElementFindings.group(&diagnostics)
        return diagnostics
    }

    /// Shipped (docs/cli.md "Which findings count"): what a lock file, --released or --against records; with none
    /// of those, every version before the current one.
    package static func shipped(_ line: VersionLine, histories: [ShippedHistory]) -> Set<ExactName> {
        histories.isEmpty
            ? Set(line.beforeCurrent.map { ExactName($0.name) })
            : Set(histories.flatMap { $0.versions.map { ExactName($0.name) } })
    }

    /// The shipped versions of one bundle of a run, as `lint` decides them.
    package static func shipped(_ item: LintInput.Bundle) -> Set<ExactName> {
        shipped(
            VersionLine(item.bundle, oldestMigrated: item.settings?.oldestMigratedVersion), histories: item.histories)
    }

    /// A SwiftData schema set: every rule a bundle gets, with SwiftData's migration (stage by stage: no direct
    /// older -> current pair), then the SwiftData rules.
    package func lint(_ set: SwiftSchemaSet, settings: BundleSettings? = nil, histories: [ShippedHistory] = [])
        -> [Diagnostic]
    {
        var staged = self
        staged.migration = .progressive
        staged.migrationIsExplicit = true
        var diagnostics = staged.lint(
            set.bundle, settings: settings, mappingModels: set.customStages, histories: histories)
        let facts = ResolutionFacts(configuration: configuration, bundlePath: set.path)
        let context = SwiftDataContext(histories: histories)
        for rule in rules.swiftData {
            diagnostics += facts.resolve(rule.description, rule.check(set, context: context))
        }
        return diagnostics
    }

    /// What migrating a store does, hop by hop (the store's version first, the current one last): direct
    /// migration is one hop, progressive migration every step. Each hop is judged as `check` judges that pair
    /// (a hop between versions that are not consecutive gets no rename guesses and no renaming-identifier
    /// checks, which are about consecutive versions), its findings at full severity (nothing of the path has
    /// reached this store), a hop covered by a mapping model as a note naming it, the in-model suppressions applied.
    package func migrationFindings(
        along path: [VersionRef], consecutive: [Bool], bundlePath: String, settings: BundleSettings?,
        mappingModels: [MappingModel], source: ModelBundle.Source = .xcdatamodeld
    ) -> [Diagnostic] {
        guard path.count > 1, consecutive.count == path.count - 1 else { return [] }
        let line = VersionLine(versions: path)
        var facts = ResolutionFacts(
            configuration: configuration, bundlePath: bundlePath, line: line, shipped: [],
            mappingModels: mappingModels, suppressions: Suppressions(versions: line.versions))
        facts.source = source
        let judge = Judge(rules: rules, migration: .progressive, migrationIsExplicit: true)
        let hops = consecutive.enumerated().map { ($0.offset, $0.offset + 1, $0.element) }
        let results = judge.changeFindings(
            line.versions, pairs: hops,
            context: context(line, settings: settings, migration: .progressive, source: source))
        return facts.resolve(BundleJudgement(findings: results.flatMap { $0.stepFindings.map(\.raw) }))
    }

    /// `source`: what the versions were read from, so a message says what to write in the source's words.
    package func context(
        _ line: VersionLine, settings: BundleSettings?, migration: MigrationMode? = nil,
        source: ModelBundle.Source = .xcdatamodeld
    ) -> RuleContext {
        var context = RuleContext(settings: settings, versions: line.versions, migration: migration ?? self.migration)
        context.appTransformers = appTransformers
        context.source = source
        return context
    }

    /// Per version, per single-version rule: what they find (tests compare it with judging each version whole).
    package func versionFindings(_ models: [Model], rules: [RuleSet.VersionJudge], context: RuleContext)
        -> [[[Finding]]]
    {
        judge.versionFindings(models, rules: rules, context: context)
    }
}
