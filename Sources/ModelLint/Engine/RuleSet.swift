import ModelLintModel
import ModelLintRules

/// A run's rules by what they judge, each list in registry order: the one switch over `RuleKind`. The engine
/// hands each list its subjects; a new kind makes this switch, and so the build, fail until it has a list.
public struct RuleSet: Sendable {
    /// A single-version rule: judged a whole version at a time, or one distinct entity neighborhood at a time.
    public enum VersionJudge: Sendable {
        case whole(any VersionRule)
        case entities(any EntityRule)

        public var description: RuleDescription {
            switch self {
            case .whole(let rule): return rule.description
            case .entities(let rule): return rule.description
            }
        }

        /// The rule run on a whole version: what judging each distinct neighborhood once must equal.
        public func check(_ model: Model, context: RuleContext) -> [Finding] {
            switch self {
            case .whole(let rule): return rule.check(model, context: context)
            case .entities(let rule): return rule.check(model, context: context)
            }
        }
    }

    /// A change rule: judged a whole diff at a time, or one matched entity pair at a time.
    public enum PairJudge: Sendable {
        case diff(any ChangeRule)
        case entityPairs(any EntityPairRule)

        public var description: RuleDescription {
            switch self {
            case .diff(let rule): return rule.description
            case .entityPairs(let rule): return rule.description
            }
        }
    }

    public private(set) var all: [any Rule] = []
    public private(set) var ids: Set<String> = []
    public private(set) var bundle: [any BundleRule] = []
    public private(set) var versions: [VersionJudge] = []
    public private(set) var pairs: [PairJudge] = []
    public private(set) var pairSets: [any PairSetRule] = []
    public private(set) var migrationStyle: [any MigrationStyleRule] = []
    public private(set) var mappingModel: [any MappingModelRule] = []
    public private(set) var pickedMappingModel: [any PickedMappingModelRule] = []
    public private(set) var retirement: [any RetirementRule] = []
    public private(set) var suppression: [any SuppressionRule] = []
    public private(set) var history: [any HistoryRule] = []
    public private(set) var lockFile: [any LockFileRule] = []
    public private(set) var build: [any BuildRule] = []
    public private(set) var store: [any StoreRule] = []
    public private(set) var project: [any ProjectRule] = []
    public private(set) var sourceReference: [any SourceReferenceRule] = []
    public private(set) var swiftData: [any SwiftDataRule] = []
    public private(set) var classParity: [any ClassParityRule] = []

    public init(_ rules: [any Rule]) {
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
    public static let registry = RuleSet(RuleRegistry.all)
}
