import ModelLintModel
import ModelLintRules
import ModelLintGather

/// A run's rules by what they judge, each list in registry order: the one switch over `RuleKind`. The engine
/// hands each list its subjects; a new kind makes this switch, and so the build, fail until it has a list.
package struct RuleSet: Sendable {
    /// A single-version rule: judged a whole version at a time, or one distinct entity neighborhood at a time.
    package enum VersionJudge: Sendable {
        case whole(any VersionRule)
        case entities(any EntityRule)

        package var description: RuleDescription {
            switch self {
            case .whole(let rule): return rule.description
            case .entities(let rule): return rule.description
            }
        }

        /// The rule run on a whole version: what judging each distinct neighborhood once must equal.
        package func check(_ model: Model, context: RuleContext) -> [Finding] {
            switch self {
            case .whole(let rule): return rule.check(model, context: context)
            case .entities(let rule): return rule.check(model, context: context)
            }
        }
    }

    /// A change rule: judged a whole diff at a time, or one matched entity pair at a time.
    package enum PairJudge: Sendable {
        case diff(any ChangeRule)
        case entityPairs(any EntityPairRule)

        package var description: RuleDescription {
            switch self {
            case .diff(let rule): return rule.description
            case .entityPairs(let rule): return rule.description
            }
        }
    }

    package private(set) var all: [any Rule] = []
    package private(set) var ids: Set<String> = []
    package private(set) var bundle: [any BundleRule] = []
    package private(set) var versions: [VersionJudge] = []
    package private(set) var pairs: [PairJudge] = []
    package private(set) var pairSets: [any PairSetRule] = []
    package private(set) var migrationStyle: [any MigrationStyleRule] = []
    package private(set) var mappingModel: [any MappingModelRule] = []
    package private(set) var pickedMappingModel: [any PickedMappingModelRule] = []
    package private(set) var retirement: [any RetirementRule] = []
    package private(set) var suppression: [any SuppressionRule] = []
    package private(set) var history: [any HistoryRule] = []
    package private(set) var lockFile: [any LockFileRule] = []
    package private(set) var configurationChange: [any ConfigurationChangeRule] = []
    package private(set) var build: [any BuildRule] = []
    package private(set) var store: [any StoreRule] = []
    package private(set) var project: [any ProjectRule] = []
    package private(set) var sourceReference: [any SourceReferenceRule] = []
    package private(set) var swiftData: [any SwiftDataRule] = []
    package private(set) var classParity: [any ClassParityRule] = []

    package init(_ rules: [any Rule]) {
        all = rules
        ids = Set(rules.map(\.id))
        for rule in rules {
            switch rule.kind {
            case .bundle(let rule): bundle.append(rule)
            case .version(let rule): versions.append(.whole(rule))
            case .entity(let rule): versions.append(.entities(rule))
            case .change(let rule): pairs.append(.diff(rule))
            case .entityPair(let rule): pairs.append(.entityPairs(rule))
            case .pairSet(let rule): pairSets.append(rule)
            case .migrationStyle(let rule): migrationStyle.append(rule)
            case .mappingModel(let rule): mappingModel.append(rule)
            case .pickedMappingModel(let rule): pickedMappingModel.append(rule)
            case .retirement(let rule): retirement.append(rule)
            case .suppression(let rule): suppression.append(rule)
            case .history(let rule): history.append(rule)
            case .lockFile(let rule): lockFile.append(rule)
            case .configurationChange(let rule): configurationChange.append(rule)
            case .build(let rule): build.append(rule)
            case .store(let rule): store.append(rule)
            case .project(let rule): project.append(rule)
            case .sourceReference(let rule): sourceReference.append(rule)
            case .swiftData(let rule): swiftData.append(rule)
            case .classParity(let rule): classParity.append(rule)
            }
        }
    }

    /// Every registered rule.
    package static let registry = RuleSet(RuleRegistry.all)
}
