import ModelLintSupport
import ModelLintModel
import ModelLintHistory
import ModelLintCompiled
import ModelLintStores
import ModelLintRules
import ModelLintGather

/// One run of the rules: every command that judges (`check`, `init`, `fix`, `store`, `verify-build`) and the rule
/// example harness build an `Engine` and call `run` with what they read. Nothing outside the engine constructs a
/// linter or a verifier or looks rules up in the registry.
package struct Engine: Sendable {
    package var configuration: Configuration
    /// `--migration` on the command line (nil: the configuration's, then the app's code, decide).
    package var migration: MigrationMode?
    package var rules: [any Rule]
    /// `--only-new`: which side of the exchange between the work tree's run and REF's this run is on.
    package var judgements: JudgementExchange.Side?

    package init(configuration: Configuration, migration: MigrationMode? = nil, rules: [any Rule] = RuleRegistry.all) {
        self.configuration = configuration
        self.migration = migration
        self.rules = rules
    }

    /// What a run judges.
    package enum Subject: Sendable {
        /// The app as read: its bundles and SwiftData schema sets, the mapping models, projects, lock file, code
        /// references, model classes and golden stores.
        case app(LintInput)
        /// A store's metadata against the bundle it belongs to (`store`).
        case store(StoreSubject)
        /// A compiled model against its source bundle (`verify-build`).
        case build(BuildSubject)
    }

    package struct StoreSubject: Sendable {
        package var metadata: StoreMetadata
        /// The store as displayed.
        package var path: String
        package var bundle: ModelBundle
        package var settings: BundleSettings?
        package var mappingModels: [MappingModel]
        /// The run's other bundles: a merged model's store may hold their entities.
        package var otherBundles: [ModelBundle]

        package init(
            metadata: StoreMetadata, path: String, bundle: ModelBundle, settings: BundleSettings?,
            mappingModels: [MappingModel], otherBundles: [ModelBundle]
        ) {
            self.metadata = metadata
            self.path = path
            self.bundle = bundle
            self.settings = settings
            self.mappingModels = mappingModels
            self.otherBundles = otherBundles
        }
    }

    package struct BuildSubject: Sendable {
        package var build: CompiledModel
        package var bundle: ModelBundle
        package var settings: BundleSettings?

        package init(build: CompiledModel, bundle: ModelBundle, settings: BundleSettings?) {
            self.build = build
            self.bundle = bundle
            self.settings = settings
        }
    }

    package func run(_ subject: Subject) -> LintReport {
        switch subject {
        case .app(let input):
            var linter = Linter(configuration: configuration, rules: rules, migration: migration)
            linter.judgements = judgements
            return linter.lint(input)
        case .store(let store):
            let diagnostics = StoreVerifier(configuration: configuration, migration: migration, rules: RuleSet(rules))
                .verify(
                    store.metadata, path: store.path, against: store.bundle, settings: store.settings, isGolden: false,
                    mappingModels: store.mappingModels, otherBundles: store.otherBundles)
            return LintReport(bundles: [BundleSummary(store.bundle)], diagnostics: diagnostics)
        case .build(let build):
            let diagnostics = BuildVerifier(configuration: configuration, rules: RuleSet(rules).build).verify(
                build.build, against: build.bundle, settings: build.settings)
            return LintReport(bundles: [BundleSummary(build.bundle)], diagnostics: diagnostics)
        }
    }
}

/// Where the engine finds each kind's subjects: the one `switch` over `RuleKind` that says so. A new kind does not
/// compile until it is given a source here, and `EngineSourcesTests` holds every source to one a run reaches (a
/// registered rule of every kind finds its triggering example through `Engine.run`).
package enum SubjectSource: String, Sendable, CaseIterable {
    /// Each bundle of the app, whole (`Judge.judge`).
    case bundle
    /// Each version of each bundle, or each distinct entity neighborhood (`Judge.versionsAndSteps`).
    case version
    /// Each compared pair of versions, or each distinct entity pair (`Judge.changeFindings`).
    case comparedPair
    /// The change findings of every compared pair of a bundle together (`Judge.changes`).
    case pairFindings
    /// The bundle's shipped records compared with the work tree (`Judge.judge`).
    case shippedRecords
    /// Each Xcode project that lists a bundle's versions (`Linter.lintRead`).
    case project
    /// The whole app: lock file, code references, model classes, SwiftData sets, what the change does to the
    /// configuration (`Linter.lintRead`).
    case app
    /// A store against its bundle (`store`, and golden stores in `check`).
    case store
    /// A compiled model against its bundle (`verify-build`).
    case build
}

extension RuleKind {
    package var source: SubjectSource {
        switch self {
        case .bundle, .migrationStyle, .mappingModel, .pickedMappingModel, .retirement, .suppression: return .bundle
        case .version, .entity: return .version
        case .change, .entityPair: return .comparedPair
        case .pairSet: return .pairFindings
        case .history: return .shippedRecords
        case .project: return .project
        case .lockFile, .configurationChange, .sourceReference, .swiftData, .classParity: return .app
        case .store: return .store
        case .build: return .build
        }
    }
}
