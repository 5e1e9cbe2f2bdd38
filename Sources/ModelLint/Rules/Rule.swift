import ModelLintSupport
import ModelLintModel
import ModelLintDiff
import ModelLintHistory
import ModelLintCompiled
import ModelLintStores
import ModelLintProjects
import ModelLintSwiftData

package enum Severity: String, Comparable, Sendable, CaseIterable {
    case note, warning, error

    private var rank: Int {
        switch self {
        case .note: return 0
        case .warning: return 1
        case .error: return 2
        }
    }

    package static func < (a: Severity, b: Severity) -> Bool { a.rank < b.rank }
}

/// The catalog's sections (docs/rules/README.md): how `rules`, `explain` and the docs group the rules. How a rule is run is
/// decided by its kind (the protocol it conforms to), not its section.
package enum RuleCategory: String, Sendable, CaseIterable, Equatable {
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
package struct RuleDescription: Sendable {
    package var id: String
    package var category: RuleCategory
    package var severity: Severity
    /// One line, for `modellint rules`.
    package var summary: String
    /// Why it loses data or breaks the store: what Core Data does.
    package var rationale: String
    /// The safe alternative.
    package var fix: String
    /// The safe alternative as a SwiftData schema writes it, where `fix` names what Swift declarations do not have
    /// (an `elementID`, an `inverseName`, Xcode's model editor) or a way out a `.custom` stage does not offer.
    package var swiftDataFix: String?
    /// Models that must trigger the rule (markers `↓` where) and models that must not.
    package var examples: [RuleExample]

    package init(
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
    package func fix(for source: ModelBundle.Source) -> String {
        source.isSwiftData ? swiftDataFix ?? fix : fix
    }
}

/// What a rule found, before the linter stamps bundle, version and final severity on it.
package struct Finding: Sendable, Equatable {
    package static func == (a: Finding, b: Finding) -> Bool {
        a.message == b.message && a.location == b.location && a.entity == b.entity && a.property == b.property
            && a.severity == b.severity && a.version == b.version && a.identity == b.identity
            && a.supersedes.map(\.rule) == b.supersedes.map(\.rule)
            && a.supersedes.map(\.identity) == b.supersedes.map(\.identity) && a.fix == b.fix
    }

    package var message: String
    package var location: SourceLocation
    package var entity: String?
    package var property: String?
    /// Set only by rules whose severity depends on the case (e.g. ordered -> unordered vs the reverse).
    package var severity: Severity?
    /// Set by bundle rules about one version; version rules get theirs from the linter.
    package var version: String?
    /// For change findings: what makes two findings "the same problem" across pairs (entity and
    /// property renaming identifiers), used to find problems that exist only on a skipped-version pair.
    package var identity: String?
    /// Findings of the same pair this one replaces (docs/cli.md "Which findings count": a rename guess replaces
    /// the removal of the element it guesses was renamed), as (rule id, identity).
    package var supersedes: [(rule: String, identity: String)] = []
    /// Rule ids whose findings about the same bundle the text report lists under this one (they stay findings of
    /// their own in every format).
    package var groups: [String] = []
    /// The problem makes the store fail to open: what that costs depends on the app's code (a crash, or the store
    /// destroyed and its data lost), which the report adds when it knows.
    package var failsToOpenStore = false
    /// The fix for this case, where the rule's own would mislead (a file that is fine but may not be read).
    package var fix: String?
    /// The fix for this case said in Swift, for a SwiftData schema (naming the property, as its declaration would).
    package var swiftDataFix: String?

    package init(
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

package protocol Rule: Sendable {
    static var description: RuleDescription { get }
    init()

    /// What the rule judges, supplied by its kind's protocol (a rule conforming to no kind does not compile).
    /// Answered by a witness, not a runtime cast, which would search the binary's conformance records.
    var kind: RuleKind { get }
}

extension Rule {
    package var description: RuleDescription { Self.description }
    package var id: String { Self.description.id }
}
