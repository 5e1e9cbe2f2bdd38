import ModelLintSupport
import ModelLintModel
import ModelLintDiff
import ModelLintHistory
import ModelLintCompiled
import ModelLintStores
import ModelLintProjects
import ModelLintSwiftData

/// What a rule judges, and so which subjects the engine hands it. Closed: a new kind is a case here, its
/// protocol's `kind` witness, and its subject in the engine's `RuleSet`, whose exhaustive switch the compiler
/// points at.
package enum RuleKind: Sendable {
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
    /// What a gate run's change does to the configuration, lock file and baseline.
    case configurationChange(any ConfigurationChangeRule)
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
