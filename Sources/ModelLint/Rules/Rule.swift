import ModelLintSupport
import ModelLintModel
import ModelLintDiff
import ModelLintHistory
import ModelLintCompiled
import ModelLintStores
import ModelLintProjects
import ModelLintSwiftData

public enum Severity: String, Comparable, Sendable, CaseIterable {
    case note, warning, error

    private var rank: Int {
        switch self {
        case .note: return 0
        case .warning: return 1
        case .error: return 2
        }
    }

    public static func < (a: Severity, b: Severity) -> Bool { a.rank < b.rank }
}

/// The catalog's sections (rules.md): how `rules`, `explain` and the docs group the rules. How a rule is run is
/// decided by its kind (the protocol it conforms to), not its section.
public enum RuleCategory: String, Sendable, CaseIterable, Equatable {
    case bundleStructure = "Bundle structure"
    case singleVersion = "A single model version"
    case changes = "Changes between versions"
    case renaming = "Renaming"
    case cloudKit = "CloudKit"
    case shippedHistory = "Shipped history"
    case retirement = "Retirement"
    case build = "What ships"
    case swiftData = "SwiftData"
}

/// Everything a rule says about itself: `rules`, `explain`, the docs and the example test all read it.
public struct RuleDescription: Sendable {
    public var id: String
    public var category: RuleCategory
    public var severity: Severity
    /// One line, for `modellint rules`.
    public var summary: String
    /// Why it loses data or breaks the store: what Core Data does.
    public var rationale: String
    /// The safe alternative.
    public var fix: String
    /// The safe alternative as a SwiftData schema writes it, where `fix` names what Swift declarations do not have
    /// (an `elementID`, an `inverseName`, Xcode's model editor) or a way out a `.custom` stage does not offer.
    public var swiftDataFix: String?
    /// Models that must trigger the rule (markers `↓` where) and models that must not.
    public var examples: [RuleExample]

    public init(
        id: String, category: RuleCategory, severity: Severity, summary: String, rationale: String,
        fix: String, swiftDataFix: String? = nil, examples: [RuleExample]
    ) {
        self.id = id
        self.category = category
        self.severity = severity
        self.summary = summary
        self.rationale = rationale
        self.fix = fix
        self.swiftDataFix = swiftDataFix
        self.examples = examples
    }

    /// The safe alternative in the words of the bundle's source.
    public func fix(for source: ModelBundle.Source) -> String {
        source.isSwiftData ? swiftDataFix ?? fix : fix
    }
}

/// What a rule found, before the linter stamps bundle, version and final severity on it.
public struct Finding: Sendable, Equatable {
    public static func == (a: Finding, b: Finding) -> Bool {
        a.message == b.message && a.location == b.location && a.entity == b.entity && a.property == b.property
            && a.severity == b.severity && a.version == b.version && a.identity == b.identity
            && a.supersedes.map(\.rule) == b.supersedes.map(\.rule)
            && a.supersedes.map(\.identity) == b.supersedes.map(\.identity)
    }

    public var message: String
    public var location: SourceLocation
    public var entity: String?
    public var property: String?
    /// Set only by rules whose severity depends on the case (e.g. ordered -> unordered vs the reverse).
    public var severity: Severity?
    /// Set by bundle rules about one version; version rules get theirs from the linter.
    public var version: String?
    /// For change findings: what makes two findings "the same problem" across pairs (entity and
    /// property renaming identifiers), used to find problems that exist only on a skipped-version pair.
    public var identity: String?
    /// Findings of the same pair this one replaces (rules.md "One problem, one finding": a rename guess replaces
    /// the removal of the element it guesses was renamed), as (rule id, identity).
    public var supersedes: [(rule: String, identity: String)] = []
    /// Rule ids whose findings about the same bundle the text report lists under this one (they stay findings of
    /// their own in every format).
    public var groups: [String] = []
    /// The problem makes the store fail to open: what that costs depends on the app's code (a crash, or the store
    /// destroyed and its data lost), which the report adds when it knows.
    public var failsToOpenStore = false

    public init(
        _ message: String, at location: SourceLocation, entity: String? = nil, property: String? = nil,
        severity: Severity? = nil, version: String? = nil
    ) {
        // Names come from untrusted files: a megabyte-long one must not make every message a megabyte.
        self.message = ReportText.boundedMessage(message)
        self.location = location
        self.entity = entity.map(ReportText.shortenedName)
        self.property = property.map(ReportText.shortenedName)
        self.severity = severity
        self.version = version
    }
}

public protocol Rule: Sendable {
    static var description: RuleDescription { get }
    init()

    /// What the rule judges, supplied by its kind's protocol (a rule conforming to no kind does not compile).
    /// Answered by a witness, not a runtime cast, which would search the binary's conformance records.
    var kind: RuleKind { get }
}

extension Rule {
    public var description: RuleDescription { Self.description }
    public var id: String { Self.description.id }
}

/// What a rule judges, and so which subjects the engine hands it. Closed: a new kind is a case here, its
/// protocol's `kind` witness, and its subject in the engine's `RuleSet`, whose exhaustive switch the compiler
/// points at.
public enum RuleKind: Sendable {
    /// The bundle as a whole.
    case bundle(any BundleRule)
    /// One version at a time.
    case version(any VersionRule)
    /// One version's entities one at a time (a version rule the engine judges per distinct neighborhood).
    case entity(any EntityRule)
    /// A compared pair of versions, through the whole diff.
    case change(any ChangeRule)
    /// A compared pair of versions, one matched entity pair at a time.
    case entityPair(any EntityPairRule)
    /// What the change rules found on every compared pair together.
    case pairSet(any PairSetRule)
    /// The bundle's steps and the mapping models covering them: how the app likely migrates.
    case migrationStyle(any MigrationStyleRule)
    /// A mapping model that claims the bundle but equals none of its versions, with the bundle's line.
    case mappingModel(any MappingModelRule)
    /// A mapping model Core Data picks for pairs of the bundle's versions, with the bundle's line.
    case pickedMappingModel(any PickedMappingModelRule)
    /// Retired properties over the bundle's versions.
    case retirement(any RetirementRule)
    /// The `modellint:disable` entries.
    case suppression(any SuppressionRule)
    /// Shipped versions compared with the work tree.
    case history(any HistoryRule)
    /// The lock file's records against the bundles on disk.
    case lockFile(any LockFileRule)
    /// A compiled model against its source.
    case build(any BuildRule)
    /// A store's metadata against the bundle.
    case store(any StoreRule)
    /// An Xcode project's version group.
    case project(any ProjectRule)
    /// A reference to the model in the app's code.
    case sourceReference(any SourceReferenceRule)
    /// A SwiftData schema set: its plan, stages, schemas and the containers the app builds.
    case swiftData(any SwiftDataRule)
    /// The app's model classes against the run's bundles.
    case classParity(any ClassParityRule)
}

extension BundleRule { public var kind: RuleKind { .bundle(self) } }
extension VersionRule { public var kind: RuleKind { .version(self) } }
extension EntityRule { public var kind: RuleKind { .entity(self) } }
extension ChangeRule { public var kind: RuleKind { .change(self) } }
extension EntityPairRule { public var kind: RuleKind { .entityPair(self) } }
extension PairSetRule { public var kind: RuleKind { .pairSet(self) } }
extension MigrationStyleRule { public var kind: RuleKind { .migrationStyle(self) } }
extension MappingModelRule { public var kind: RuleKind { .mappingModel(self) } }
extension PickedMappingModelRule { public var kind: RuleKind { .pickedMappingModel(self) } }
extension SuppressionRule { public var kind: RuleKind { .suppression(self) } }
extension HistoryRule { public var kind: RuleKind { .history(self) } }
extension LockFileRule { public var kind: RuleKind { .lockFile(self) } }
extension RetirementRule { public var kind: RuleKind { .retirement(self) } }
extension BuildRule { public var kind: RuleKind { .build(self) } }
extension StoreRule { public var kind: RuleKind { .store(self) } }
extension ProjectRule { public var kind: RuleKind { .project(self) } }
extension SourceReferenceRule { public var kind: RuleKind { .sourceReference(self) } }
extension SwiftDataRule { public var kind: RuleKind { .swiftData(self) } }
extension ClassParityRule { public var kind: RuleKind { .classParity(self) } }

/// Judges the app's model classes (the `@Model` classes of SwiftData sets, `NSManagedObject` subclasses) against
/// the `.xcdatamodeld` bundles of the run, once per run.
public protocol ClassParityRule: Rule {
    func check(_ classes: ModelClasses) -> [Finding]
}

/// Everything a class parity rule compares: the classes read from Swift and the bundles.
public struct ModelClasses: Sendable {
    public var sets: [SwiftSchemaSet]
    public var managedObjectClasses: [ManagedObjectClass]
    public var bundles: [ModelBundle]

    public init(sets: [SwiftSchemaSet], managedObjectClasses: [ManagedObjectClass], bundles: [ModelBundle]) {
        self.sets = sets
        self.managedObjectClasses = managedObjectClasses
        self.bundles = bundles
    }
}

/// Judges a SwiftData schema set as read from the app's Swift files (already scanned and built): the plan, its
/// stages, its schemas' models and the containers.
public protocol SwiftDataRule: Rule {
    func check(_ set: SwiftSchemaSet, context: SwiftDataContext) -> [Finding]
}

/// What a SwiftData rule may know beyond the Swift files: the schemas as they shipped.
public struct SwiftDataContext: Sendable {
    public struct Shipped: Sendable {
        /// The schema's model as it shipped, when read from git (a lock file keeps digests only).
        public var model: Model?
        public var digest: VersionDigest
        public var source: ShippedHistory.Source
    }

    /// Per schema name: what shipped, from the first record that has it (lock file, `--released`, `--against`).
    public var shipped: [String: Shipped]
    public init(histories: [ShippedHistory] = []) {
        var shipped: [String: Shipped] = [:]
        for history in histories {
            for version in history.versions where shipped[version.name] == nil {
                shipped[version.name] = Shipped(model: version.model, digest: version.digest, source: history.source)
            }
        }
        self.shipped = shipped
    }
}

/// Judges a lock file's records against the bundles found on disk (keys relative to the lock's folder).
public protocol LockFileRule: Rule {
    func check(_ lock: LockFile, lockPath: String, bundleKeysOnDisk: Set<ExactName>) -> [Finding]
}

/// Judges how the app likely migrates a bundle: its steps (consecutive versions) and the mapping models covering
/// them. Run only when neither the command line nor the configuration says.
public protocol MigrationStyleRule: Rule {
    /// `stepMigrators`: code of the app that migrates stores step by step.
    func check(
        _ bundle: ModelBundle, steps: [(from: String, to: String)], mappingModels: [MappingModel],
        stepMigrators: [SourceReference]
    ) -> [Finding]
}

/// Judges what a build produced (a compiled `.momd` and its `.cdm` files) against the source bundle it came from.
/// `source` holds the bundle's readable versions; `current` is the source's current version, when readable.
/// Judges a mapping model that claims the bundle but whose embedded models equal none of its versions; `line`
/// is the bundle's versions as judged, `shipped` those whose stores exist.
public protocol MappingModelRule: Rule {
    func check(_ mapping: UnmatchedMappingModel, bundle: ModelBundle, line: VersionLine, shipped: Set<ExactName>)
        -> [Finding]
}

/// Judges a mapping model Core Data picks for pairs of the bundle's versions (its recorded hashes are in theirs);
/// `line` is the bundle's versions as judged.
public protocol PickedMappingModelRule: Rule {
    func check(_ mapping: MappingModel, line: VersionLine) -> [Finding]
}

public protocol BuildRule: Rule {
    func check(_ build: CompiledModel, source: [VersionRef], current: VersionRef?, context: RuleContext) -> [Finding]
}

/// Judges a Core Data store (its metadata, already read) against the bundle: which version wrote it, and what
/// migrating it to the current version does (the change findings of that migration, already worked out).
public protocol StoreRule: Rule {
    func check(_ store: StoreCheck, context: RuleContext) -> [Finding]
}

/// Everything a store rule sees: the store's metadata and where it matches the bundle.
public struct StoreCheck: Sendable {
    /// The store file as displayed.
    public var path: String
    public var metadata: StoreMetadata
    public var bundle: String
    public var current: VersionRef?
    /// The versions whose entity hashes equal the store's (empty: none wrote it).
    public var matching: [VersionRef]
    /// When none matches: the version with most equal entity hashes, and the entities that differ.
    public var nearest: (version: VersionRef, differing: [String])?
    /// The change findings of migrating the store from its version to the current one, in the migration mode.
    public var migration: [Diagnostic]
    /// Whether this store is a golden fixture named in the configuration (`goldenStores`).
    public var isGolden: Bool
    /// The bundle's readable versions, in order.
    public var versions: [VersionRef] = []
    /// For golden stores: the versions every golden store of this bundle was written by, and whether this is
    /// the bundle's last golden store (rules about the whole set judge it once).
    public var coveredVersions: Set<String> = []
    public var isLastGolden = false
    /// No version wrote the store, and it caches the model that did (`Z_MODELCACHE`, its hashes the store's):
    /// Core Data migrates it from that model, and `migration` holds what that migration finds.
    public var migratesFromCache = false
    /// Written by a model merged from a version of this bundle and other models: that version, the store's
    /// other entities, and the versions of other bundles of the repository those entities match exactly.
    public var merged: (version: VersionRef, others: [String], elsewhere: [(bundle: String, version: String)])?

    public init(
        path: String, metadata: StoreMetadata, bundle: String, current: VersionRef?, matching: [VersionRef],
        nearest: (version: VersionRef, differing: [String])?, migration: [Diagnostic], isGolden: Bool
    ) {
        self.path = path
        self.metadata = metadata
        self.bundle = bundle
        self.current = current
        self.matching = matching
        self.nearest = nearest
        self.migration = migration
        self.isGolden = isGolden
    }
}

/// Judges one reference to the model in the app's code or project generator (already scanned) against the
/// bundles of its repository.
public protocol SourceReferenceRule: Rule {
    func check(_ reference: SourceReference, bundles: [SourceReferenceContext]) -> [Finding]
}

/// What a reference is judged against: a bundle's name, versions, checksums and current version.
public struct SourceReferenceContext: Sendable {
    public var bundlePath: String
    public var bundleName: String
    public var versionNames: Set<String>
    /// versionChecksum -> version name.
    public var checksums: [String: String]
    public var currentVersion: String?

    public init(bundle: ModelBundle) {
        bundlePath = bundle.path
        bundleName = bundle.name
        versionNames = Set(bundle.versions.map(\.name))
        var checksums: [String: String] = [:]
        for version in bundle.versions {
            if let m = version.model { checksums[m.versionHashes.versionChecksum] = version.name }
        }
        self.checksums = checksums
        currentVersion = bundle.declaredCurrentVersion
    }
}

/// Judges the Xcode project's view of a bundle (its version group, already read) against the bundle on disk.
public protocol ProjectRule: Rule {
    func check(_ group: XcodeProject.VersionGroup, project: String, bundle: ModelBundle) -> [Finding]
}

/// Judges shipped versions compared with the work tree; never reads git or the lock file itself.
public protocol HistoryRule: Rule {
    func check(_ comparisons: [ShippedVersionComparison], bundle: ModelBundle) -> [Finding]
}

/// Judges the bundle as a whole: its versions, pointer and files.
public protocol BundleRule: Rule {
    func check(_ bundle: ModelBundle) -> [Finding]
}

public enum MigrationMode: String, CaseIterable, Sendable {
    /// Core Data's default: a store of any older version migrates in one hop to the current version.
    case direct
    /// The app steps through every version.
    case progressive
}

public struct Retirement: Equatable, Sendable {
    public var entity: String
    public var property: String
    public var replacedBy: String?
    public var interimVersion: String?

    package init(entity: String, property: String, replacedBy: String? = nil, interimVersion: String? = nil) {
        self.entity = entity
        self.property = property
        self.replacedBy = replacedBy
        self.interimVersion = interimVersion
    }
}

/// What rules may know beyond the model: the bundle's settings from the configuration.
public struct RuleContext: Sendable, Equatable {
    /// `cloudKit` from the configuration: forces the CloudKit rules on (true) or off (false).
    public var cloudKitOverride: Bool?
    public var retired: [Retirement]
    public var migration: MigrationMode
    /// The value transformer classes the app's code declares.
    public var appTransformers = AppTransformers()
    /// What the versions were read from: a message that says what to write says it in the source's words.
    public var source: ModelBundle.Source = .xcdatamodeld

    public init(cloudKitOverride: Bool? = nil, retired: [Retirement] = [], migration: MigrationMode = .direct) {
        self.cloudKitOverride = cloudKitOverride
        self.retired = retired
        self.migration = migration
    }
}

/// Judges one readable version on its own.
public protocol VersionRule: Rule {
    func check(_ model: Model, context: RuleContext) -> [Finding]
}

/// A single-version rule that judges entities one at a time, reading nothing about an entity beyond its
/// neighborhood (`Model.neighborhood(of:)`: the entity, its ancestors, the entities it names, and the
/// model's CloudKit settings). Most entities repeat unchanged across a bundle's versions, so the linter
/// judges each distinct neighborhood once and carries the findings to the versions that repeat it.
public protocol EntityRule: VersionRule {
    /// Whether `check(_:in:context:)` reads the entity's own elements and nothing else (neither the model, nor the
    /// entity's ancestors or the entities it names, nor the context): then the engine judges each distinct entity
    /// once per bundle, not each distinct neighborhood. False unless a rule says so.
    static var readsOnlyItsEntity: Bool { get }
    /// Findings about the model as a whole rather than one entity (none by default).
    func checkModel(_ model: Model, context: RuleContext) -> [Finding]
    func check(_ entity: Entity, in model: Model, context: RuleContext) -> [Finding]
}

extension EntityRule {
    public static var readsOnlyItsEntity: Bool { false }
    public func checkModel(_ model: Model, context: RuleContext) -> [Finding] { [] }

    public func check(_ model: Model, context: RuleContext) -> [Finding] {
        checkModel(model, context: context) + model.entities.flatMap { check($0, in: model, context: context) }
    }
}

/// Judges a pair of versions through the diff engine's matched changes (every matched, added and removed entity);
/// never matches anything itself.
public protocol ChangeRule: Rule {
    /// Rename heuristics and renaming-identifier rules compare adjacent versions only (rules.md).
    static var adjacentOnly: Bool { get }
    func check(_ diff: ModelDiff, context: RuleContext) -> [ChangeFinding]
}

extension ChangeRule {
    public static var adjacentOnly: Bool { false }
}

/// Judges one matched entity pair of a compared pair of versions, seeing that pair and the two versions, never the
/// other pairs. Older versions compared with the current one repeat most pairs: the engine judges each distinct
/// pair (same older lineage, same newer entity) once and gives its findings to the pairs that repeat it. A pair
/// whose two sides are the same elements (`EntityPair.isUnchanged`) is not judged: a change rule finds changes.
public protocol EntityPairRule: Rule {
    func check(_ pair: EntityPair, of versions: ComparedVersions, context: RuleContext) -> [ChangeFinding]
}

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

/// A rule id that a `modellint:disable` User Info entry names (the engine reads the entries and applies them).
public struct SuppressionName: Sendable {
    public var version: String
    public var entity: String
    public var property: String?
    public var id: String
    public var location: SourceLocation

    public init(version: String, entity: String, property: String?, id: String, location: SourceLocation) {
        self.version = version
        self.entity = entity
        self.property = property
        self.id = id
        self.location = location
    }
}

/// Judges the `modellint:disable` entries of a bundle's versions: every rule id they name.
public protocol SuppressionRule: Rule {
    func check(_ names: [SuppressionName], knownRuleIDs: Set<String>) -> [Finding]
}
